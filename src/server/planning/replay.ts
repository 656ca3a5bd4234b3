// The what-if replay (docs/planning.md, "How a replay counts"): the account's recorded traffic, a
// minute at a time in order, against the limits of one policy. Pure: the traffic comes in as
// per-minute series (traffic-series.ts builds them from the store), the answer is what would have
// been refused, where, and why. The model, in short:
// - requests are counted in the minute they were recorded in; a minute window is that minute, an
//   hour window the 60 minutes ending with it;
// - refused requests count in no window (the platform does not count what it refused);
// - narrower limits refuse first (a blocked rule, a per-endpoint limit, a module rule), then the
//   account limits refuse what is left above them;
// - a hard breach whose block lasts N minutes refuses the rest of its own minute and every
//   request of the N − 1 minutes after it that the block covers (the whole account, or the rule's
//   own requests); soft limits refuse nothing and are counted as minutes slowed.
import type { RateLimitRule, RateLimitWindow } from '../../shared/rate-limits';

const MINUTE_MS = 60_000;
const HOUR_MINUTES = 60;

/** The account's traffic over the period, a value per minute (index 0 is `from`). */
export interface MinuteSeries {
  /** Epoch ms of the first minute. */
  readonly from: number;
  readonly length: number;
  /** Every request of each minute. */
  readonly total: Float64Array;
  /** The busiest endpoint's requests in each minute. */
  readonly peakCell: Float64Array;
  /**
   * Endpoints' counts in the minutes where they may go over a per-endpoint limit (at least the
   * lowest per-endpoint limit replayed), by minute index, then endpoint key ("GET /path").
   */
  readonly hotCells: ReadonlyMap<number, ReadonlyMap<string, number>>;
  /**
   * The minute with most requests (index), each endpoint's count in it, and each endpoint's
   * count in the 60 minutes up to it (for the hour limits).
   */
  readonly busiest: {
    readonly index: number;
    readonly cells: ReadonlyMap<string, number>;
    readonly hourCells: ReadonlyMap<string, number>;
  };
}

/** What one policy's module rules count, per rule id: its requests in each minute. */
export type GroupSeries = ReadonlyMap<string, Float64Array>;

/** Where a refusal falls: every source of the minute, one rule's requests, or one endpoint's. */
export type RefusalTarget =
  | { readonly kind: 'all' }
  | { readonly kind: 'rule'; readonly ruleId: string }
  | { readonly kind: 'endpoint'; readonly key: string };

/** Requests refused in one minute, from one target's requests (attributed to sources later). */
export interface Refusal {
  readonly index: number;
  readonly target: RefusalTarget;
  readonly count: number;
}

/** One window over a limit (minute as an index into the series). */
export interface ReplayBreach {
  readonly index: number;
  readonly rule: RateLimitRule;
  readonly window: RateLimitWindow;
  readonly endpoint: string | null;
  readonly requests: number;
  readonly refused: number;
}

export interface ReplayRun {
  readonly refused: number;
  readonly refusedWhileBlocked: number;
  readonly minutesOver: number;
  readonly minutesSlowed: number;
  /** In minute order; within a minute, in the order the limits were applied. */
  readonly breaches: readonly ReplayBreach[];
  readonly refusals: readonly Refusal[];
  /** Refused requests per minute. */
  readonly refusedPerMinute: Float64Array;
  readonly headroom: {
    readonly rule: RateLimitRule;
    readonly window: RateLimitWindow;
    readonly endpoint: string | null;
    readonly used: number;
    readonly left: number;
  } | null;
}

