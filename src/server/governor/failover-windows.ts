// The governor's window counters across replicas, kept even when Redis is not. Normally they live
// in Redis, shared by every replica. While Redis cannot be reached each replica keeps a
// conservative share of every limit (limit ÷ REPLICAS) on its own, starting from the last shared
// counts it saw, so what was already sent still counts; when Redis answers again each replica first
// adds what it sent meanwhile to the shared counters, waits a moment for the others to do the same,
// and only then trusts the shared counts again. Enforcement never stops.
import type { Logger } from '../observability/logger';
import { createMemoryWindowStore, type WindowCounterStore, type WindowTake } from './window-store';

/** The shared store failed: the caller retries on the per-replica share. */
class SharedWindowsUnavailable extends Error {
  override name = 'SharedWindowsUnavailable';
}

/** Which windows decide now. */
export interface FailoverStatus {
  readonly mode: 'shared' | 'fallback';
  /** When the current fallback began (epoch ms), or null while shared. */
  readonly since: number | null;
  /** Why the shared store failed, while falling back. */
  readonly reason: string | null;
}

export interface FailoverWindowsOptions {
  /** The shared store (createRedisWindowStore). */
  readonly primary: WindowCounterStore;
  /** Resolves when the shared store answers again (Redis PING). */
  readonly probe: () => Promise<unknown>;
  readonly logger: Logger;
  /** How many replicas share each limit while falling back (REPLICAS). */
  readonly replicas: number;
  /** How often to try the shared store again while falling back (default 1 s). */
  readonly probeIntervalMs?: number;
  /**
   * How long to stay on the share after the shared store answers again, so every replica has
   * added its own counts before any trusts the total (default 2 s, several reconnect attempts).
   */
  readonly recoveryGraceMs?: number;
  /** Told of every switch (metrics). */
  readonly onModeChange?: (mode: FailoverStatus['mode']) => void;
  /** The clock (epoch ms) for when a fallback began and how long Redis has answered again. */
  readonly now?: () => number;
}

/** A counter's name without its bucket: `rule:PERIOD:bucket` → `rule:PERIOD`. */
function windowOfKey(key: string): string {
  return key.slice(0, key.lastIndexOf(':'));
}

// Expiry for mirrored counters whose window has not been seen counting yet: an hour window's.
const DEFAULT_TTL_SECONDS = 3_720;

/** The shared and the per-replica windows' stores, and the switch between them. */
export class FailoverWindows {
  /** Redis, with every value seen mirrored here; throws SharedWindowsUnavailable when it fails. */
  readonly shared: WindowCounterStore;
  /** The mirror plus this replica's own counts since the fallback began. */
  readonly local: WindowCounterStore;
  readonly #options: FailoverWindowsOptions;
  /** Counters kept in this process: the mirror of the shared ones, and the fallback's own. */
  readonly #mirror = createMemoryWindowStore();
  readonly #now: () => number;
  /** What this replica counted while falling back, not yet added to the shared counters. */
  readonly #pending = new Map<string, { points: number; ttl: number }>();
  readonly #ttls = new Map<string, number>();
  #status: FailoverStatus = { mode: 'shared', since: null, reason: null };
  #timer: NodeJS.Timeout | undefined;
  #answeringSince: number | undefined;
  #closed = false;

