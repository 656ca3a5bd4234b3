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
import type { ConsoleRedisKeys } from '../redis/redis-keys';
import {
  knownGrants,
  knownRole,
  type SessionOwner,
  MemorySessionStore,
  newestFirst,
  newSessionRecord,
  requireMatch,
  sessionIdHash,
  sessionExpired,
  sessionMatches,
  type NewSessionDetails,
  type SessionMatch,
  type SessionRecord,
  type SessionStore,
  type TouchOptions,
} from './session-store';
import { sessionStoreUnavailable } from './session-unavailable';

export interface RedisSessionStoreOptions {
  readonly redis: RedisClient;
  /** The deployment's key names. */
  readonly keys: ConsoleRedisKeys;
  /** A session unused for this long ends (SESSION_IDLE_MINUTES). */
  readonly idleMs: number;
  /** A session ends this long after sign-in however active it is (SESSION_MAX_HOURS). */
  readonly maxAgeMs: number;
  readonly now?: () => number;
  /** Sessions this replica keeps a copy of for a Redis outage (default 10,000). */
  readonly maxCachedSessions?: number;
}

/** A session as kept in Redis: the record without its id or handle (the key holds the handle). */
const StoredSession = z.object({
  username: z.string(),
  createdAt: z.number(),
  lastSeenAt: z.number(),
  // Sessions stored before sign-ins were told apart were all password sessions.
  method: z.enum(['password', 'provider']).default('password'),
  role: z.string().optional(),
  // Absent on sessions stored before roles per connection: the role applies everywhere.
  connectionRoles: z.record(z.string(), z.unknown()).optional(),
  name: z.string().optional(),
  email: z.string().optional(),
  userAgent: z.string().optional(),
  userVersion: z.string().optional(),
  provider: z
    .object({
      issuer: z.string(),
      sub: z.string(),
      sid: z.string().optional(),
      authTime: z.number().optional(),
      idToken: z.string().optional(),
    })
    .optional(),
});

/** The record Redis holds under `handle`, or undefined when the value is not one. */
function parseStored(text: string, id: string, handle: string): SessionRecord | undefined {
  const stored = StoredSession.safeParse(safeJson(text));
  if (!stored.success) return undefined;
  const { role, connectionRoles, ...rest } = stored.data;
  const known = knownRole(role);
  const grants = knownGrants(connectionRoles);
  return {
    ...rest,
    ...(known ? { role: known } : {}),
    ...(grants ? { connectionRoles: grants } : {}),
    id,
    handle,
  };
}

/** MGET in slices, so a long list never makes one huge command. */
const MGET_SLICE = 500;

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

  async create(user: SessionOwner, details: NewSessionDetails): Promise<SessionRecord> {
    const record = newSessionRecord(user, details, this.#now());
    const { redis, keys } = this.#options;
    await this.#run(async () => {
      // Indexed before it exists, so no session can escape listing and ending (an index entry
      // without a session is dropped at the next listing).
      await redis.zadd(keys.sessionIndex, record.createdAt + this.#options.maxAgeMs, record.handle);
      await redis.set(this.#key(record.id), this.#value(record), 'PX', this.#ttl(record));
      // Sign-ins are rare and throttled: the moment to drop index entries past any session's end.
      await redis.zremrangebyscore(keys.sessionIndex, '-inf', record.createdAt);
    });
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
    const stored = parseStored(text, id, sessionIdHash(id));
    const at = this.#now();
    if (!stored || this.#expired(stored, at)) {
      await this.delete(id);
      return undefined;
    }
    if (!extend) return stored;
    const record: SessionRecord = { ...stored, lastSeenAt: at };
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
      await this.#options.redis.zrem(this.#options.keys.sessionIndex, sessionIdHash(id));
    } catch {
      // Signed out here now, everywhere once Redis answers again.
      this.#pendingDeletes.add(id);
    }
  }

  async list(filter: { username?: string } = {}): Promise<SessionRecord[]> {
    const records = await this.#run(() => this.#live());
    return records
      .filter((record) => filter.username === undefined || record.username === filter.username)
      .sort(newestFirst);
  }

  async endWhere(match: SessionMatch): Promise<string[]> {
    requireMatch(match);
    await this.#seen.endWhere(match);
    const { redis, keys } = this.#options;
    return this.#run(async () => {
      const ended = (await this.#live())
        .filter((record) => sessionMatches(record, match))
        .map((record) => record.handle);
      if (ended.length > 0) {
        await redis.del(...ended.map((handle) => keys.session(handle)));
        await redis.zrem(keys.sessionIndex, ...ended);
      }
      return ended;
    });
  }

  /**
   * Every live session, read through the index (one slot: this works on a cluster); index
   * entries whose session has ended are dropped on the way. `id` holds the handle.
   */
  async #live(): Promise<SessionRecord[]> {
    const { redis, keys } = this.#options;
    await this.#flushDeletes();
    const at = this.#now();
    const handles = await redis.zrangebyscore(keys.sessionIndex, `(${at}`, '+inf');
    const records: SessionRecord[] = [];
    const gone: string[] = [];
    for (let start = 0; start < handles.length; start += MGET_SLICE) {
      const slice = handles.slice(start, start + MGET_SLICE);
      const values = await redis.mget(...slice.map((handle) => keys.session(handle)));
      slice.forEach((handle, n) => {
        const text = values[n];
        const record = text ? parseStored(text, handle, handle) : undefined;
        if (record && !this.#expired(record, at)) records.push(record);
        else if (!text) gone.push(handle);
      });
    }
    if (gone.length > 0) await redis.zrem(keys.sessionIndex, ...gone);
    return records;
  }

  #expired(record: SessionRecord, at: number): boolean {
    return sessionExpired(record, at, this.#options);
  }

  /** Applies the sign-outs Redis missed. */
  async #flushDeletes(): Promise<void> {
    if (this.#pendingDeletes.size === 0) return;
    const ids = [...this.#pendingDeletes];
    await this.#options.redis.del(...ids.map((id) => this.#key(id)));
    await this.#options.redis.zrem(
      this.#options.keys.sessionIndex,
      ...ids.map((id) => sessionIdHash(id)),
    );
    for (const id of ids) this.#pendingDeletes.delete(id);
  }

  #key(id: string): string {
    return this.#options.keys.session(sessionIdHash(id));
  }

  #value(record: SessionRecord): string {
    // Never the id: Redis holds nothing a browser could present.
    const { id: _id, handle: _handle, ...kept } = record;
    return JSON.stringify(kept);
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
