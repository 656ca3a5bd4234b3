// The console-wide notice while requests of the whole account are stopped: above every page, with
// who refused what (the platform's block, or the console's own precaution after a 429 it could not
// place) in the server's words for the block, the same every other page shows (shared/
// limit-state.ts), a countdown to the end and a link to the incident.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useCountdown } from '../../../components/ui/use-countdown';
import { accountBlock, blockedLabel, type BlockState } from '../../../shared/limit-state';
import { connectionPagePath, usePageConnectionName } from '../../../lib/connections-query';
import { rateLimitKeys, usageQueryOptions } from '../api/rate-limits-api';
import { formatDuration, formatTime } from '../format';
import { useIncidentSignals } from '../incident-stream';
import { serverClockOffset } from '../server-clock';
import './account-block-banner.css';

/** Renders nothing unless an account block is running. */
export function AccountBlockBanner() {
  const queryClient = useQueryClient();
  // Cheap for the BFF (nothing goes upstream); the stream makes new blocks show at once.
  // The connection the page serves: a block of another connection does not stop this page.
  const connection = usePageConnectionName();
  const usage = useQuery(usageQueryOptions(connection, 30_000));
  useIncidentSignals(() => {
    void queryClient.invalidateQueries({ queryKey: rateLimitKeys.usage(connection) });
  });
  const data = usage.data;
  if (!data) return null;
  const offset = serverClockOffset(usage);
  const block = accountBlock(data.blocks);
  if (!block) return null;
  const until = Date.parse(block.until) + offset;
  // Keyed by the server's time: the local one moves a little with every refresh of the offset.
  return (
    <AccountBlockNotice
      key={block.until}
      until={until}
      block={block}
      page={connectionPagePath(connection, 'rate-limits')}
    />
  );
}

function AccountBlockNotice({
  until,
  block,
  page,
}: {
  until: number;
  block: BlockState;
  /** The blocked connection's rate-limits page. */
  page: string;
}) {
  const remaining = useCountdown(until);
  if (remaining === 0) return null;
  const incidentLink = block.incidentKey
    ? `${page}?incident=${encodeURIComponent(block.incidentKey)}`
    : page;
  return (
    <div className="page-banner account-block-banner" data-tone="danger" role="status">
      <svg aria-hidden="true" viewBox="0 0 20 20" width="18" height="18">
        <circle cx="10" cy="10" r="9" fill="currentColor" />
        <rect x="5" y="8.75" width="10" height="2.5" rx="1" fill="#fff" />
      </svg>
      <p>
        <strong>{blockedLabel(block)}.</strong> {block.reason}{' '}
        {block.cause === 'platform'
          ? 'The console sends nothing until the block ends, so the block is not extended. It ends in'
          : 'It resumes in'}{' '}
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
