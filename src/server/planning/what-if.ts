// The what-if use case: the account's recorded traffic over a period, replayed against a chosen
// policy and against the one in force, side by side, with who would have drawn the refusals and
// a chart's worth of buckets. No HTTP here: the routes read the request and render the answer.
import { randomUUID } from 'node:crypto';
import { counted } from '../../shared/counted';
import {
  MAX_BREACHES_LISTED,
  PLANNING_PERIODS,
  type Breach,
  type PolicyChoice,
  type ReplayBucket,
  type ReplayOutcome,
  type WhatIfRequest,
  type WhatIfResult,
} from '../../shared/planning';
import { limitName, type RateLimitRule } from '../../shared/rate-limits';
import { attribute, UNATTRIBUTED, type SourceShare } from './attribution';
import { rulesOf, summaryOf, type ConnectionPolicy, type PolicyInForce } from './policies';
import { minuteAt, replay, type MinuteSeries, type RefusalTarget, type ReplayRun } from './replay';
import { loadTraffic, type PolicyGrouping } from './traffic-series';
import { CONSOLE_SOURCE, type TrafficStore } from './traffic-store';

const MINUTE_MS = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The period asked for is longer than the traffic is kept. */
export class PeriodTooLongError extends Error {
  override name = 'PeriodTooLongError';
}

/** Nothing was recorded in the period: there is nothing to replay. */
export class NoRecordedTrafficError extends Error {
  override name = 'NoRecordedTrafficError';
}

export interface PlanningDeps {
  readonly store: TrafficStore;
  /** The policy in force on the connection whose traffic `store` holds. */
  readonly inForce: PolicyInForce;
  /**
   * Every connection of the console with its policy in force, this one included: a replay may run
   * under another's, and the answers name the connections by their labels.
   */
  readonly connections: readonly ConnectionPolicy[];
  /** Days the traffic is kept (INTEGRATION_RETENTION_DAYS). */
  readonly retentionDays: number;
  /** Each integration's name by id (the registry). */
  readonly integrationNames: () => Promise<ReadonlyMap<string, string>>;
  readonly now: () => number;
}

/** The name a source is shown with. */
export function sourceName(source: string, names: ReadonlyMap<string, string>): string {
  if (source === CONSOLE_SOURCE) return 'This console';
  if (source === UNATTRIBUTED)
    return 'Not attributed (too many minutes, or reports still arriving)';
  return names.get(source) ?? `Integration ${source} (no longer registered)`;
}

/** Minutes set aside as implausible, as the what-if and the readiness report list them. */
export function setAsideListed(
  entries: ReadonlyArray<{ source: string; minute: number; reported: number }>,
  names: ReadonlyMap<string, string>,
): WhatIfResult['setAside'] {
  return entries.map((entry) => ({
    source: entry.source,
    name: sourceName(entry.source, names),
    minute: new Date(entry.minute).toISOString(),
    reported: entry.reported,
  }));
}

/** The period's first minute and length; refuses one longer than the retention. */
export function periodWindow(
  period: WhatIfRequest['period'],
  deps: Pick<PlanningDeps, 'retentionDays' | 'now'>,
  at = deps.now(),
): { from: number; to: number; length: number } {
  const { minutes, label } = PLANNING_PERIODS[period];
  if (minutes > deps.retentionDays * 1_440) {
    throw new PeriodTooLongError(
      `${label} is longer than the ${counted(deps.retentionDays, 'day')} traffic is kept (INTEGRATION_RETENTION_DAYS): the replay would miss its start. Choose a shorter period.`,
    );
  }
  const to = Math.floor(at / MINUTE_MS) * MINUTE_MS;
  return { from: to - (minutes - 1) * MINUTE_MS, to, length: minutes };
}

function breachOf(series: MinuteSeries, breach: ReplayRun['breaches'][number]): Breach {
  return {
    minute: iso(minuteAt(series, breach.index)),
    ruleId: breach.rule.id,
    name: limitName(breach.rule.id, breach.window.period),
    endpoint: breach.endpoint,
    period: breach.window.period,
    limit: breach.window.limit,
    requests: breach.requests,
    refused: breach.refused,
    kind: breach.rule.kind,
  };
}

function outcomeOf(
  choice: PolicyChoice,
  rules: readonly RateLimitRule[],
  run: ReplayRun,
  series: MinuteSeries,
  shares: ReadonlyMap<string, SourceShare>,
  names: ReadonlyMap<string, string>,
  deps: PlanningDeps,
): ReplayOutcome {
  const breaches = run.breaches.map((breach) => breachOf(series, breach));
  const hard = breaches.find((breach) => breach.kind === 'hard');
  const headroom = run.headroom;
  return {
    policy: summaryOf(choice, rules, deps.inForce, deps.connections),
    refused: run.refused,
    refusedWhileBlocked: run.refusedWhileBlocked,
    minutesOver: run.minutesOver,
    minutesSlowed: run.minutesSlowed,
    firstBreach: hard ?? breaches[0] ?? null,
    breaches: breaches.slice(0, MAX_BREACHES_LISTED),
    breachesTotal: breaches.length,
    bySource: [...shares]
      .map(([source, share]) => ({
        source,
        name: sourceName(source, names),
        requests: share.requests,
        refused: share.refused,
      }))
      .filter((entry) => entry.refused > 0)
      .sort((a, b) => b.refused - a.refused || a.name.localeCompare(b.name)),
    headroom: headroom && {
      ruleId: headroom.rule.id,
      name: limitName(headroom.rule.id, headroom.window.period),
      endpoint: headroom.endpoint,
      limit: headroom.window.limit,
      used: headroom.used,
      left: headroom.left,
    },
  };
}

