// Reads the account's recorded traffic over a period into the per-minute series a replay runs
// on (replay.ts): every minute's total and busiest endpoint, what each policy's module rules
// count, the endpoint minutes that may go over a per-endpoint limit. An integration's minute that
// no account limit allows (docs/account-wide-view.md, "implausible") is set aside: shown apart,
// and its requests taken out of every series before anything is replayed.
import { OPERATION_TEMPLATES } from '../../shared/operation-templates';
import {
  accountMinuteCeiling,
  endpointKey,
  matchModuleRule,
  setAsideAtCeiling,
  type RateLimitRule,
} from '../../shared/rate-limits';
import type { GroupSeries, MinuteSeries } from './replay';
import { CONSOLE_SOURCE, type SourceRow, type TrafficStore } from './traffic-store';

const MINUTE_MS = 60_000;

/** The most a window of `period` holds over `series` (a minute's value, or 60 minutes' sum). */
function busiestWindow(series: Float64Array, period: 'MINUTE' | 'HOUR'): number {
  const minutes = period === 'MINUTE' ? 1 : 60;
  let sum = 0;
  let most = 0;
  for (let index = 0; index < series.length; index += 1) {
    sum += series[index] ?? 0;
    if (index >= minutes) sum -= series[index - minutes] ?? 0;
    most = Math.max(most, sum);
  }
  return most;
}

/** An integration's minute left out of the replay. */
export interface SetAside {
  readonly source: string;
  readonly minute: number;
  readonly reported: number;
}

/** The module rule of each endpoint under one policy. */
export interface PolicyGrouping {
  readonly groupOf: (key: string) => string | undefined;
  readonly groups: GroupSeries;
  /** The endpoints a module rule of the policy counts. */
  readonly cellsOf: (ruleId: string) => ReadonlyArray<{ method: string; template: string }>;
}

export interface LoadedTraffic {
  readonly series: MinuteSeries;
  /** Per policy, in the order the rule lists were given. */
  readonly groupings: readonly PolicyGrouping[];
  readonly setAside: readonly SetAside[];
  /** Each endpoint key's method and template (the recognised ones, and any endpoint over a limit). */
  readonly cells: ReadonlyMap<string, { readonly method: string; readonly template: string }>;
  /** The source rows of the minutes set aside were read from: the rows kept. */
  readonly keptRowsOf: ReadonlyMap<number, readonly SourceRow[]>;
}

/**
 * Loads [from, from + length minutes) for the policies `rulesPerPolicy`; `inForce` decides what
 * is implausible. Resolves to undefined when no request was recorded in the period.
 */
