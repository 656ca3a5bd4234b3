// Server-side console sessions behind a small interface: in this process's memory (tests,
// benchmarks), in the console's database (sql-session-store.ts, the default) or in Redis
// (redis-session-store.ts, REDIS_URL). The browser only ever holds a random id.
import { createHash, randomBytes } from 'node:crypto';
import type { RequestUser } from '../app-env';

/** One signed-in session. */
export interface SessionRecord {
  /** 256 random bits, base64url. The cookie carries it, signed. */
  id: string;
  username: string;
  createdAt: number;
  lastSeenAt: number;
}

/** How a session is looked at. */
export interface TouchOptions {
  /** Whether this use counts as a person's activity (default true). */
  readonly extend?: boolean;
}

/** Where sessions live. Every method is async so a networked store can implement it. */
export interface SessionStore {
  /** Starts a new session for `user` with a fresh random id. */
  create(user: RequestUser): Promise<SessionRecord>;
  /**
   * The live session with `id`, with its idle timer restarted; `undefined` when unknown, ended,
   * idle too long or past its maximum lifetime (an expired session is removed on the way). With
   * `extend: false` (a background request: the page polling, a live stream's check) the idle
   * timer is left alone, so an unattended tab does not keep its session alive.
   */
  touch(id: string, options?: TouchOptions): Promise<SessionRecord | undefined>;
  /** Ends the session; the id never works again. Unknown ids are ignored. */
  delete(id: string): Promise<void>;
}

export interface MemorySessionStoreOptions {
  /** A session unused for this long ends (SESSION_IDLE_MINUTES). */
  idleMs: number;
  /** A session ends this long after sign-in however active it is (SESSION_MAX_HOURS). */
  maxAgeMs: number;
  now?: () => number;
  /** Bound on sessions held; beyond it the least recently used one ends. */
  maxSessions?: number;
}

/** Generates a session id: 32 bytes from the CSPRNG. */
function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What a shared store keeps instead of the session id: its SHA-256 (base64url). Reading the store
 * (Redis, a copy of the database) gives nothing a browser could present.
 */
export function sessionIdHash(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

/** A new session for `user`, begun and last seen at `at`, under a fresh id. */
export function newSessionRecord(user: RequestUser, at: number): SessionRecord {
  return { id: newSessionId(), username: user.username, createdAt: at, lastSeenAt: at };
}

/**
 * Sessions in a Map, ordered by last use so the oldest is evicted first and expired ones are
 * swept from the front. Lost on restart, which only means signing in again.
 */
export class MemorySessionStore implements SessionStore {
  readonly #options: Required<Omit<MemorySessionStoreOptions, 'now'>>;
  readonly #now: () => number;
  readonly #sessions = new Map<string, SessionRecord>();

  constructor(options: MemorySessionStoreOptions) {
    this.#options = { maxSessions: 10_000, ...options };
    this.#now = options.now ?? Date.now;
  }

  /** Sessions currently held, expired ones not yet swept included (tests and metrics). */
  get size(): number {
    return this.#sessions.size;
  }

  async create(user: RequestUser): Promise<SessionRecord> {
    this.#sweep();
    const record = newSessionRecord(user, this.#now());
    this.#sessions.set(record.id, record);
    while (this.#sessions.size > this.#options.maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
    return { ...record };
  }

  async touch(
    id: string,
    { extend = true }: TouchOptions = {},
  ): Promise<SessionRecord | undefined> {
    const record = this.#sessions.get(id);
    if (!record) return undefined;
    const at = this.#now();
    if (this.#expired(record, at)) {
      this.#sessions.delete(id);
      return undefined;
    }
    if (!extend) return { ...record };
    record.lastSeenAt = at;
    // Re-insert so Map order stays "least recently used first".
    this.#sessions.delete(id);
    this.#sessions.set(id, record);
    return { ...record };
  }

  async delete(id: string): Promise<void> {
    this.#sessions.delete(id);
  }

  /**
   * Holds a copy of `record`, a session another store created: the Redis store's copy for an
   * outage (redis-session-store.ts). It counts as the most recently used.
   */
  remember(record: SessionRecord): void {
    this.#sessions.delete(record.id);
    this.#sessions.set(record.id, { ...record });
    while (this.#sessions.size > this.#options.maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
  }

  #expired(record: SessionRecord, at: number): boolean {
    return (
      at - record.lastSeenAt >= this.#options.idleMs ||
      at - record.createdAt >= this.#options.maxAgeMs
    );
  }

  /** Drops expired sessions from the least recently used end. */
  #sweep(): void {
    const at = this.#now();
    for (const [id, record] of this.#sessions) {
      if (!this.#expired(record, at)) {
        // Least recently used first: once one is idle-fresh, later ones can only be expired by
        // maximum age, which the next touch() catches.
        break;
      }
      this.#sessions.delete(id);
    }
  }
}
