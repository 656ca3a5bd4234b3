// The console-wide notice while requests of the whole account are stopped: above every page, with
// who refused what (the platform's block, or the console's own precaution after a 429 it could not
// place), a countdown to the end and a link to the incident.
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useCountdown } from '../../../components/ui/use-countdown';
import { useConsoleMeta } from '../../../lib/console-meta-query';
import type { ActiveBlock } from '../../../shared/incident';
import {
  incidentsQueryOptions,
  rateLimitKeys,
  rulesQueryOptions,
  usageQueryOptions,
} from '../api/rate-limits-api';
import { blockCause } from '../block-cause';
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
  return <AccountBlockNotice key={block.until} until={until} block={block} />;
}

/** The unfiltered incident list: the same cache entry the rate-limits page shows. */
const ALL_INCIDENTS = {};

function AccountBlockNotice({ until, block }: { until: number; block: ActiveBlock }) {
  const remaining = useCountdown(until);
  // Shared with the pages (same keys): usually answered from the cache, else one cheap read.
  const rules = useQuery(rulesQueryOptions());
  const incidents = useInfiniteQuery(incidentsQueryOptions(ALL_INCIDENTS));
  const meta = useConsoleMeta();
  if (remaining === 0) return null;
  const incident = incidents.data?.pages
    .flatMap((page) => page.items)
    .find((candidate) => candidate.key === block.incidentKey);
  const rule = rules.data?.rules.find((candidate) => candidate.id === block.ruleId);
  const cause = blockCause(block, rule, incident, meta.data?.operations);
  const incidentLink = block.incidentKey
    ? `/rate-limits?incident=${encodeURIComponent(block.incidentKey)}`
    : '/rate-limits';
  return (
    <div className="page-banner account-block-banner" data-tone="danger" role="status">
      <svg aria-hidden="true" viewBox="0 0 20 20" width="18" height="18">
        <circle cx="10" cy="10" r="9" fill="currentColor" />
        <rect x="5" y="8.75" width="10" height="2.5" rx="1" fill="#fff" />
      </svg>
      <p>
        <strong>{cause.headline}</strong> {cause.action}{' '}
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
