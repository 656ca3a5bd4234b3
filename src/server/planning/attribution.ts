// Who would have drawn a replay's refusals: each refusal of a minute is shared among the sources
// (the console, each integration) that sent the requests it refused, in proportion to what each
// sent of them in that minute. The minute is the finest the records go: within it, requests are
// taken as spread evenly, so nobody is assumed to have come first.
import { endpointKey } from '../../shared/rate-limits';
import type { Refusal } from './replay';
import type { SourceRow, TrafficStore } from './traffic-store';

const MINUTE_MS = 60_000;

/**
 * Minutes whose refusals are shared minute by minute, at most: a week refused minute after minute
 * would otherwise read every row of the week. Refusals in later minutes are shared by each
 * source's part of all those minutes' requests together (one summing query), which is the same
 * split whenever the sources' mix does not change from minute to minute.
 */
export const MAX_ATTRIBUTED_MINUTES = 2_880;

/** Where refusals go that no recorded row explains (reports of that minute still arriving). */
export const UNATTRIBUTED = '(not attributed)';

export interface SourceShare {
  /** The source's requests in the minutes it had refusals in. */
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

export interface AttributionInput {
  readonly from: number;
  readonly refusals: readonly Refusal[];
  /** The policy's module rule of an endpoint key. */
  readonly groupOf: (key: string) => string | undefined;
}

/**
 * Attributes each run's refusals to sources. `setAside` holds "source|minute" of the reports left
 * out of the replay, whose rows must not draw a share.
 */
export async function attribute(
  store: TrafficStore,
  runs: readonly AttributionInput[],
  setAside: ReadonlySet<string>,
): Promise<Array<Map<string, SourceShare>>> {
  const minutes = [
    ...new Set(
      runs.flatMap((run) => run.refusals.map((refusal) => run.from + refusal.index * MINUTE_MS)),
    ),
  ].sort((a, b) => a - b);
  const read = minutes.slice(0, MAX_ATTRIBUTED_MINUTES);
  const rowsOf = new Map<number, SourceRow[]>();
  for (const row of await store.sourcesIn(read)) {
    if (setAside.has(`${row.source}|${row.minute}`)) continue;
    const list = rowsOf.get(row.minute) ?? [];
    list.push(row);
    rowsOf.set(row.minute, list);
  }
  const readSet = new Set(read);
  const rest = minutes.slice(MAX_ATTRIBUTED_MINUTES);
  const restTotals = rest.length > 0 ? await store.sourceTotalsIn(rest) : new Map<string, number>();
  return runs.map((run) => {
    const shares = new Map<string, SourceShare>();
    const share = (source: string) => {
      let entry = shares.get(source);
      if (!entry) shares.set(source, (entry = { requests: 0, refused: 0 }));
      return entry;
    };
    const counted = new Set<string>();
    let refusedLater = 0;
    for (const refusal of run.refusals) {
      const minute = run.from + refusal.index * MINUTE_MS;
      if (!readSet.has(minute)) {
        refusedLater += refusal.count;
        continue;
      }
      const rows = (rowsOf.get(minute) ?? []).filter((row) => {
        const key = endpointKey(row.method, row.template);
        if (refusal.target.kind === 'endpoint') return key === refusal.target.key;
        if (refusal.target.kind === 'rule') return run.groupOf(key) === refusal.target.ruleId;
        return true;
      });
      const bySource = new Map<string, number>();
      for (const row of rows)
        bySource.set(row.source, (bySource.get(row.source) ?? 0) + row.requests);
      const sources = [...bySource.keys()];
      const parts = shareOut(
        refusal.count,
        sources.map((source) => bySource.get(source) ?? 0),
      );
      sources.forEach((source, position) => {
        share(source).refused += parts[position] ?? 0;
      });
      // A refusal the rows cannot explain (reports still arriving for that minute) stays visible.
      const explained = parts.reduce((sum, part) => sum + part, 0);
      if (explained < refusal.count) share(UNATTRIBUTED).refused += refusal.count - explained;
      for (const row of rowsOf.get(minute) ?? []) {
        const slot = `${row.source}|${minute}|${row.method}|${row.template}`;
        if (counted.has(slot) || !bySource.has(row.source)) continue;
        counted.add(slot);
        share(row.source).requests += row.requests;
      }
    }
    if (refusedLater > 0) {
      const sources = [...restTotals.keys()];
      const parts = shareOut(
        refusedLater,
        sources.map((source) => restTotals.get(source) ?? 0),
      );
      sources.forEach((source, position) => {
        share(source).refused += parts[position] ?? 0;
        share(source).requests += restTotals.get(source) ?? 0;
      });
      const explained = parts.reduce((sum, part) => sum + part, 0);
      if (explained < refusedLater) share(UNATTRIBUTED).refused += refusedLater - explained;
    }
    return shares;
  });
}
