// Limits the platform stated in a 429 that disagree with the configured ones: the console says
// so, shows which it keeps (the stricter), and lets an admin go back to the configured limits.
import type { ReportedLimit } from '../../../shared/incident';
import { ActionButton } from '../../../components/ui/action-button';
import { EndpointLabel } from '../../../components/ui/endpoint-label';
import { useForgetReportedLimits } from '../api/rate-limits-api';
import { formatCount } from '../../../lib/format';
import { formatTime } from '../format';

export interface ReportedLimitsPanelProps {
  /** Whose reported limits these are. */
  connection: string;
  reported: readonly ReportedLimit[];
  /** Admins may forget them. */
  canReset: boolean;
  /** Add to a server time to get this browser's time. */
  offsetMs: number;
}

/** A warning card listing each disagreement; render it only when there is one. */
export function ReportedLimitsPanel({
  connection,
  reported,
  canReset,
  offsetMs,
}: ReportedLimitsPanelProps) {
  const forget = useForgetReportedLimits(connection);
  return (
    <section className="card rate-limits-section reported-limits" aria-labelledby="reported-title">
      <div className="section-head">
        <h2 id="reported-title">Limits the platform reported</h2>
        {canReset ? (
          <ActionButton
            className="button"
            unavailable={forget.isPending}
            onClick={() => forget.mutate()}
          >
            Go back to the configured limits
          </ActionButton>
        ) : null}
      </div>
      <p className="muted section-note">
        A 429 states the limit in force (<code>ot-requests-allowed</code> per <code>ot-period</code>
        ). Where that disagrees with the configured limit, the console keeps the stricter of the two
        until it restarts or an admin goes back to the configured limits, so the same call does not
        draw the same 429 again.
      </p>
      <ul className="reported-list">
        {reported.map((limit) => {
          const period = limit.period.toLowerCase();
          return (
            <li key={`${limit.endpoint} ${limit.period}`}>
              <span className="reported-endpoint">
                <EndpointLabel endpoint={limit.endpoint} />
              </span>
              <span>
                The platform reported <strong>{formatCount(limit.reported)}</strong> per {period};{' '}
                {limit.configured === null
                  ? 'no configured limit of this call counts per ' + period
                  : `the configured limit is ${formatCount(limit.configured)} per ${period}`}
                . The console keeps <strong>{formatCount(limit.kept)}</strong> per {period}
                {limit.kept === limit.reported
                  ? ` (${formatCount(limit.used)} used).`
                  : ' (its own, the stricter).'}
              </span>
              <span className="muted">
                Last reported at {formatTime(Date.parse(limit.lastReportedAt) + offsetMs)} ·
                incident <code>{limit.incidentKey}</code>
              </span>
            </li>
          );
        })}
      </ul>
      {forget.isError ? (
        <p role="alert" className="muted">
          Could not go back to the configured limits: {forget.error.message}
        </p>
      ) : null}
    </section>
  );
}
