// Console sessions in Redis (REDIS_URL), so a user signed in on one replica is signed in on every
// replica, and signing out on one ends the session on all. Keys hold a hash of the session id,
// not the id: reading Redis gives nothing a browser could present. Redis expires a session by its
// own clock; the injected clock still decides idle and maximum age, as in the memory store.
//
// While Redis is away, a replica keeps serving the sessions it has seen (a bounded copy of each,
// with the same idle and age limits), so an outage does not sign everybody out; a sign-out is
// applied here at once and in Redis as soon as it answers. New sign-ins wait for Redis.
import type { RedisClient } from '../redis/redis-connection';
import * as z from 'zod';
import type { RequestUser } from '../app-env';
import type { RedisKeys } from '../redis/redis-keys';
import {
  MemorySessionStore,
  newSessionRecord,
  sessionIdHash,
  type SessionRecord,
  type SessionStore,
  type TouchOptions,
} from './session-store';
import { sessionStoreUnavailable } from './session-unavailable';

export interface RedisSessionStoreOptions {
  readonly redis: RedisClient;
  /** The deployment's key names. */
  readonly keys: RedisKeys;
  /** A session unused for this long ends (SESSION_IDLE_MINUTES). */
  readonly idleMs: number;
  /** A session ends this long after sign-in however active it is (SESSION_MAX_HOURS). */
  readonly maxAgeMs: number;
  readonly now?: () => number;
  /** Sessions this replica keeps a copy of for a Redis outage (default 10,000). */
  readonly maxCachedSessions?: number;
}

const StoredSession = z.object({
  username: z.string(),
  createdAt: z.number(),
  lastSeenAt: z.number(),
});

/** Sessions shared by every replica through Redis. */
export class RedisSessionStore implements SessionStore {
  readonly #options: RedisSessionStoreOptions;
  readonly #now: () => number;
  /** The copy for an outage: this replica's sessions, least recently used first. */
  readonly #seen: MemorySessionStore;
  /** Sign-outs Redis has not heard of yet (it was unreachable). */
  readonly #pendingDeletes = new Set<string>();

  constructor(options: RedisSessionStoreOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#seen = new MemorySessionStore({
      idleMs: options.idleMs,
      maxAgeMs: options.maxAgeMs,
      now: this.#now,
      maxSessions: options.maxCachedSessions ?? 10_000,
    });
    // Sign-outs made during an outage reach Redis as soon as it is back.
    options.redis.on('ready', () => {
      this.#flushDeletes().catch(() => undefined);
    });
  }

  async create(user: RequestUser): Promise<SessionRecord> {
    const record = newSessionRecord(user, this.#now());
    await this.#run(() =>
      this.#options.redis.set(this.#key(record.id), this.#value(record), 'PX', this.#ttl(record)),
    );
    this.#seen.remember(record);
    return record;
  }

  async touch(
    id: string,
    { extend = true }: TouchOptions = {},
  ): Promise<SessionRecord | undefined> {
    const key = this.#key(id);
    let text: string | null;
    try {
      await this.#flushDeletes();
      text = await this.#options.redis.get(key);
    } catch (error) {
      // Redis is away: a session this replica has seen stays valid, within the same limits, and
      // one it signed out stays ended.
      const seen = await this.#seen.touch(id, { extend });
      if (seen) return seen;
      if (this.#pendingDeletes.has(id)) return undefined;
      throw sessionStoreUnavailable(error);
    }
    if (!text) {
      await this.#seen.delete(id);
      return undefined;
    }
    const stored = StoredSession.safeParse(safeJson(text));
    const at = this.#now();
    if (
      !stored.success ||
      at - stored.data.lastSeenAt >= this.#options.idleMs ||
      at - stored.data.createdAt >= this.#options.maxAgeMs
    ) {
      await this.delete(id);
      return undefined;
    }
    if (!extend) return { id, ...stored.data };
    const record: SessionRecord = { id, ...stored.data, lastSeenAt: at };
    // XX: only while it still exists, so a touch racing a sign-out elsewhere cannot revive it. A
    // failure here costs only the idle timer's restart.
    await this.#options.redis
      .set(key, this.#value(record), 'PX', this.#ttl(record), 'XX')
      .catch(() => undefined);
    this.#seen.remember(record);
    return record;
  }

  async delete(id: string): Promise<void> {
    await this.#seen.delete(id);
    try {
      await this.#options.redis.del(this.#key(id));
    } catch {
      // Signed out here now, everywhere once Redis answers again.
      this.#pendingDeletes.add(id);
    }
  }

  /** Applies the sign-outs Redis missed. */
  async #flushDeletes(): Promise<void> {
    if (this.#pendingDeletes.size === 0) return;
    const ids = [...this.#pendingDeletes];
    await this.#options.redis.del(...ids.map((id) => this.#key(id)));
    for (const id of ids) this.#pendingDeletes.delete(id);
  }

  #key(id: string): string {
    return this.#options.keys.session(sessionIdHash(id));
  }

  #value(record: SessionRecord): string {
    const { username, createdAt, lastSeenAt } = record;
    return JSON.stringify({ username, createdAt, lastSeenAt });
  }

  /** Until the idle time runs out or the maximum age is reached, whichever is first. */
  #ttl(record: SessionRecord): number {
    const untilMaxAge = record.createdAt + this.#options.maxAgeMs - this.#now();
    return Math.max(1, Math.min(this.#options.idleMs, untilMaxAge));
  }

  async #run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw sessionStoreUnavailable(error);
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