export async function loadTraffic(
  store: TrafficStore,
  from: number,
  length: number,
  rulesPerPolicy: ReadonlyArray<readonly RateLimitRule[]>,
  inForce: readonly RateLimitRule[],
): Promise<LoadedTraffic | undefined> {
  const to = from + (length - 1) * MINUTE_MS;
  // Reports and the console's own counts hold only the templates the console recognises (any
  // other path is "(other)"), so each policy's module rules are matched against those once,
  // without reading the period to find which endpoints it has.
  const cells = new Map<string, { method: string; template: string }>(
    OPERATION_TEMPLATES.map((entry) => [
      endpointKey(entry.method, entry.template),
      { method: entry.method, template: entry.template },
    ]),
  );

  // Each policy's module rule of each endpoint; one column per distinct (rule, endpoints) group.
  const columns: Array<{ ruleId: string; keys: string[]; rules: RateLimitRule[] }> = [];
  const columnOf = new Map<string, number>();
  const groupings = rulesPerPolicy.map((rules) => {
    const moduleRules = rules.filter((rule) => rule.scope === 'module');
    const byKey = new Map<string, string>();
    for (const [key, cell] of cells) {
      const rule = matchModuleRule(cell.method, cell.template, moduleRules);
      if (rule) byKey.set(key, rule.id);
    }
    const ruleColumns = new Map<string, number>();
    for (const rule of moduleRules) {
      const keys = [...byKey].filter(([, id]) => id === rule.id).map(([key]) => key);
      if (keys.length === 0) continue;
      const signature = `${rule.id}|${keys.join('|')}`;
      let column = columnOf.get(signature);
      if (column === undefined) {
        column = columns.length;
        columns.push({ ruleId: rule.id, keys, rules: [] });
        columnOf.set(signature, column);
      }
      columns[column]?.rules.push(rule);
      ruleColumns.set(rule.id, column);
    }
    return { byKey, ruleColumns };
  });

  const totals = await store.minuteTotals(from, to, []);
  if (totals.length === 0) return undefined;
  const total = new Float64Array(length);
  const peakCell = new Float64Array(length);
  const columnSeries = columns.map(() => new Float64Array(length));
  const indexOf = (minute: number) => Math.round((minute - from) / MINUTE_MS);
  for (const row of totals) {
    const index = indexOf(row.minute);
    if (index < 0 || index >= length) continue;
    total[index] = row.total;
    peakCell[index] = row.peak;
  }

  // A module rule's minute holds at most its endpoints times the busiest endpoint's count, and
  // never more than the minute's total. A group whose rules that bound never takes past a limit
  // refuses and slows nothing, so its minutes are not read; the others are, in one query.
  const mayGoOver = (column: (typeof columns)[number]) => {
    const bound = total.map((value, index) =>
      Math.min(value, column.keys.length * (peakCell[index] ?? 0)),
    );
    return column.rules.some((rule) =>
      rule.limits.some((window) => busiestWindow(bound, window.period) > window.limit),
    );
  };
  const read = columns.flatMap((column, index) => (mayGoOver(column) ? [index] : []));
  if (read.length > 0) {
    const grouped = await store.minuteTotals(
      from,
      to,
      read.map((column) =>
        (columns[column]?.keys ?? []).map((key) => {
          const cell = cells.get(key);
          return { method: cell?.method ?? '', template: cell?.template ?? '' };
        }),
      ),
    );
    for (const row of grouped) {
      const index = indexOf(row.minute);
      if (index < 0 || index >= length) continue;
      row.groups.forEach((value, position) => {
        const series = columnSeries[read[position] ?? -1];
        if (series) series[index] = value;
      });
    }
  }

  const endpointLimits = rulesPerPolicy
    .flat()
    .filter((rule) => rule.scope === 'endpoint')
    .flatMap((rule) => rule.limits.map((window) => window.limit));
  const hotCells = new Map<number, Map<string, number>>();
  // No endpoint's minute is above the lowest per-endpoint limit when the busiest one is not.
  if (endpointLimits.length > 0 && Math.max(...peakCell) > Math.min(...endpointLimits)) {
    for (const row of await store.busyCells(from, to, Math.min(...endpointLimits))) {
      const index = indexOf(row.minute);
      let minute = hotCells.get(index);
      if (!minute) hotCells.set(index, (minute = new Map()));
      const key = endpointKey(row.method, row.template);
      minute.set(key, row.requests);
      if (!cells.has(key)) cells.set(key, { method: row.method, template: row.template });
    }
  }

  // Implausible reports (a source's minute at the ceiling or above, 429s included): only a minute
  // whose whole account total reaches the ceiling can hold one, so only those minutes' source
  // rows are read.
  const setAside: SetAside[] = [];
  const keptRowsOf = new Map<number, SourceRow[]>();
  const ceiling = accountMinuteCeiling(inForce);
  const candidates =
    ceiling === undefined
      ? []
      : [...total.keys()]
          .filter((index) => setAsideAtCeiling(total[index] ?? 0, ceiling))
          .map((index) => from + index * MINUTE_MS);
  if (ceiling !== undefined && candidates.length > 0) {
    const rows = await store.sourcesIn(candidates);
    const claimed = new Map<string, number>();
    const slot = (row: SourceRow) => `${row.source}|${row.minute}`;
    for (const row of rows) {
      if (row.source === CONSOLE_SOURCE) continue;
      claimed.set(slot(row), (claimed.get(slot(row)) ?? 0) + row.requests);
    }
    const dropped = new Set<string>();
    for (const [key, reported] of claimed) {
      if (!setAsideAtCeiling(reported, ceiling)) continue;
      dropped.add(key);
      const [source = '', minute = '0'] = key.split('|');
      setAside.push({ source, minute: Number(minute), reported });
    }
    for (const row of rows) {
      if (dropped.has(slot(row))) continue;
      const list = keptRowsOf.get(row.minute) ?? [];
      list.push(row);
      keptRowsOf.set(row.minute, list);
    }
    // The minutes with a report set aside are rebuilt from the rows kept.
    for (const minute of new Set(setAside.map((entry) => entry.minute))) {
      const index = indexOf(minute);
      const perCell = new Map<string, number>();
      for (const row of keptRowsOf.get(minute) ?? []) {
        const key = endpointKey(row.method, row.template);
        perCell.set(key, (perCell.get(key) ?? 0) + row.requests);
      }
      total[index] = [...perCell.values()].reduce((sum, value) => sum + value, 0);
      peakCell[index] = Math.max(0, ...perCell.values());
      columns.forEach((column, position) => {
        const series = columnSeries[position];
        if (series)
          series[index] = column.keys.reduce((sum, key) => sum + (perCell.get(key) ?? 0), 0);
      });
      if (endpointLimits.length > 0) {
        const threshold = Math.min(...endpointLimits);
        hotCells.set(index, new Map([...perCell].filter(([, count]) => count > threshold)));
      }
    }
  }

  let busiest = -1;
  for (let index = 0; index < length; index += 1) {
    if ((total[index] ?? 0) > 0 && (busiest < 0 || (total[index] ?? 0) > (total[busiest] ?? 0))) {
      busiest = index;
    }
  }
  const busiestMinute = from + busiest * MINUTE_MS;
  const busiestCells = new Map<string, number>();
  if (busiest >= 0) {
    const kept = keptRowsOf.get(busiestMinute);
    if (kept && setAside.some((entry) => entry.minute === busiestMinute)) {
      for (const row of kept) {
        const key = endpointKey(row.method, row.template);
        busiestCells.set(key, (busiestCells.get(key) ?? 0) + row.requests);
      }
    } else {
      for (const row of await store.minute(busiestMinute)) {
        busiestCells.set(endpointKey(row.method, row.template), row.requests);
      }
    }
  }

  // What each endpoint sent in the hour up to the busiest minute, for the hour limits' headroom.
  const busiestHourCells = new Map<string, number>();
  if (busiest >= 0) {
    for (const row of await store.endpointTotals(busiestMinute - 59 * MINUTE_MS, busiestMinute)) {
      busiestHourCells.set(endpointKey(row.method, row.template), row.requests);
    }
  }

  return {
    series: {
      from,
      length,
      total,
      peakCell,
      hotCells,
      busiest: { index: busiest, cells: busiestCells, hourCells: busiestHourCells },
    },
    groupings: groupings.map(({ byKey, ruleColumns }) => ({
      groupOf: (key: string) => byKey.get(key),
      cellsOf: (ruleId: string) =>
        [...byKey].flatMap(([key, id]) => {
          const cell = id === ruleId ? cells.get(key) : undefined;
          return cell ? [cell] : [];
        }),
      groups: new Map(
        [...ruleColumns].flatMap(([ruleId, column]) => {
          const series = columnSeries[column];
          return series ? [[ruleId, series] as const] : [];
        }),
      ),
    })),
    setAside: setAside.sort((a, b) => a.minute - b.minute),
    cells,
    keptRowsOf,
  };
}
