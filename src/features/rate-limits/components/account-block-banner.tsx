// The console-wide notice while the privacy platform blocks the whole account: shown above every
// page, with a countdown to the block's end and a link to the incident.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useCountdown } from '../../../components/ui/use-countdown';
import { rateLimitKeys, usageQueryOptions } from '../api/rate-limits-api';
import { formatDuration, formatTime } from '../format';
import { useIncidentSignals } from '../incident-stream';
import { serverClockOffset } from '../server-clock';
import './account-block-banner.css';

/** Renders nothing unless an account block is running. */
export function AccountBlockBanner() {
  const queryClient = useQueryClient();
  // Cheap for the BFF (nothing goes upstream); the stream makes new blocks show at once.
  const usage = useQuery(usageQueryOptions(30_000));
  useIncidentSignals(() => {
    void queryClient.invalidateQueries({ queryKey: rateLimitKeys.usage() });
  });
  const data = usage.data;
  if (!data) return null;
  const offset = serverClockOffset(usage);
  const block = data.blocks
    .filter((candidate) => candidate.scope === 'account')
    .sort((a, b) => Date.parse(b.until) - Date.parse(a.until))[0];
  if (!block) return null;
  const until = Date.parse(block.until) + offset;
  // Keyed by the server's time: the local one moves a little with every refresh of the offset.
  return <AccountBlockNotice key={block.until} until={until} incidentKey={block.incidentKey} />;
}

function AccountBlockNotice({ until, incidentKey }: { until: number; incidentKey: string | null }) {
  const remaining = useCountdown(until);
  if (remaining === 0) return null;
  const incidentLink = incidentKey
    ? `/rate-limits?incident=${encodeURIComponent(incidentKey)}`
    : '/rate-limits';
  return (
    <div className="page-banner account-block-banner" data-tone="danger" role="status">
      <svg aria-hidden="true" viewBox="0 0 20 20" width="18" height="18">
        <circle cx="10" cy="10" r="9" fill="currentColor" />
        <rect x="5" y="8.75" width="10" height="2.5" rx="1" fill="#fff" />
      </svg>
      <p>
        <strong>The privacy platform has blocked this account.</strong> The console sends no
        requests until the block ends in{' '}
        {/* Changes every second; announcing each change would drown everything else. */}
        <span aria-live="off" className="account-block-countdown">
          {formatDuration(remaining)}
        </span>{' '}
        (at {formatTime(until)}).
      </p>
      <Link to={incidentLink}>See the incident</Link>
    </div>
  );
}