function bucketsOf(
  series: MinuteSeries,
  bucketMinutes: number,
  inForce: ReplayRun,
  chosen: ReplayRun,
): ReplayBucket[] {
  const buckets: ReplayBucket[] = [];
  for (let start = 0; start < series.length; start += bucketMinutes) {
    let peakMinute = 0;
    let peakEndpointMinute = 0;
    let requests = 0;
    let refusedInForce = 0;
    let refusedChosen = 0;
    for (let index = start; index < Math.min(series.length, start + bucketMinutes); index += 1) {
      const total = series.total[index] ?? 0;
      peakMinute = Math.max(peakMinute, total);
      peakEndpointMinute = Math.max(peakEndpointMinute, series.peakCell[index] ?? 0);
      requests += total;
      refusedInForce += inForce.refusedPerMinute[index] ?? 0;
      refusedChosen += chosen.refusedPerMinute[index] ?? 0;
    }
    buckets.push({
      start: iso(minuteAt(series, start)),
      peakMinute,
      peakEndpointMinute,
      requests,
      refusedInForce,
      refusedChosen,
    });
  }
  return buckets;
}

/** The 429s recorded in the period's minutes, per endpoint (the console's and the reporters'). */
async function recorded429s(store: TrafficStore, from: number, to: number) {
  const byEndpoint = (await store.throttledTotals(from, to))
    .map((row) => ({ endpoint: `${row.method} ${row.template}`, throttled: row.throttled }))
    .sort((a, b) => b.throttled - a.throttled || a.endpoint.localeCompare(b.endpoint));
  return { total: byEndpoint.reduce((sum, row) => sum + row.throttled, 0), byEndpoint };
}

/** The connection whose traffic `deps.store` holds, by its name and label. */
export function connectionOf(deps: Pick<PlanningDeps, 'store' | 'connections'>) {
  const name = deps.store.connection;
  return { name, label: deps.connections.find((entry) => entry.name === name)?.label ?? name };
}

/** Replays the period's traffic against `request.policy` and the policy in force. */
export async function whatIf(deps: PlanningDeps, request: WhatIfRequest): Promise<WhatIfResult> {
  const inForceChoice: PolicyChoice = { kind: 'published', version: deps.inForce.policy };
  const inForceRules = rulesOf(inForceChoice, deps.inForce);
  const chosenRules = rulesOf(request.policy, deps.inForce, deps.connections);
  // One instant for the window and the stamp: the last minute is read as far as it has gone, so
  // the window ends at the generation time, never after it.
  const at = deps.now();
  const { from, to, length } = periodWindow(request.period, deps, at);
  const traffic = await loadTraffic(
    deps.store,
    from,
    length,
    [inForceRules, chosenRules],
    inForceRules,
  );
  const { label } = PLANNING_PERIODS[request.period];
  const replayed = traffic?.series.total.reduce((sum, value) => sum + value, 0) ?? 0;
  if (!traffic || replayed === 0) {
    throw new NoRecordedTrafficError(
      `No request was recorded in the period (${label.toLowerCase()}), by this console or by any reporting integration${traffic?.setAside.length ? ' (reports set aside as implausible are not replayed)' : ''}, so there is nothing to replay: this is not a result of "no breaches". Choose a longer period, or let integrations report first.`,
    );
  }
  const { series, groupings } = traffic;
  const [inForceGrouping, chosenGrouping] = groupings;
  if (!inForceGrouping || !chosenGrouping) throw new Error('a grouping per policy');
  const inForceRun = replay(series, inForceGrouping.groups, inForceRules, inForceGrouping.groupOf);
  const chosenRun = replay(series, chosenGrouping.groups, chosenRules, chosenGrouping.groupOf);
  const heldBy =
    (grouping: PolicyGrouping) =>
    (index: number, target: RefusalTarget): number =>
      target.kind === 'all'
        ? (series.total[index] ?? 0)
        : target.kind === 'rule'
          ? (grouping.groups.get(target.ruleId)?.[index] ?? 0)
          : (series.hotCells.get(index)?.get(target.key) ?? 0);
  const [inForceShares = new Map(), chosenShares = new Map()] = await attribute(
    deps.store,
    (
      [
        [inForceGrouping, inForceRun],
        [chosenGrouping, chosenRun],
      ] as const
    ).map(([grouping, run]) => ({
      from,
      refusals: run.refusals,
      cellsOf: grouping.cellsOf,
      heldBy: heldBy(grouping),
    })),
    {
      cells: traffic.cells,
      keptRowsOf: traffic.keptRowsOf,
      setAsideMinutes: new Set(traffic.setAside.map((entry) => entry.minute)),
    },
  );
  const names = await deps.integrationNames();
  const busiest = series.busiest.index;
  const { bucketMinutes } = PLANNING_PERIODS[request.period];
  return {
    runId: randomUUID(),
    connection: connectionOf(deps),
    period: request.period,
    from: iso(from),
    to: iso(at),
    bucketMinutes,
    requests: replayed,
    activeMinutes: series.total.filter((value) => value > 0).length,
    busiestMinute: { minute: iso(minuteAt(series, busiest)), requests: series.total[busiest] ?? 0 },
    inForce: outcomeOf(inForceChoice, inForceRules, inForceRun, series, inForceShares, names, deps),
    chosen: outcomeOf(request.policy, chosenRules, chosenRun, series, chosenShares, names, deps),
    buckets: bucketsOf(series, bucketMinutes, inForceRun, chosenRun),
    setAside: setAsideListed(traffic.setAside, names),
    recorded429s: await recorded429s(deps.store, from, to),
    generatedAt: iso(at),
  };
}
