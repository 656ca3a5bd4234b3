// Numbers and times as the console writes them, fixed to English like the rest of the UI text.
// Every page writes instants in one format: ISO-like date, 24-hour clock, in the user's time zone,
// with the zone's short name where a reader may compare the time with another system (support
// texts, audit records, tooltips). "25/11/2026" or "4:02:48 PM" next to "15:45" made people
// wonder whether two pages meant different times.
//
// The formatters are built once, on first use rather than at import: the first Intl object of a
// page loads the browser's locale data (30 to 60 ms measured in Chromium), and at import that ran
// before the app had asked for its first page's code and data.

/** `build()`'s value, built at the first call. */
function builtOnce<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/** "20,000": written once for the page and the server's messages (src/shared/counted.ts). */
export { formatCount } from '../shared/counted';

// Intl.DateTimeFormat is costly to create. `en` with numeric parts and h23 gives the same digits in
// every browser; the parts are assembled below so the order never depends on locale.
const instantParts = builtOnce(
  () =>
    new Intl.DateTimeFormat('en', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    }),
);

interface InstantParts {
  date: string;
  clock: string;
  seconds: string;
  zone: string;
}

function partsOf(instant: string | number | Date): InstantParts {
  const byType: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of instantParts().formatToParts(new Date(instant)))
    byType[part.type] = part.value;
  return {
    date: `${byType.year}-${byType.month}-${byType.day}`,
    clock: `${byType.hour}:${byType.minute}`,
    seconds: byType.second ?? '00',
    zone: byType.timeZoneName ?? '',
  };
}

/** "2026-11-25". */
export function formatDate(instant: string | number | Date): string {
  return partsOf(instant).date;
}

/** "15:49" on a 24-hour clock: chart axes and "as of" notes. */
export function formatClock(instant: string | number | Date): string {
  return partsOf(instant).clock;
}

/** "15:49:02" on a 24-hour clock: times of today (countdowns' ends, incident rows). */
export function formatTime(instant: string | number | Date): string {
  const parts = partsOf(instant);
  return `${parts.clock}:${parts.seconds}`;
}

/**
 * "2026-11-25 15:49:02", or with `zone` "2026-11-25 15:49:02 GMT+1": the one date-and-time
 * format of the console.
 */
export function formatDateTime(
  instant: string | number | Date,
  { zone = false }: { zone?: boolean } = {},
): string {
  const parts = partsOf(instant);
  const text = `${parts.date} ${parts.clock}:${parts.seconds}`;
  return zone && parts.zone ? `${text} ${parts.zone}` : text;
}
