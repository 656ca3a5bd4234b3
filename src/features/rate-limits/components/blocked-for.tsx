// A running block in the words every page uses (shared/limit-state.ts), with a live countdown to
// its end: beside a blocked gauge and on each connection's card of the overview.
import { useCountdown } from '../../../components/ui/use-countdown';
import { blockedLabel, type BlockState } from '../../../shared/limit-state';
import { formatDuration } from '../format';

/**
 * "Blocked by the platform: Account minute limit · 0:42 left", then "Block ended". `until` is
 * this browser's time; key the element by the block's server time so a new block starts afresh.
 */
export function BlockedFor({ until, block }: { until: number; block: BlockState }) {
  const remaining = useCountdown(until);
  return remaining > 0 ? (
    <span className="gauge-blocked" title={block.reason}>
      {blockedLabel(block)} · <span aria-live="off">{formatDuration(remaining)}</span> left
    </span>
  ) : (
    <span>Block ended</span>
  );
}
