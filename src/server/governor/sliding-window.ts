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
import type { WindowCounterStore } from './window-store';

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
  // Buckets older than the previous one change only through a give-back (which only lowers them),
  // so their counts are read once per bucket and reused. The previous bucket is read every time:
  // a request counted just before the bucket changed may still be on its way to the store.
  #older: { forBucket: number; counts: Promise<number[]> } | undefined;

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
   * Counts one request at `now` if the window has room. The counter is raised first and checked
   * after, so two concurrent callers can never both take the last slot; a refused caller gives its
   * point back.
   */
  async take(): Promise<TakeResult> {
    const now = this.#now();
    const bucket = this.#bucketOf(now);
    const current = await this.#store.add(this.#key(bucket), 1, this.#ttlSeconds);
    const previous = await this.#previousCounts(bucket);
    const used = current + sum(previous);
    if (used <= this.limit) return { taken: true, bucket, used };
    await this.giveBack(bucket);
    return { taken: false, used: used - 1, retryAfterMs: this.#retryAfterMs(now, previous, used) };
  }

  /**
   * Counts one request without checking the limit, for a limit the console watches but does not
   * keep (a soft limit with RATE_LIMIT_SOFT_LIMITS=ignore). Resolves to the bucket counted in.
   */
  async record(): Promise<number> {
    const bucket = this.#bucketOf(this.#now());
    await this.#store.add(this.#key(bucket), 1, this.#ttlSeconds);
    return bucket;
  }

  /** Returns a point taken in `bucket` (another window refused the same request). */
  async giveBack(bucket: number): Promise<void> {
    await this.#store.add(this.#key(bucket), -1, this.#ttlSeconds);
  }

  /** Whether one more request would fit now, without counting it. */
  async wouldRefuse(): Promise<{ refused: boolean; retryAfterMs: number }> {
    const now = this.#now();
    const bucket = this.#bucketOf(now);
    const [current = 0] = await this.#store.read([this.#key(bucket)]);
    const previous = await this.#previousCounts(bucket);
    const used = current + sum(previous) + 1;
    return used <= this.limit
      ? { refused: false, retryAfterMs: 0 }
      : { refused: true, retryAfterMs: this.#retryAfterMs(now, previous, used) };
  }

  /** How full the window is now. */
  async usage(): Promise<WindowUsage> {
    const now = this.#now();
    const bucket = this.#bucketOf(now);
    const [current = 0] = await this.#store.read([this.#key(bucket)]);
    const previous = await this.#previousCounts(bucket);
    const used = current + sum(previous);
    if (used === 0) return { used, resetsAt: null };
    const oldest = previous.findIndex((count) => count > 0);
    const oldestBucket = oldest === -1 ? bucket : bucket - this.#buckets + oldest;
    return { used, resetsAt: this.#leavesWindowAt(oldestBucket) };
  }

  #bucketOf(now: number): number {
    return Math.floor(now / this.#bucketMs);
  }

  #key(bucket: number): string {
    return `${this.#name}:${bucket}`;
  }

  /** Counts of the `buckets` buckets before `bucket`, oldest first. */
  async #previousCounts(bucket: number): Promise<number[]> {
    if (this.#older?.forBucket !== bucket) {
      const keys = Array.from({ length: this.#buckets - 1 }, (_, index) =>
        this.#key(bucket - this.#buckets + index),
      );
      const counts = this.#store.read(keys);
      // A failed read must not be reused: the next caller reads again.
      counts.catch(() => {
        if (this.#older?.counts === counts) this.#older = undefined;
      });
      this.#older = { forBucket: bucket, counts };
    }
    const [older, latest] = await Promise.all([
      this.#older.counts,
      this.#store.read([this.#key(bucket - 1)]),
    ]);
    return [...older, ...latest];
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
