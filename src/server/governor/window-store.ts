// Where the governor's window counters live. One process keeps them in rate-limiter-flexible's
// memory limiter; several replicas share them through the same library's Redis limiter
// (REDIS_URL), which has the same penalty/reward/get API.
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/** Atomic counters with an expiry: all the governor needs from a store. */
export interface WindowCounterStore {
  /**
   * Adds `points` (negative to give some back) to the counter `key`, creating it to live
   * `ttlSeconds` when it does not exist; resolves to the counter's new value. Atomic: concurrent
   * adds never lose an update.
   */
  add(key: string, points: number, ttlSeconds: number): Promise<number>;
  /** The current values of `keys`, in order; 0 for a counter that does not exist or expired. */
  read(keys: readonly string[]): Promise<number[]>;
}

type CounterLimiter = Pick<RateLimiterAbstract, 'penalty' | 'reward' | 'get'>;

/**
 * A store over any rate-limiter-flexible limiter. Only its counters are used (`penalty` adds,
 * `reward` gives back, `get` reads): its own fixed window is not, because a fixed window lets
 * twice the limit through across a window boundary (see sliding-window.ts).
 */
export function createLimiterWindowStore(limiter: CounterLimiter): WindowCounterStore {
  return {
    async add(key, points, ttlSeconds) {
      const options = { customDuration: ttlSeconds };
      const result =
        points >= 0
          ? await limiter.penalty(key, points, options)
          : await limiter.reward(key, -points, options);
      return result.consumedPoints;
    },
    async read(keys) {
      const results = await Promise.all(keys.map((key) => limiter.get(key)));
      return results.map((result) => result?.consumedPoints ?? 0);
    },
  };
}

/** The single-process store: counters in this process's memory. */
export function createMemoryWindowStore(): WindowCounterStore {
  return createLimiterWindowStore(
    // `points` is irrelevant (nothing is consumed through the limiter's own check); every key
    // gets its own duration through `customDuration`.
    new RateLimiterMemory({ keyPrefix: 'governor', points: Number.MAX_SAFE_INTEGER, duration: 0 }),
  );
}

/**
 * The replicas' shared store: counters in Redis, updated atomically by the library's Lua script.
 * Rejects at once while the connection is not ready (instead of queueing), so the governor can
 * fall back to its per-replica share without waiting (failover-windows.ts).
 */
export function createRedisWindowStore(redis: Redis, keyPrefix: string): WindowCounterStore {
  return createLimiterWindowStore(
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points: Number.MAX_SAFE_INTEGER,
      duration: 0,
      rejectIfRedisNotReady: true,
    }),
  );
}
