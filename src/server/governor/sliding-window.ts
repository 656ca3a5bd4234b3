// One limit ("so many per minute") kept exactly over a sliding window, on top of plain counters.
//
// Why not rate-limiter-flexible's own window: it is fixed (it starts at the first request and
// resets when it expires), so 1,000 requests just before a reset and 1,000 just after are 2,000
// within one minute, and it reads Date.now, which a test cannot move. Instead time is cut into
// buckets (1/60 of the window) whose index comes from the injected clock; each bucket is one
// counter in the store, and a request is admitted only if the current bucket plus the `buckets`
// before it hold no more than the limit. Any two requests less than a window apart are at most
// `buckets` buckets apart, so every admitted request has counted every other admitted request of
// any window that contains both: no window ever holds more than the limit. The price is up to one
// bucket of slack (1,000 per 61 s instead of per 60 s). The store's own expiry (which does read
// Date.now) only cleans up buckets long after they left the window; it never decides a request.
// A take reads the window's buckets and counts the request in one atomic store operation, and
// `SlidingWindow.takeAll` does the same for every window of one call at once.
import type { WindowCounterStore, WindowTake } from './window-store';

/** What taking one request from the window gave. */
export type TakeResult =
  | { readonly taken: true; readonly bucket: number; readonly used: number }
  | { readonly taken: false; readonly used: number; readonly retryAfterMs: number };

/** The window's state for a gauge. */
export interface WindowUsage {
  /** Requests counted in the window now. */
  readonly used: number;
  /** When the oldest counted request leaves the window (epoch ms), or null when none is counted. */
  readonly resetsAt: number | null;
}

export interface SlidingWindowOptions {
  /** Prefix of the window's counter keys; unique per rule and period. */
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
  readonly store: WindowCounterStore;
  /**
   * The clock (epoch ms). Read at the moment a request is counted, never passed in from earlier:
   * a stale time could count a request into a bucket that later callers have already summed.
   */
  readonly now: () => number;
  /** How many buckets make a window (default 60: one second per minute window). */
  readonly buckets?: number;
}

/** One window of {@link SlidingWindow.takeAll}: checked against its limit, or only counted. */
export interface WindowEntry {
  readonly window: SlidingWindow;
  /** False for a limit that is counted but never refuses (a soft limit the operator ignores). */
  readonly enforce: boolean;
}

/** What {@link SlidingWindow.takeAll} gave: every window counted, or none and which one refused. */
export type TakeAllResult =
  | {
      readonly taken: true;
      /** Per window: the bucket counted into, and the requests in the window with this one. */
      readonly buckets: readonly number[];
      readonly used: readonly number[];
    }
  | {
      readonly taken: false;
      /** Index (in the entries given) of the first window without room. */
      readonly refusing: number;
      readonly used: number;
      readonly retryAfterMs: number;
    };

/** A sliding-window limit; safe for any number of concurrent callers. */
export class SlidingWindow {
  readonly limit: number;
  readonly windowMs: number;
  readonly #name: string;
  readonly #store: WindowCounterStore;
  readonly #now: () => number;
  readonly #buckets: number;
  readonly #bucketMs: number;
  readonly #ttlSeconds: number;
  /** The keys of the last bucket asked for: every request within one bucket reads the same. */
  #keysOf: { bucket: number; keys: readonly string[] } | undefined;

