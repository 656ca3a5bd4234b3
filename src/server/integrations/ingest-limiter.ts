// How many reports one key may send: a fixed count per minute per integration, in this process's
// memory, or in Redis when replicas share one (REDIS_URL), so spreading a flood over replicas gains
// nothing. While Redis is away each replica counts on its own (rate-limiter-flexible's insurance).
import type { RedisClient } from '../redis/redis-connection';
import type { ConsoleRedisKeys } from '../redis/redis-keys';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { QuotaPolicy } from '../http/rate-limit-fields';

/** The verdict for one report. */
export type IngestVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts reports per integration. */
export interface IngestLimiter {
  take(integrationId: string): Promise<IngestVerdict>;
  /** The per-key limit, as named in the RateLimit-Policy field of a refusal. */
  readonly policy: QuotaPolicy;
}

/** A limiter of `perMinute` reports per integration; shared through `redis` when given. */
export function createIngestLimiter(options: {
  perMinute: number;
  redis?: RedisClient;
  keys?: ConsoleRedisKeys;
}): IngestLimiter {
  const base = { points: options.perMinute, duration: 60, keyPrefix: 'integration-ingest' };
  const limiter = options.redis
    ? new RateLimiterRedis({
        ...base,
        keyPrefix: options.keys?.limiter(base.keyPrefix) ?? base.keyPrefix,
        storeClient: options.redis,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(base),
      })
    : new RateLimiterMemory(base);
  return {
    policy: { id: 'integration-reports', quota: options.perMinute, windowSeconds: 60 },
    async take(integrationId) {
      try {
        await limiter.consume(integrationId);
        return { allowed: true };
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          return {
            allowed: false,
            retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1_000)),
          };
        }
        throw error;
      }
    },
  };
}
