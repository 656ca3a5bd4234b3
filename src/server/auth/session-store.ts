// Server-side console sessions behind a small interface: in this process's memory (tests,
// benchmarks), in the console's database (sql-session-store.ts, the default) or in Redis
// (redis-session-store.ts, REDIS_URL). The browser only ever holds a random id.
import { createHash, randomBytes } from 'node:crypto';
import { RoleSchema, type Role } from '../../shared/session';
import type { RequestUser } from '../http/app-env';
import type { ConnectionGrants } from './connection-roles';

/** A session begun at an OpenID Connect provider: what ends it from there (back-channel logout). */
export interface ProviderSession {
  issuer: string;
  sub: string;
  sid?: string;
  /** auth_time of the ID token, epoch ms. */
  authTime?: number;
  /** The ID token, kept server-side only for RP-initiated logout's id_token_hint. */
  idToken?: string;
}

/** Whom a session is for: the store keeps the name; roles are the sign-in's (below). */
export type SessionOwner = Pick<RequestUser, 'username'>;

/** How a session began, as its sign-in knows it. */
export interface NewSessionDetails {
  method: 'password' | 'provider';
  /**
   * Provider sessions carry their console-wide role and their grants in named connections (taken
   * at sign-in from OIDC_ROLE_MAP); password sessions read the users file. A session stored
   * before connections existed has no grants: its role applies in every connection.
   */
  role?: Role;
  connectionRoles?: ConnectionGrants;
  name?: string;
  email?: string;
  provider?: ProviderSession;
  /** The browser's User-Agent, shortened (browserDescription), for the sessions page. */
  userAgent?: string;
  /** Password sessions: the users-file entry's version at sign-in (user-directory.ts). */
  userVersion?: string;
}

/** One signed-in session. */
export interface SessionRecord extends NewSessionDetails {
  /**
   * From create and touch: the session id, 256 random bits, base64url; the cookie carries it,
   * signed, and it must never be shown. Stores keep only its hash, so records answered by `list`
   * carry the handle here instead.
   */
  id: string;
  /**
   * The session's public handle: the SHA-256 of its id (sessionIdHash), the key the stores keep
   * it under. It signs nobody in, so the sessions page and its API name sessions by it.
   */
  handle: string;
  username: string;
  createdAt: number;
  lastSeenAt: number;
}

/** Which sessions `endWhere` ends: those matching every given field (at least one). */
export interface SessionMatch {
  username?: string;
  issuer?: string;
  sub?: string;
  sid?: string;
  /** One session, by its public handle (DELETE /api/sessions/{id}). */
  handle?: string;
}

/** How a session is looked at. */
export interface TouchOptions {
  /** Whether this use counts as a person's activity (default true). */
  readonly extend?: boolean;
}

/** Where sessions live. Every method is async so a networked store can implement it. */
export interface SessionStore {
  /** Starts a new session for `user` with a fresh random id, recording how it began. */
  create(user: SessionOwner, details: NewSessionDetails): Promise<SessionRecord>;
  /**
   * The live session with `id`, with its idle timer restarted; `undefined` when unknown, ended,
   * idle too long or past its maximum lifetime (an expired session is removed on the way). With
   * `extend: false` (a background request: the page polling, a live stream's check) the idle
   * timer is left alone, so an unattended tab does not keep its session alive.
   */
  touch(id: string, options?: TouchOptions): Promise<SessionRecord | undefined>;
  /** Ends the session; the id never works again. Unknown ids are ignored. */
  delete(id: string): Promise<void>;
  /** Live sessions, optionally of one username, newest first; `id` holds the handle. */
  list(filter?: { username?: string }): Promise<SessionRecord[]>;
  /**
   * Ends every live session matching ALL given fields (a provider session by issuer+sid, or
   * every session of a person by issuer+sub, or all of a username, or one by handle); answers
   * the ended sessions' handles, for endSessions (end-sessions.ts) to tell this process. Throws
   * when no field is given: ending every session is never meant.
   */
  endWhere(match: SessionMatch): Promise<string[]>;
}

/** Longest browser description kept: it is shown, never parsed. */
const USER_AGENT_MAX = 64;

/** Throws unless `match` names at least one field: ending every session is never meant. */
export function requireMatch(match: SessionMatch): void {
  if (Object.values(match).every((value) => value === undefined)) {
    throw new Error('endWhere needs at least one field to match');
  }
}