  constructor(options: SlidingWindowOptions) {
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    this.#name = options.name;
    this.#store = options.store;
    this.#now = options.now;
    this.#buckets = options.buckets ?? 60;
    this.#bucketMs = options.windowMs / this.#buckets;
    if (!Number.isInteger(this.#bucketMs) || this.#bucketMs <= 0) {
      throw new RangeError('windowMs must be a whole multiple of buckets milliseconds');
    }
    // Outlive the window by two buckets, so the store never expires a bucket still counted.
    this.#ttlSeconds = Math.ceil(((this.#buckets + 2) * this.#bucketMs) / 1_000);
  }

  /**
   * Takes one request from every window of `entries` in one atomic store operation: either every
   * window counts it, or none does and the result names the first enforced window without room.
   * All windows must live in the same store.
   */
  static async takeAll(entries: readonly WindowEntry[]): Promise<TakeAllResult> {
    const [first] = entries;
    if (!first) return { taken: true, buckets: [], used: [] };
    const store = first.window.#store;
    if (entries.some(({ window }) => window.#store !== store)) {
      throw new Error('takeAll needs windows of one store');
    }
    const plans = entries.map(({ window, enforce }) => window.#plan(enforce));
    const { taken, counts } = await store.take(plans.map((plan) => plan.take));
    if (taken) {
      return {
        taken: true,
        buckets: plans.map((plan) => plan.bucket),
        used: counts.map((found) => sum(found) + 1),
      };
    }
    for (const [index, { window, enforce }] of entries.entries()) {
      const found = counts[index] ?? [];
      const used = sum(found) + 1;
      if (!enforce || used <= window.limit) continue;
      const now = plans[index]?.now ?? window.#now();
      return {
        taken: false,
        refusing: index,
        used: used - 1,
        retryAfterMs: window.#retryAfterMs(now, found.slice(0, -1), used),
      };
    }
    // Unreachable with a store that keeps its contract: a refused take has a window without room.
    throw new Error('the window store refused a take without a full window');
  }

  /**
   * Counts one request at `now` if the window has room, in one atomic store operation, so two
   * concurrent callers can never both take the last slot.
   */
  async take(): Promise<TakeResult> {
    const result = await SlidingWindow.takeAll([{ window: this, enforce: true }]);
    if (result.taken) {
      return { taken: true, bucket: result.buckets[0] ?? 0, used: result.used[0] ?? 0 };
    }
    return { taken: false, used: result.used, retryAfterMs: result.retryAfterMs };
  }

  /**
   * Counts one request without checking the limit, for a limit the console watches but does not
   * keep (a soft limit with RATE_LIMIT_SOFT_LIMITS=ignore). Resolves to the bucket counted in.
   */
  async record(): Promise<number> {
    const result = await SlidingWindow.takeAll([{ window: this, enforce: false }]);
    return result.taken ? (result.buckets[0] ?? 0) : this.#bucketOf(this.#now());
  }

  /** Returns a point taken in `bucket` (an upstream block arrived while the call was counted). */
  async giveBack(bucket: number): Promise<void> {
    await this.#store.add(this.#key(bucket), -1, this.#ttlSeconds);
  }

  /** Whether one more request would fit now, without counting it. */
  async wouldRefuse(): Promise<{ refused: boolean; retryAfterMs: number }> {
    const now = this.#now();
    const counts = await this.#store.read(this.#keys(this.#bucketOf(now)));
    const used = sum(counts) + 1;
    return used <= this.limit
      ? { refused: false, retryAfterMs: 0 }
      : { refused: true, retryAfterMs: this.#retryAfterMs(now, counts.slice(0, -1), used) };
  }

  /** How full the window is now. */
  async usage(): Promise<WindowUsage> {
    const now = this.#now();
    const bucket = this.#bucketOf(now);
    const counts = await this.#store.read(this.#keys(bucket));
    const used = sum(counts);
    if (used === 0) return { used, resetsAt: null };
    const oldest = counts.findIndex((count) => count > 0);
    return { used, resetsAt: this.#leavesWindowAt(bucket - this.#buckets + oldest) };
  }

  /** The take of one request at the clock's time now. */
  #plan(enforce: boolean): { now: number; bucket: number; take: WindowTake } {
    const now = this.#now();
    const bucket = this.#bucketOf(now);
    return {
      now,
      bucket,
      take: {
        keys: this.#keys(bucket),
        limit: enforce ? this.limit : null,
        ttlSeconds: this.#ttlSeconds,
      },
    };
  }

  #bucketOf(now: number): number {
    return Math.floor(now / this.#bucketMs);
  }

  #key(bucket: number): string {
    return `${this.#name}:${bucket}`;
  }

  /** The counters a request at `bucket` is checked against: the `buckets` before it, then it. */
  #keys(bucket: number): readonly string[] {
    if (this.#keysOf?.bucket !== bucket) {
      const keys = Array.from({ length: this.#buckets + 1 }, (_, index) =>
        this.#key(bucket - this.#buckets + index),
      );
      this.#keysOf = { bucket, keys };
    }
    return this.#keysOf.keys;
  }

  /** Time a bucket stops being counted: when the current bucket is `buckets + 1` later. */
  #leavesWindowAt(bucket: number): number {
    return (bucket + this.#buckets + 1) * this.#bucketMs;
  }

  /**
   * How long until a request would fit, when `used` (this request included) exceeds the limit:
   * the moment enough of the oldest buckets have left the window.
   */
  #retryAfterMs(now: number, previous: readonly number[], used: number): number {
    const excess = used - this.limit;
    let freed = 0;
    for (let index = 0; index < previous.length; index += 1) {
      freed += previous[index] ?? 0;
      if (freed >= excess) {
        return this.#leavesWindowAt(this.#bucketOf(now) - this.#buckets + index) - now;
      }
    }
    return this.#leavesWindowAt(this.#bucketOf(now)) - now;
  }
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