  constructor(options: FailoverWindowsOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    const mirror = this.#mirror;
    const { primary } = options;
    /** Runs `work` on the shared store, after any straggling fallback counts. */
    const onShared = async <T>(work: () => Promise<T>): Promise<T> => {
      this.#assertShared();
      try {
        // Counts of a fallback that straggled in after the switch back go first.
        if (this.#pending.size > 0) await this.#flush();
        return await work();
      } catch (error) {
        throw this.#failed(error);
      }
    };
    const ttlOf = (key: string) => this.#ttls.get(windowOfKey(key)) ?? DEFAULT_TTL_SECONDS;

    this.shared = {
      add: (key, points, ttlSeconds) => {
        this.#ttls.set(windowOfKey(key), ttlSeconds);
        return onShared(async () => {
          const value = await primary.add(key, points, ttlSeconds);
          mirror.set(key, value, ttlSeconds);
          return value;
        });
      },
      read: (keys) =>
        onShared(async () => {
          const values = await primary.read(keys);
          keys.forEach((key, index) => mirror.set(key, values[index] ?? 0, ttlOf(key)));
          return values;
        }),
      take: (windows) => {
        for (const window of windows) this.#rememberTtl(window);
        return onShared(async () => {
          const result = await primary.take(windows);
          windows.forEach((window, w) => {
            const counts = result.counts[w] ?? [];
            window.keys.forEach((key, index) => {
              const counted = result.taken && index === window.keys.length - 1 ? 1 : 0;
              mirror.set(key, (counts[index] ?? 0) + counted, window.ttlSeconds);
            });
          });
          return result;
        });
      },
    };

    this.local = {
      add: async (key, points, ttlSeconds) => {
        this.#addPending(key, points, ttlSeconds);
        return mirror.add(key, points, ttlSeconds);
      },
      read: (keys) => mirror.read(keys),
      take: async (windows) => {
        const result = await mirror.take(windows);
        if (result.taken) {
          for (const window of windows) {
            this.#addPending(window.keys.at(-1) ?? '', 1, window.ttlSeconds);
          }
        }
        return result;
      },
    };
  }

  #rememberTtl(window: WindowTake): void {
    const [first] = window.keys;
    if (first !== undefined) this.#ttls.set(windowOfKey(first), window.ttlSeconds);
  }

  #addPending(key: string, points: number, ttl: number): void {
    const pending = this.#pending.get(key);
    this.#pending.set(key, { points: (pending?.points ?? 0) + points, ttl });
  }

  /** True while the per-replica share decides. */
  isFallback(): boolean {
    return this.#status.mode === 'fallback';
  }

  status(): FailoverStatus {
    return this.#status;
  }

  /** Stops trying to reach the shared store (shutdown). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  #assertShared(): void {
    if (this.isFallback())
      throw new SharedWindowsUnavailable('falling back to the per-replica share');
  }

  #failed(error: unknown): SharedWindowsUnavailable {
    if (error instanceof SharedWindowsUnavailable) return error;
    const reason = error instanceof Error ? error.message : String(error);
    if (!this.isFallback()) {
      this.#status = { mode: 'fallback', since: this.#now(), reason };
      this.#answeringSince = undefined;
      this.#options.logger.warn(
        { err: error, replicas: this.#options.replicas },
        `Redis is unreachable: the governor now keeps 1/${this.#options.replicas} of every limit in this replica until Redis is back`,
      );
      this.#options.onModeChange?.('fallback');
      this.#scheduleProbe();
    }
    return new SharedWindowsUnavailable(reason, { cause: error });
  }

  #scheduleProbe(): void {
    if (this.#closed || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#probe();
    }, this.#options.probeIntervalMs ?? 1_000);
    this.#timer.unref();
  }

  async #probe(): Promise<void> {
    try {
      await this.#options.probe();
      // Tell the other replicas what this one sent as early as possible.
      await this.#flush();
      const now = this.#now();
      this.#answeringSince ??= now;
      if (now - this.#answeringSince >= (this.#options.recoveryGraceMs ?? 2_000)) {
        await this.#flush();
        this.#status = { mode: 'shared', since: null, reason: null };
        this.#answeringSince = undefined;
        this.#options.logger.info(
          'Redis is back: the governor shares every limit across replicas again',
        );
        this.#options.onModeChange?.('shared');
        return;
      }
    } catch {
      this.#answeringSince = undefined;
    }
    this.#scheduleProbe();
  }

  /** Adds what this replica counted on its own to the shared counters. */
  async #flush(): Promise<void> {
    for (const [key, { points, ttl }] of [...this.#pending]) {
      this.#pending.delete(key);
      try {
        if (points !== 0) await this.#options.primary.add(key, points, ttl);
      } catch (error) {
        const again = this.#pending.get(key);
        this.#pending.set(key, { points: points + (again?.points ?? 0), ttl });
        throw error;
      }
    }
  }
}
