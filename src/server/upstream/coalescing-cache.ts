// A short-lived cache that also coalesces concurrent identical loads, so a crowd of browsers
// opening the same page costs the upstream one call per cache period.

export interface CoalescingCacheOptions {
  /** How long a loaded value is served; 0 keeps nothing but still coalesces in-flight loads. */
  ttlMs: number;
  /** Bound on distinct keys kept, oldest evicted first, so odd filter combinations cannot grow memory. */
  maxEntries: number;
  now?: () => number;
}

/** Maps a key to a value loaded at most once per period; failed loads are never kept. */
export class CoalescingCache<T> {
  readonly #options: CoalescingCacheOptions;
  readonly #now: () => number;
  readonly #values = new Map<string, { value: T; expiresAt: number }>();
  readonly #inFlight = new Map<string, Promise<T>>();

  constructor(options: CoalescingCacheOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** The cached value for `key`, the load already under way, or a new `load()`. */
  get(key: string, load: () => Promise<T>): Promise<T> {
    const cached = this.#values.get(key);
    if (cached && this.#now() < cached.expiresAt) return Promise.resolve(cached.value);
    const pending = this.#inFlight.get(key);
    if (pending) return pending;
    const loading = load()
      .then((value) => this.#remember(key, value))
      .finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, loading);
    return loading;
  }

  /** Keeps `value` for the cache period (when there is one) and hands it on. */
  #remember(key: string, value: T): T {
    if (this.#options.ttlMs <= 0) return value;
    this.#values.delete(key);
    this.#values.set(key, { value, expiresAt: this.#now() + this.#options.ttlMs });
    while (this.#values.size > this.#options.maxEntries) {
      const oldest = this.#values.keys().next().value;
      if (oldest === undefined) break;
      this.#values.delete(oldest);
    }
    return value;
  }
}
