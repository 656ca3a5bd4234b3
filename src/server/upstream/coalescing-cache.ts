// A short-lived cache that also coalesces concurrent identical loads, so a crowd of browsers
// opening the same page costs the upstream one call per cache period.

export interface CoalescingCacheOptions<T> {
  /** How long a loaded value is served; 0 keeps nothing but still coalesces in-flight loads. */
  ttlMs: number;
  /** Bound on distinct keys kept, oldest evicted first, so odd filter combinations cannot grow memory. */
  maxEntries: number;
  /**
   * Bound on the values' total size as `sizeOf` measures it, oldest evicted first; a value larger
   * than the bound by itself is handed on but not kept. Unset: only `maxEntries` bounds.
   */
  maxSize?: { limit: number; sizeOf: (value: T) => number };
  now?: () => number;
}

/** Maps a key to a value loaded at most once per period; failed loads are never kept. */
export class CoalescingCache<T> {
  readonly #options: CoalescingCacheOptions<T>;
  readonly #now: () => number;
  readonly #values = new Map<string, { value: T; expiresAt: number; size: number }>();
  #size = 0;
  readonly #inFlight = new Map<string, Promise<T>>();

  constructor(options: CoalescingCacheOptions<T>) {
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
    const { ttlMs, maxEntries, maxSize } = this.#options;
    this.#forget(key);
    const size = maxSize?.sizeOf(value) ?? 0;
    if (ttlMs <= 0 || (maxSize && size > maxSize.limit)) return value;
    this.#values.set(key, { value, expiresAt: this.#now() + ttlMs, size });
    this.#size += size;
    while (this.#values.size > maxEntries || (maxSize && this.#size > maxSize.limit)) {
      const oldest = this.#values.keys().next().value;
      if (oldest === undefined) break;
      this.#forget(oldest);
    }
    return value;
  }

  #forget(key: string): void {
    this.#size -= this.#values.get(key)?.size ?? 0;
    this.#values.delete(key);
  }
}
