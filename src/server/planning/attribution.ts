// Who would have drawn a replay's refusals: each refusal of a minute is shared among the sources
// (the console, each integration) that sent the requests it was refused from, in proportion to
// what each sent of them in that minute. The minute is the finest the records go: within it,
// requests are taken as spread evenly, so nobody is assumed to have come first.
//
// How: a target's refusals in a minute, over the requests the target held in it, is that minute's
// weight; the store sums each source's requests times the weight of its minute (one summing query
// per target, however many minutes), and the sums are rounded to whole requests at the end, so the
// shares add up to exactly what was refused. Minutes with a report set aside are shared from the
// rows kept, which the loader already read.
import type { Refusal, RefusalTarget } from './replay';
import type { SourceRow, TrafficStore } from './traffic-store';

const MINUTE_MS = 60_000;

/** Where refusals go that no recorded row explains (reports of that minute still arriving). */
export const UNATTRIBUTED = '(not attributed)';

export interface SourceShare {
  /** The source's requests, in the minutes and endpoints it had refusals from. */
  requests: number;
  refused: number;
}

/** Splits `count` in proportion to `weights` in whole requests (largest remainders first). */
export function shareOut(count: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((total, weight) => total + weight, 0);
  if (sum <= 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (count * weight) / sum);
  const shares = exact.map(Math.floor);
  let left = count - shares.reduce((total, share) => total + share, 0);
  const order = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    shares[index] = (shares[index] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}

type Cell = { readonly method: string; readonly template: string };

export interface AttributionInput {
  readonly from: number;
  readonly refusals: readonly Refusal[];
  /** The endpoints the policy's module rule counts. */
  readonly cellsOf: (ruleId: string) => readonly Cell[];
  /** The requests a refusal's target held in its minute, set-aside reports left out. */
  readonly heldBy: (index: number, target: RefusalTarget) => number;
}

export interface AttributionTraffic {
  /** Each endpoint key's method and template. */
  readonly cells: ReadonlyMap<string, Cell>;
  /** Minutes with a report set aside: the rows kept of each. */
  readonly keptRowsOf: ReadonlyMap<number, readonly SourceRow[]>;
  readonly setAsideMinutes: ReadonlySet<number>;
}

const targetKey = (target: RefusalTarget) =>
  target.kind === 'all'
    ? 'all'
    : target.kind === 'rule'
      ? `rule:${target.ruleId}`
      : `endpoint:${target.key}`;

/** Attributes one run's refusals to sources. */
async function attributeRun(
  store: TrafficStore,
  run: AttributionInput,
  traffic: AttributionTraffic,
): Promise<Map<string, SourceShare>> {
  const fractional = new Map<string, { weighted: number; requests: number }>();
  const add = (source: string, weighted: number, requests: number) => {
    const entry = fractional.get(source) ?? { weighted: 0, requests: 0 };
    entry.weighted += weighted;
    entry.requests += requests;
    fractional.set(source, entry);
  };
  // Per target: its refusals per minute (a minute may refuse it under two limits).
  const byTarget = new Map<string, { target: RefusalTarget; minutes: Map<number, number> }>();
  let total = 0;
  for (const refusal of run.refusals) {
    total += refusal.count;
    const key = targetKey(refusal.target);
    const entry = byTarget.get(key) ?? { target: refusal.target, minutes: new Map() };
    entry.minutes.set(refusal.index, (entry.minutes.get(refusal.index) ?? 0) + refusal.count);
    byTarget.set(key, entry);
  }
  for (const { target, minutes } of byTarget.values()) {
    const cells: readonly Cell[] | undefined =
      target.kind === 'all'
        ? undefined
        : target.kind === 'rule'
          ? run.cellsOf(target.ruleId)
          : [traffic.cells.get(target.key) ?? { method: '', template: '' }];
    const inTarget = (row: SourceRow) =>
      cells === undefined ||
      cells.some((cell) => cell.method === row.method && cell.template === row.template);
    const weights: Array<readonly [number, number]> = [];
    for (const [index, refused] of minutes) {
      const held = run.heldBy(index, target);
      if (held <= 0) continue;
      const minute = run.from + index * MINUTE_MS;
      const weight = Math.min(1, refused / held);
      if (!traffic.setAsideMinutes.has(minute)) {
        weights.push([minute, weight]);
        continue;
      }
      for (const row of traffic.keptRowsOf.get(minute) ?? []) {
        if (inTarget(row)) add(row.source, row.requests * weight, row.requests);
      }
    }
    for (const [source, sums] of await store.weightedBySource(weights, cells)) {
      add(source, sums.weighted, sums.requests);
    }
  }
  const sources = [...fractional.keys()];
  const explained = Math.min(
    total,
    Math.round(sources.reduce((sum, source) => sum + (fractional.get(source)?.weighted ?? 0), 0)),
  );
  const parts = shareOut(
    explained,
    sources.map((source) => fractional.get(source)?.weighted ?? 0),
  );
  const shares = new Map<string, SourceShare>();
  sources.forEach((source, position) => {
    shares.set(source, {
      refused: parts[position] ?? 0,
      requests: fractional.get(source)?.requests ?? 0,
    });
  });
  if (explained < total) shares.set(UNATTRIBUTED, { refused: total - explained, requests: 0 });
  return shares;
}

/** Attributes each run's refusals to sources. */
export async function attribute(
  store: TrafficStore,
  runs: readonly AttributionInput[],
  traffic: AttributionTraffic,
): Promise<Array<Map<string, SourceShare>>> {
  const shares: Array<Map<string, SourceShare>> = [];
  for (const run of runs) shares.push(await attributeRun(store, run, traffic));
  return shares;
}
