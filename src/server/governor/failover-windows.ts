// The governor's window counters across replicas, kept even when Redis is not. Normally they live
// in Redis, shared by every replica. While Redis cannot be reached each replica keeps a
// conservative share of every limit (limit ÷ REPLICAS) on its own, starting from the last shared
// counts it saw, so what was already sent still counts; when Redis answers again each replica first
// adds what it sent meanwhile to the shared counters, waits a moment for the others to do the same,
// and only then trusts the shared counts again. Enforcement never stops.
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Logger } from '../logger';
import { createLimiterWindowStore, type WindowCounterStore } from './window-store';

/** The shared store failed: the caller retries on the per-replica share. */
export class SharedWindowsUnavailable extends Error {
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
}

/** Counters kept in this process: the mirror of the shared ones, and the fallback's own. */
function mirrorLimiter() {
  return new RateLimiterMemory({
    keyPrefix: 'governor-mirror',
    points: Number.MAX_SAFE_INTEGER,
    duration: 0,
  });
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
  readonly #mirror = mirrorLimiter();
  /** What this replica counted while falling back, not yet added to the shared counters. */
  readonly #pending = new Map<string, { points: number; ttl: number }>();
  readonly #ttls = new Map<string, number>();
  #status: FailoverStatus = { mode: 'shared', since: null, reason: null };
  #timer: NodeJS.Timeout | undefined;
  #answeringSince: number | undefined;
  #closed = false;

  constructor(options: FailoverWindowsOptions) {
    this.#options = options;
    const mirrored = createLimiterWindowStore(this.#mirror);
    const { primary } = options;

    this.shared = {
      add: async (key, points, ttlSeconds) => {
        this.#ttls.set(windowOfKey(key), ttlSeconds);
        this.#assertShared();
        try {
          // Counts of a fallback that straggled in after the switch back go first.
          if (this.#pending.size > 0) await this.#flush();
          const value = await primary.add(key, points, ttlSeconds);
          await this.#mirror.set(key, value, ttlSeconds);
          return value;
        } catch (error) {
          throw this.#failed(error);
        }
      },
      read: async (keys) => {
        this.#assertShared();
        try {
          const values = await primary.read(keys);
          await Promise.all(
            keys.map((key, index) =>
              this.#mirror.set(
                key,
                values[index] ?? 0,
                this.#ttls.get(windowOfKey(key)) ?? DEFAULT_TTL_SECONDS,
              ),
            ),
          );
          return values;
        } catch (error) {
          throw this.#failed(error);
        }
      },
    };

    this.local = {
      add: async (key, points, ttlSeconds) => {
        const pending = this.#pending.get(key);
        this.#pending.set(key, { points: (pending?.points ?? 0) + points, ttl: ttlSeconds });
        return mirrored.add(key, points, ttlSeconds);
      },
      read: (keys) => mirrored.read(keys),
    };
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
      this.#status = { mode: 'fallback', since: Date.now(), reason };
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
      const now = Date.now();
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
