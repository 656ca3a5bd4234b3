// How close each limit is: the console's own requests in each rule's sliding window against the
// limit, when headroom grows again, and any block running for the rule.
import { counted } from '../../../shared/counted';
import type { Incident, Rule, RuleUsage, Usage } from '../../../shared/incident';
import { EndpointLabel } from '../../../components/ui/endpoint-label';
import { formatCount } from '../../../lib/format';
import { limitName } from '../../../shared/rate-limits';
import { formatTime, ruleRequests, ruleTitle } from '../format';
import { BlockedFor } from './blocked-for';

export interface HeadroomGaugesProps {
  usage: Usage;
  rules: readonly Rule[];
  /** Add to a server time to get this browser's time. */
  offsetMs: number;
  /** The incidents loaded: a 429's `ot-request-made` is the platform's own count. */
  incidents?: readonly Incident[];
}

/** What the platform counted, when it told the console in a 429 within the window. */
interface PlatformCount {
  readonly made: number;
  readonly at: number;
}

/**
 * The platform's count for `limit` when the console's own is far below it: from the latest 429
 * of the limit's rule and period still within its window. Other clients of the account use the
 * same limits, so the platform's figure is the account's level; "2 of 20,000" would mislead.
 */
export function platformCount(
  limit: RuleUsage,
  incidents: readonly Incident[],
  now: number,
): PlatformCount | undefined {
  const from = now - limit.windowSeconds * 1_000;
  const latest = incidents
    .filter(
      (incident) =>
        incident.ruleId === limit.ruleId &&
        incident.period === limit.period &&
        incident.requestsMade !== null &&
        Date.parse(incident.lastSeen) >= from,
    )
    .sort((a, b) => Date.parse(b.lastSeen) - Date.parse(a.lastSeen))[0];
  if (!latest || latest.requestsMade === null) return undefined;
  // "Far below": the console saw less than half of what the platform counted.
  if (limit.used * 2 >= latest.requestsMade) return undefined;
  return { made: latest.requestsMade, at: Date.parse(latest.lastSeen) };
}

/** How full a limit reads: `high` from 90 %, `medium` from 70 % (the meters' colour). */
export function headroomLevel(share: number): 'low' | 'medium' | 'high' {
  return share >= 0.9 ? 'high' : share >= 0.7 ? 'medium' : 'low';
}

/** Account limits first and large, then every module rule of the table. */
export function HeadroomGauges({ usage, rules, offsetMs, incidents = [] }: HeadroomGaugesProps) {
  const now = Date.parse(usage.now);
  const byRule = new Map<string, RuleUsage[]>();
  for (const limit of usage.rules)
    byRule.set(limit.ruleId, [...(byRule.get(limit.ruleId) ?? []), limit]);
  const account = rules.filter((rule) => rule.scope === 'account');
  const modules = rules.filter((rule) => rule.scope === 'module');
  const perEndpoint = rules.filter((rule) => rule.scope === 'endpoint');
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
              <Gauge
                rule={rule}
                limit={limit}
                offsetMs={offsetMs}
                prominent
                platform={platformCount(limit, incidents, now)}
              />
            </li>
          )),
        )}
      </ul>
      {perEndpoint.map((rule) => {
        const windows = (byRule.get(rule.id) ?? []).filter((limit) => limit.endpoint);
        return (
          <details key={rule.id} className="headroom-modules" open>
            <summary>
              {ruleTitle(rule)}{' '}
              <span className="muted">({counted(windows.length, 'endpoint')} called so far)</span>
            </summary>
            <ul aria-label={ruleTitle(rule)}>
              {windows.map((limit) => (
                <li key={limit.endpoint}>
                  <div className="headroom-rule-head">
                    <span className="headroom-rule-title">
                      <EndpointLabel endpoint={limit.endpoint!} />
                    </span>
                  </div>
                  <Gauge rule={rule} limit={limit} offsetMs={offsetMs} />
                </li>
              ))}
            </ul>
          </details>
        );
      })}
      {modules.length === 0 ? null : (
        <details className="headroom-modules" open={modulesBusy || undefined}>
          <summary>
            Module rules{' '}
            <span className="muted">({modules.length}, in addition to the account)</span>
          </summary>
          <ul aria-label="Module rules">
            {modules.map((rule) => (
              <li key={rule.id}>
                <div className="headroom-rule-head">
                  <span className="headroom-rule-title" title={rule.violation}>
                    {ruleTitle(rule)} <span className="muted">{ruleRequests(rule)}</span>
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
      )}
    </div>
  );
}

function Gauge({
  rule,
  limit,
  offsetMs,
  prominent = false,
  platform,
}: {
  rule: Rule;
  limit: RuleUsage;
  offsetMs: number;
  prominent?: boolean;
  platform?: PlatformCount | undefined;
}) {
  const level = platform ? platform.made : limit.used;
  const share = limit.limit > 0 ? level / limit.limit : 0;
  const tone = headroomLevel(share);
  const period = limit.period === 'MINUTE' ? 'minute' : 'hour';
  const label = `${limitName(rule.id, limit.period)}: ${formatCount(level)} of ${formatCount(limit.limit)} per ${period}${platform ? ', as the platform counted' : ''}`;
  // An account block is on the banner and the account gauges; a module gauge shows its own.
  const block = limit.block && (prominent || limit.block.scope === 'rule') ? limit.block : null;
  const blockedUntil = block ? Date.parse(block.until) + offsetMs : null;
  return (
    <div className="gauge" data-prominent={prominent || undefined}>
      <div className="gauge-head">
        {prominent ? <span className="gauge-title">{limitName(rule.id, limit.period)}</span> : null}
        <span className="gauge-numbers">
          <strong>{formatCount(level)}</strong> of {formatCount(limit.limit)} per {period}
          {rule.limits.find((window) => window.period === limit.period)?.overridden
            ? ' (vendor override)'
            : ''}
        </span>
        {platform ? (
          <span className="gauge-platform muted">
            as the platform counted at {formatTime(platform.at + offsetMs)}; this console sent{' '}
            {formatCount(limit.used)}
          </span>
        ) : null}
      </div>
      <div
        className="gauge-track"
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={limit.limit}
        aria-valuenow={Math.min(level, limit.limit)}
        data-level={tone}
      >
        <div
          className="gauge-fill"
          // The one inline style: a width computed from data (allowed by the CSP for CSSOM).
          style={{ width: `${Math.min(100, share * 100)}%` }}
        />
      </div>
      <div className="gauge-foot muted">
        {block && blockedUntil !== null && blockedUntil > Date.now() ? (
          <BlockedFor key={block.until} until={blockedUntil} block={block} />
        ) : !prominent && limit.used === 0 ? null : limit.resetsAt ? (
          <span>
            {/* With the platform's count, what is left is what it would still allow. */}
            {formatCount(
              platform ? Math.max(0, limit.limit - platform.made) : limit.remaining,
            )}{' '}
            left · more from {formatTime(Date.parse(limit.resetsAt) + offsetMs)}
          </span>
        ) : (
          <span>No requests in the last {period}</span>
        )}
      </div>
    </div>
  );
}
