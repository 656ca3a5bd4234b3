// Where console sessions and failed sign-in counts live. With Redis (REDIS_URL) every replica sees
// the same sessions and the same counts, so a user stays signed in whichever replica answers and
// spreading password guesses over replicas gains an attacker nothing. Without Redis both stay in
// this process's memory (console-auth.ts builds those itself).
import type { RedisClient } from '../redis/redis-connection';
import type { Config } from '../config';
import type { RedisKeys } from '../redis/redis-keys';
import { RedisSessionStore } from './redis-session-store';
import { DEFAULT_SIGN_IN_THROTTLE, SignInThrottle } from './sign-in-throttle';

export interface SessionBackendsOptions {
  readonly config: Config;
  readonly now: () => number;
  /** The open Redis connection and the deployment's key names (redis/redis-keys.ts). */
  readonly redis?: { readonly connection: RedisClient; readonly keys: RedisKeys };
}

/** Sessions and the sign-in throttle shared through Redis; none without it. */
export interface SessionBackends {
  readonly sessions?: RedisSessionStore;
  readonly throttle?: SignInThrottle;
}

/** Builds the Redis-backed sessions and throttle when Redis is configured. */
export function createSessionBackends({
  config,
  now,
  redis,
}: SessionBackendsOptions): SessionBackends {
  if (!redis) return {};
  const { connection, keys } = redis;
  return {
    sessions: new RedisSessionStore({
      redis: connection,
      keys,
      idleMs: config.auth.sessionIdleMinutes * 60_000,
      maxAgeMs: config.auth.sessionMaxHours * 3_600_000,
      now,
    }),
    throttle: new SignInThrottle(DEFAULT_SIGN_IN_THROTTLE, { redis: connection, keys }),
  };
}
