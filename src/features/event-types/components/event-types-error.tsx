// The failure states of the event-types page: one plain-language message per problem type, and
// for a rate limit a live countdown that keeps "Try again" disabled until the block has passed.
import { ApiError } from '../../../lib/api-client';
import { PROBLEM_TYPES, type Problem } from '../../../shared/problem';
import { ActionButton } from '../../../components/ui/action-button';
import { Instant } from '../../../components/ui/instant';
import { StatusPanel } from '../../../components/ui/status-panel';
import { useCountdown } from '../../../components/ui/use-countdown';
import { describeCountdown, formatCountdown } from '../../../components/ui/format-countdown';
import { describeProblem } from '../describe-problem';

export interface EventTypesErrorProps {
  error: unknown;
  /** When the error arrived (epoch ms): the rate-limit countdown runs from there. */
  errorUpdatedAt: number;
  onRetry: () => void;
  /** True while a retry is in flight. */
  retrying: boolean;
}

/** An alert saying what went wrong and what to do, with a "Try again" button. */
export function EventTypesError({
  error,
  errorUpdatedAt,
  onRetry,
  retrying,
}: EventTypesErrorProps) {
  if (error instanceof ApiError && error.problem.type === PROBLEM_TYPES.rateLimited) {
    // Keyed by arrival so a new 429 restarts the countdown from its own Retry-After.
    return (
      <RateLimitedError
        key={errorUpdatedAt}
        problem={error.problem}
        errorUpdatedAt={errorUpdatedAt}
        onRetry={onRetry}
        retrying={retrying}
      />
    );
  }
  const { title, advice } = describeProblem(error);
  const detail = error instanceof ApiError ? error.problem.detail : undefined;
  return (
    <StatusPanel
      role="alert"
      tone="danger"
      title={title}
      actions={<RetryButton onRetry={onRetry} disabled={retrying} />}
    >
      <p>{advice}</p>
      {detail && detail !== advice ? <p className="muted">Details: {detail}</p> : null}
      {error instanceof ApiError ? <IncidentId problem={error.problem} /> : null}
    </StatusPanel>
  );
}

function RateLimitedError({
  problem,
  errorUpdatedAt,
  onRetry,
  retrying,
}: {
  problem: Problem;
  errorUpdatedAt: number;
  onRetry: () => void;
  retrying: boolean;
}) {
  const retryAfter = problem.retryAfterSeconds ?? 0;
  const retryAt = errorUpdatedAt + retryAfter * 1000;
  const remaining = useCountdown(retryAt);
  const waiting = remaining > 0;
  return (
    <StatusPanel
      role="alert"
      tone="warning"
      title={
        <>
          Rate limited by the privacy platform —{' '}
          {/* The number changes every second; announcing each change would drown everything. */}
          <span aria-live="off">
            {waiting ? (
              <>
                try again in{' '}
                <time dateTime={`PT${remaining}S`} title={describeCountdown(remaining)}>
                  {formatCountdown(remaining)}
                </time>{' '}
                (at <Instant at={retryAt} show="time" />)
              </>
            ) : (
              'you can try again now'
            )}
          </span>
        </>
      }
      actions={<RetryButton onRetry={onRetry} disabled={waiting || retrying} />}
    >
      <p>
        The console or the platform is holding requests back because too many were made in a short
        time. The page loads as soon as you try again after the wait.
      </p>
      <IncidentId problem={problem} />
    </StatusPanel>
  );
}

function IncidentId({ problem }: { problem: Problem }) {
  if (!problem.incidentId) return null;
  return (
    <p className="muted">
      Incident ID: <code className="incident-id">{problem.incidentId}</code> (quote it to support)
    </p>
  );
}

function RetryButton({ onRetry, disabled }: { onRetry: () => void; disabled: boolean }) {
  // Stays focusable while waiting: pressing it must not drop the keyboard user's place.
  return (
    <ActionButton className="button button-primary" onClick={onRetry} unavailable={disabled}>
      Try again
    </ActionButton>
  );
}