/** Minutes a block of `seconds` covers, its breach minute included (at least that one). */
export function blockMinutes(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

/** A running sum of the 59 minutes before the current one. */
class Trailing {
  readonly #admitted: Float64Array;
  #sum = 0;

  constructor(length: number) {
    this.#admitted = new Float64Array(length);
  }

  /** The sum of admitted requests in the minutes i−59 … i−1. */
  before(): number {
    return this.#sum;
  }

  /** Records minute `index`'s admitted requests and moves the window on by one minute. */
  admit(index: number, count: number): void {
    this.#admitted[index] = count;
    this.#sum += count;
    const leaving = index - (HOUR_MINUTES - 1);
    if (leaving >= 0) this.#sum -= this.#admitted[leaving] ?? 0;
  }
}

function sumWindow(series: Float64Array, end: number, minutes: number): number {
  let sum = 0;
  for (let index = Math.max(0, end - minutes + 1); index <= end; index += 1) {
    sum += series[index] ?? 0;
  }
  return sum;
}

function windowMinutes(window: RateLimitWindow): number {
  return window.period === 'MINUTE' ? 1 : HOUR_MINUTES;
}

/** The module rule of this policy that counts an endpoint ("GET /path"), as `groupOf` says. */
export type GroupOf = (endpointKey: string) => string | undefined;

/**
 * Replays `series` against `rules`. `groups` holds, for each module rule of the policy, the
 * requests it counts per minute; `groupOf` names the module rule of an endpoint.
 */
export function replay(
  series: MinuteSeries,
  groups: GroupSeries,
  rules: readonly RateLimitRule[],
  groupOf: GroupOf,
): ReplayRun {
  const accountRules = rules.filter((rule) => rule.scope === 'account');
  const moduleRules = rules.filter((rule) => rule.scope === 'module' && groups.has(rule.id));
  const endpointRules = rules.filter((rule) => rule.scope === 'endpoint');
  const breaches: ReplayBreach[] = [];
  const refusals: Refusal[] = [];
  const refusedPerMinute = new Float64Array(series.length);
  let refused = 0;
  let refusedWhileBlocked = 0;
  let minutesOver = 0;
  let minutesSlowed = 0;

  const accountTrail = new Trailing(series.length);
  const ruleTrail = new Map(moduleRules.map((rule) => [rule.id, new Trailing(series.length)]));
  /** The last minute index each block covers: the account's, and each rule's. */
  let accountBlockedUntil = -1;
  const ruleBlockedUntil = new Map<string, number>();

  const refuse = (index: number, target: RefusalTarget, count: number, whileBlocked: boolean) => {
    if (count <= 0) return;
    refusals.push({ index, target, count });
    refusedPerMinute[index] = (refusedPerMinute[index] ?? 0) + count;
    refused += count;
    if (whileBlocked) refusedWhileBlocked += count;
  };

  for (let index = 0; index < series.length; index += 1) {
    let left = series.total[index] ?? 0;
    let over = false;
    let slowed = false;
    const groupLeft = new Map(
      moduleRules.map((rule) => [rule.id, groups.get(rule.id)?.[index] ?? 0]),
    );

    if (index <= accountBlockedUntil) {
      refuse(index, { kind: 'all' }, left, true);
      accountTrail.admit(index, 0);
      for (const trail of ruleTrail.values()) trail.admit(index, 0);
      continue;
    }

    // A rule's block refuses its own requests while it runs.
    for (const rule of moduleRules) {
      if (index > (ruleBlockedUntil.get(rule.id) ?? -1)) continue;
      const count = groupLeft.get(rule.id) ?? 0;
      refuse(index, { kind: 'rule', ruleId: rule.id }, count, true);
      left -= count;
      groupLeft.set(rule.id, 0);
    }

    // Each endpoint on its own, then each module rule over its requests.
    for (const rule of endpointRules) {
      for (const [key, count] of series.hotCells.get(index) ?? []) {
        const group = groupOf(key);
        if (group !== undefined && index <= (ruleBlockedUntil.get(group) ?? -1)) continue;
        for (const window of rule.limits) {
          if (count <= window.limit) continue;
          const excess = count - window.limit;
          breaches.push({ index, rule, window, endpoint: key, requests: count, refused: excess });
          over = true;
          refuse(index, { kind: 'endpoint', key }, excess, false);
          left -= excess;
          if (group !== undefined) groupLeft.set(group, (groupLeft.get(group) ?? 0) - excess);
        }
      }
    }

    for (const rule of moduleRules) {
      let count = groupLeft.get(rule.id) ?? 0;
      const trail = ruleTrail.get(rule.id);
      for (const window of rule.limits) {
        const used = window.period === 'MINUTE' ? 0 : (trail?.before() ?? 0);
        const allowed = Math.max(0, window.limit - used);
        if (count <= allowed) continue;
        if (rule.kind === 'soft') {
          breaches.push({
            index,
            rule,
            window,
            endpoint: null,
            requests: used + count,
            refused: 0,
          });
          slowed = true;
          continue;
        }
        const excess = count - allowed;
        breaches.push({
          index,
          rule,
          window,
          endpoint: null,
          requests: used + count,
          refused: excess,
        });
        over = true;
        refuse(index, { kind: 'rule', ruleId: rule.id }, excess, false);
        count = allowed;
        left -= excess;
        const until = index + blockMinutes(window.blockSeconds) - 1;
        if (rule.blocks === 'account') accountBlockedUntil = Math.max(accountBlockedUntil, until);
        if (rule.blocks === 'rule') {
          ruleBlockedUntil.set(rule.id, Math.max(ruleBlockedUntil.get(rule.id) ?? -1, until));
        }
      }
      trail?.admit(index, count);
    }

    for (const rule of accountRules) {
      for (const window of rule.limits) {
        const used = window.period === 'MINUTE' ? 0 : accountTrail.before();
        const allowed = Math.max(0, window.limit - used);
        if (left <= allowed) continue;
        const excess = left - allowed;
        breaches.push({
          index,
          rule,
          window,
          endpoint: null,
          requests: used + left,
          refused: excess,
        });
        over = true;
        refuse(index, { kind: 'all' }, excess, false);
        left = allowed;
        const until = index + blockMinutes(window.blockSeconds) - 1;
        accountBlockedUntil = Math.max(accountBlockedUntil, until);
      }
    }
    accountTrail.admit(index, left);
    if (over) minutesOver += 1;
    if (slowed) minutesSlowed += 1;
  }

  return {
    refused,
    refusedWhileBlocked,
    minutesOver,
    minutesSlowed,
    breaches,
    refusals,
    refusedPerMinute,
    headroom: headroomAtBusiest(series, rules, groupOf),
  };
}

/**
 * What was left of each hard limit at the busiest minute, counting every recorded request (none
 * refused): the tightest one, by the share of its limit left.
 */
function headroomAtBusiest(
  series: MinuteSeries,
  rules: readonly RateLimitRule[],
  groupOf: GroupOf,
): ReplayRun['headroom'] {
  const at = series.busiest.index;
  if (at < 0) return null;
  let tightest: ReplayRun['headroom'] = null;
  const consider = (
    rule: RateLimitRule,
    window: RateLimitWindow,
    endpoint: string | null,
    used: number,
  ) => {
    const left = window.limit - used;
    if (!tightest || left / window.limit < tightest.left / tightest.window.limit) {
      tightest = { rule, window, endpoint, used, left };
    }
  };
  for (const rule of rules) {
    if (rule.kind !== 'hard') continue;
    for (const window of rule.limits) {
      const minutes = windowMinutes(window);
      if (rule.scope === 'account')
        consider(rule, window, null, sumWindow(series.total, at, minutes));
      if (rule.scope === 'module') {
        const cells = window.period === 'MINUTE' ? series.busiest.cells : series.busiest.hourCells;
        let used = 0;
        let counts = false;
        for (const [key, count] of cells) {
          if (groupOf(key) !== rule.id) continue;
          used += count;
          counts = true;
        }
        if (counts) consider(rule, window, null, used);
      }
      if (rule.scope === 'endpoint') {
        let busiestKey: string | null = null;
        let busiestCount = 0;
        for (const [key, count] of series.busiest.cells) {
          if (count > busiestCount) [busiestKey, busiestCount] = [key, count];
        }
        if (busiestKey !== null) consider(rule, window, busiestKey, busiestCount);
      }
    }
  }
  return tightest;
}

/** Epoch ms of a series index. */
export const minuteAt = (series: Pick<MinuteSeries, 'from'>, index: number) =>
  series.from + index * MINUTE_MS;
