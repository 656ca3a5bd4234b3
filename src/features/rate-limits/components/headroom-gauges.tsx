// How close each limit is: the console's own requests in each rule's sliding window against the
// limit, when headroom grows again, and any block running for the rule.
import type { Rule, RuleUsage, Usage } from '../../../shared/incident';
import { useCountdown } from '../../../components/ui/use-countdown';
import { formatCount, formatDuration, formatTime, ruleTitle } from '../format';

export interface HeadroomGaugesProps {
  usage: Usage;
  rules: readonly Rule[];
  /** Add to a server time to get this browser's time. */
  offsetMs: number;
}

/** Account limits first and large, then every module rule of the table. */
export function HeadroomGauges({ usage, rules, offsetMs }: HeadroomGaugesProps) {
  const byRule = new Map<string, RuleUsage[]>();
  for (const limit of usage.rules)
    byRule.set(limit.ruleId, [...(byRule.get(limit.ruleId) ?? []), limit]);
  const account = rules.filter((rule) => rule.scope === 'account');
  const modules = rules.filter((rule) => rule.scope === 'module');
  // Folded while no module rule has traffic or a block of its own: twelve empty gauges are noise.
  const modulesBusy = usage.rules.some(
    (limit) =>
      modules.some((rule) => rule.id === limit.ruleId) &&
      (limit.used > 0 || limit.blockedBy === 'rule'),
  );
  return (
    <div className="headroom">
      <ul className="headroom-account" aria-label="Account limits">
        {account.map((rule) =>
          (byRule.get(rule.id) ?? []).map((limit) => (
            <li key={`${rule.id}-${limit.period}`}>
              <Gauge rule={rule} limit={limit} offsetMs={offsetMs} prominent />
            </li>
          )),
        )}
      </ul>
      <details className="headroom-modules" open={modulesBusy || undefined}>
        <summary>
          Module rules <span className="muted">({modules.length}, in addition to the account)</span>
        </summary>
        <ul aria-label="Module rules">
          {modules.map((rule) => (
            <li key={rule.id}>
              <div className="headroom-rule-head">
                <span className="headroom-rule-title" title={rule.violation}>
                  {ruleTitle(rule)}
                </span>
                <span className="badge" data-kind={rule.kind}>
                  {rule.kind === 'hard'
                    ? 'hard · 429'
                    : rule.enforced
                      ? 'soft · kept'
                      : 'soft · not kept'}
                </span>
              </div>
              {(byRule.get(rule.id) ?? []).map((limit) => (
                <Gauge key={limit.period} rule={rule} limit={limit} offsetMs={offsetMs} />
              ))}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}

function Gauge({
  rule,
  limit,
  offsetMs,
  prominent = false,
}: {
  rule: Rule;
  limit: RuleUsage;
  offsetMs: number;
  prominent?: boolean;
}) {
  const share = limit.limit > 0 ? limit.used / limit.limit : 0;
  const level = share >= 0.9 ? 'high' : share >= 0.7 ? 'medium' : 'low';
  const period = limit.period === 'MINUTE' ? 'minute' : 'hour';
  const label = `${prominent ? ruleTitle(rule) : `${rule.area} ${period}`}: ${formatCount(limit.used)} of ${formatCount(limit.limit)} per ${period}`;
  // An account block is on the banner and the account gauges; a module gauge shows its own.
  const ownBlock = prominent || limit.blockedBy === 'rule';
  const blockedUntil =
    limit.blockedUntil && ownBlock ? Date.parse(limit.blockedUntil) + offsetMs : null;
  return (
    <div className="gauge" data-prominent={prominent || undefined}>
      <div className="gauge-head">
        {prominent ? <span className="gauge-title">{ruleTitle(rule)}</span> : null}
        <span className="gauge-numbers">
          <strong>{formatCount(limit.used)}</strong> of {formatCount(limit.limit)} per {period}
          {rule.limits.find((window) => window.period === limit.period)?.overridden
            ? ' (vendor override)'
            : ''}
        </span>
      </div>
      <div
        className="gauge-track"
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={limit.limit}
        aria-valuenow={Math.min(limit.used, limit.limit)}
        data-level={level}
      >
        <div
          className="gauge-fill"
          // The one inline style: a width computed from data (allowed by the CSP for CSSOM).
          style={{ width: `${Math.min(100, share * 100)}%` }}
        />
      </div>
      <div className="gauge-foot muted">
        {blockedUntil !== null && blockedUntil > Date.now() ? (
          <BlockedFor key={limit.blockedUntil} until={blockedUntil} />
        ) : !prominent && limit.used === 0 ? null : limit.resetsAt ? (
          <span>
            {formatCount(limit.remaining)} left · more from{' '}
            {formatTime(Date.parse(limit.resetsAt) + offsetMs)}
          </span>
        ) : (
          <span>No requests in the last {period}</span>
        )}
      </div>
    </div>
  );
}

function BlockedFor({ until }: { until: number }) {
  const remaining = useCountdown(until);
  return remaining > 0 ? (
    <span className="gauge-blocked">
      Blocked · <span aria-live="off">{formatDuration(remaining)}</span> left
    </span>
  ) : (
    <span>Block ended</span>
  );
}
