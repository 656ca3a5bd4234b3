// An instant on a page: written in the reader's zone and labelled (lib/format.ts says why), with
// the exact instant one hover away in UTC and machine-readable in dateTime.
import { formatDate, formatDateTime, formatTime } from '../../lib/format';
import { utcText } from '../../shared/utc-text';

const FORMATS = { date: formatDate, time: formatTime, 'date-time': formatDateTime } as const;

export interface InstantProps {
  /** The instant: an ISO 8601 string or epoch milliseconds. */
  at: string | number;
  /** "date-time" (default) for the full instant, "time" for a time of today, "date" for a day. */
  show?: keyof typeof FORMATS;
  className?: string;
}

/** `<time>` with the instant in the reader's zone, its UTC time in the title. */
export function Instant({ at, show = 'date-time', className }: InstantProps) {
  const iso = new Date(at).toISOString();
  return (
    <time dateTime={iso} title={utcText(iso)} className={className}>
      {FORMATS[show](at)}
    </time>
  );
}