/** True when `record` matches every field given in `match` (at least one must be). */
export function sessionMatches(record: SessionRecord, match: SessionMatch): boolean {
  const wanted: Array<[string | undefined, string | undefined]> = [
    [match.username, record.username],
    [match.issuer, record.provider?.issuer],
    [match.sub, record.provider?.sub],
    [match.sid, record.provider?.sid],
    [match.handle, record.handle],
  ];
  const given = wanted.filter(([value]) => value !== undefined);
  if (given.length === 0) throw new Error('endWhere needs at least one field to match');
  return given.every(([value, actual]) => value === actual);
}

/** Whether `record` has ended at `at`: unused for `idleMs`, or `maxAgeMs` past its start. */
export function sessionExpired(
  record: Pick<SessionRecord, 'createdAt' | 'lastSeenAt'>,
  at: number,
  { idleMs, maxAgeMs }: { idleMs: number; maxAgeMs: number },
): boolean {
  return at - record.lastSeenAt >= idleMs || at - record.createdAt >= maxAgeMs;
}

/** `value` when it is a role this build knows; otherwise nothing (a session without a role ends). */
export function knownRole(value: unknown): Role | undefined {
  return RoleSchema.safeParse(value).success ? (value as Role) : undefined;
}

/**
 * The stored grants with the roles this build knows; a grant of an unknown role (written by a
 * newer build) is dropped, so that connection falls back to the console-wide role or to none.
 */
export function knownGrants(value: unknown): ConnectionGrants | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const grants: Record<string, Role> = {};
  for (const [name, role] of Object.entries(value)) {
    const known = knownRole(role);
    if (known) grants[name] = known;
  }
  return grants;
}

/** Newest first, then by handle so equal times keep one order. */
export function newestFirst(a: SessionRecord, b: SessionRecord): number {
  return b.createdAt - a.createdAt || a.handle.localeCompare(b.handle);
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
export function newSessionRecord(
  user: SessionOwner,
  details: NewSessionDetails,
  at: number,
): SessionRecord {
  const id = newSessionId();
  const { userAgent, ...rest } = details;
  return {
    ...rest,
    ...(userAgent ? { userAgent: userAgent.slice(0, USER_AGENT_MAX) } : {}),
    id,
    handle: sessionIdHash(id),
    username: user.username,
    createdAt: at,
    lastSeenAt: at,
  };
}

/** A copy of `record` that shares no nested object with it. */
function copyOf(record: SessionRecord): SessionRecord {
  return {
    ...record,
    ...(record.provider ? { provider: { ...record.provider } } : {}),
    ...(record.connectionRoles ? { connectionRoles: { ...record.connectionRoles } } : {}),
  };
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

  async create(user: SessionOwner, details: NewSessionDetails): Promise<SessionRecord> {
    this.#sweep();
    const record = newSessionRecord(user, details, this.#now());
    this.#sessions.set(record.id, record);
    while (this.#sessions.size > this.#options.maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
    return copyOf(record);
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
    if (!extend) return copyOf(record);
    record.lastSeenAt = at;
    // Re-insert so Map order stays "least recently used first".
    this.#sessions.delete(id);
    this.#sessions.set(id, record);
    return copyOf(record);
  }

  async delete(id: string): Promise<void> {
    this.#sessions.delete(id);
  }

  async list(filter: { username?: string } = {}): Promise<SessionRecord[]> {
    const at = this.#now();
    return [...this.#sessions.values()]
      .filter((record) => !this.#expired(record, at))
      .filter((record) => filter.username === undefined || record.username === filter.username)
      .map((record) => ({ ...copyOf(record), id: record.handle }))
      .sort(newestFirst);
  }

  async endWhere(match: SessionMatch): Promise<string[]> {
    requireMatch(match);
    const ended: string[] = [];
    for (const [id, record] of [...this.#sessions]) {
      if (!sessionMatches(record, match)) continue;
      this.#sessions.delete(id);
      if (!this.#expired(record, this.#now())) ended.push(record.handle);
    }
    return ended;
  }

  /**
   * Holds a copy of `record`, a session another store created: the Redis store's copy for an
   * outage (redis-session-store.ts). It counts as the most recently used.
   */
  remember(record: SessionRecord): void {
    this.#sessions.delete(record.id);
    this.#sessions.set(record.id, copyOf(record));
    while (this.#sessions.size > this.#options.maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
  }

  #expired(record: SessionRecord, at: number): boolean {
    return sessionExpired(record, at, this.#options);
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
