// The notice above a list the BFF could not refresh: which list is shown (its age), why it is not
// fresh (a rate-limit block, a platform failure), and when a fresh one can be asked for.
import { ActionButton } from '../../../components/ui/action-button';
import { describeCountdown, formatCountdown } from '../../../components/ui/format-countdown';
import { StatusPanel } from '../../../components/ui/status-panel';
import { useCountdown } from '../../../components/ui/use-countdown';
import type { StaleEventTypes } from '../../../shared/event-types';
import { Instant } from '../../../components/ui/instant';
import { formatAge } from './format';

export interface StaleListNoticeProps {
  stale: StaleEventTypes;
  /** When the list shown was fetched from the platform. */
  fetchedAt: string;
  /** When this answer arrived (epoch ms): the wait counts from there. */
  receivedAt: number;
  onRefresh: () => void;
  refreshing: boolean;
}

/** A warning panel; the list stays usable below it. */
export function StaleListNotice({
  stale,
  fetchedAt,
  receivedAt,
  onRefresh,
  refreshing,
}: StaleListNoticeProps) {
  const freshAt = receivedAt + (stale.retryAfterSeconds ?? 0) * 1_000;
  const remaining = useCountdown(freshAt);
  const rateLimited = stale.status === 429;
  return (
    <StatusPanel
      role="status"
      tone="warning"
      title={
        <>
          Showing the list fetched at <Instant at={fetchedAt} show="time" /> (
          {formatAge(fetchedAt, Date.now())})
        </>
      }
      actions={
        <ActionButton
          className="button"
          onClick={onRefresh}
          unavailable={refreshing || remaining > 0}
        >
          Refresh
        </ActionButton>
      }
    >
      <p>
        {rateLimited
          ? 'The privacy platform is rate limiting the account, so the console cannot ask for a fresh list now.'
          : 'The privacy platform could not be asked for a fresh list.'}{' '}
        <span className="muted">({stale.reason})</span>{' '}
        {remaining > 0 ? (
          <>
            A fresh list can be asked for in{' '}
            <span aria-live="off">
              <time dateTime={`PT${remaining}S`} title={describeCountdown(remaining)}>
                {formatCountdown(remaining)}
              </time>
            </span>{' '}
            (at <Instant at={freshAt} show="time" />
            ).
          </>
        ) : (
          'Refresh to try again.'
        )}
      </p>
      {stale.incidentId ? (
        <p className="muted">
          Incident ID: <code className="incident-id">{stale.incidentId}</code>
        </p>
      ) : null}
    </StatusPanel>
  );
}
