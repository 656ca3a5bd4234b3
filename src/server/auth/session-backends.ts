// Where console sessions and failed sign-in counts live. With Redis (REDIS_URL) every replica sees
// the same sessions and the same counts, so a user stays signed in whichever replica answers and
// spreading password guesses over replicas gains an attacker nothing. Without Redis, sessions are
// kept in the console's database (SQLite under DATA_DIR, or PostgreSQL with DATABASE_URL, where
// they are then shared by the replicas too), so a restart signs nobody out; the sign-in throttle
// stays in this process's memory (console-auth.ts builds it). A database that lasts only as long
// as the process (tests, benchmarks) gains nothing over memory, which console-auth.ts then uses.
import type { RedisClient } from '../redis/redis-connection';
import type { ConsoleRedisKeys } from '../redis/redis-keys';
import type { Config } from '../config/config';
import type { ConsoleStore } from '../store/open-store';
import {
  RedisSeenLogoutTokens,
  SqlSeenLogoutTokens,
  type SeenLogoutTokens,
} from './oidc-seen-tokens';
import { RedisSessionStore } from './redis-session-store';
import type { SessionStore } from './session-store';
import { DEFAULT_SIGN_IN_THROTTLE, SignInThrottle } from './sign-in-throttle';
import { SqlSessionStore } from './sql-session-store';

export interface SessionBackendsOptions {
  readonly config: Config;
  readonly now: () => number;
  /** The console's database (open-store.ts). */
  readonly store: ConsoleStore;
  /** The open Redis connection and the deployment's key names (redis/redis-keys.ts). */
  readonly redis?: { readonly connection: RedisClient; readonly keys: ConsoleRedisKeys };
}

/** Sessions (and, with Redis, the sign-in throttle) kept beyond this process; none without it. */
export interface SessionBackends {
  readonly sessions?: SessionStore;
  readonly throttle?: SignInThrottle;
  /** Back-channel logout tokens already used, kept beside the sessions they end. */
  readonly seenLogoutTokens?: SeenLogoutTokens;
}

/** Builds the Redis-backed sessions and throttle, or the database-backed sessions. */
export function createSessionBackends({
  config,
  now,
  store,
  redis,
}: SessionBackendsOptions): SessionBackends {
  const limits = {
    idleMs: config.auth.sessionIdleMinutes * 60_000,
    maxAgeMs: config.auth.sessionMaxHours * 3_600_000,
    now,
  };
  if (!redis) {
    return store.persistent
      ? {
          sessions: new SqlSessionStore({ database: store.database, ...limits }),
          seenLogoutTokens: new SqlSeenLogoutTokens(store.database, now),
        }
      : {};
  }
  const { connection, keys } = redis;
  return {
    sessions: new RedisSessionStore({ redis: connection, keys, ...limits }),
    throttle: new SignInThrottle(DEFAULT_SIGN_IN_THROTTLE, { redis: connection, keys }),
    seenLogoutTokens: new RedisSeenLogoutTokens(connection, keys, now),
  };
}
