// Console sessions in the console's own database (SQLite under DATA_DIR, or PostgreSQL with
// DATABASE_URL), so a restart signs nobody out and a browser's live stream picks up where it left
// off. Rows hold the SHA-256 of the session id, never the id: a stolen database file signs nobody
// in. Idle and maximum age are decided by the injected clock, as in the other stores.
//
// Writes are kept rare: a use restarts the stored idle timer at most every `writeEveryMs` (the
// smaller of 10 s and 1% of the idle time), so a busy page does not cost a synced disk write per
// request; a session may therefore end that much before its full idle time.
//
// While the database cannot be used (DATA_DIR unusable at start, PostgreSQL away), sign-in still
// works: the session is kept in this process and saved as soon as the database answers; sessions
// this process has seen stay valid within the same limits; one it has not seen gets a 503, not a
// sign-out; a sign-out applies here at once and in the database when it is back.
import type { SqlDatabase } from '../store/database';
import {
  knownGrants,
  knownRole,
  type SessionOwner,
  MemorySessionStore,
  newestFirst,
  newSessionRecord,
  requireMatch,
  sessionIdHash,
  sessionMatches,
  type NewSessionDetails,
  type SessionMatch,
  type SessionRecord,
  type SessionStore,
  type TouchOptions,
} from './session-store';
import { sessionStoreUnavailable } from './session-unavailable';
import type { ConnectionGrants } from './connection-roles';
import * as z from 'zod';
import { integer, select } from '../store/typed-rows';

export interface SqlSessionStoreOptions {
  /** The console's database (open-store.ts). */
  readonly database: () => Promise<SqlDatabase>;
  /** A session unused for this long ends (SESSION_IDLE_MINUTES). */
  readonly idleMs: number;
  /** A session ends this long after sign-in however active it is (SESSION_MAX_HOURS). */
  readonly maxAgeMs: number;
  readonly now?: () => number;
  /** Sessions this process keeps a copy of for an outage of the database (default 10,000). */
  readonly maxCachedSessions?: number;
}

const SessionRowSchema = z.object({
  id_hash: z.string(),
  username: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  method: z.enum(['password', 'provider']),
  role: z.string().nullable(),
  connection_roles: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  user_agent: z.string().nullable(),
  user_version: z.string().nullable(),
  provider_issuer: z.string().nullable(),
  provider_sub: z.string().nullable(),
  provider_sid: z.string().nullable(),
  provider_auth_time: integer.nullable(),
  provider_id_token: z.string().nullable(),
});
type SessionRow = z.infer<typeof SessionRowSchema>;

const SESSION_COLUMNS = `id_hash, username, created_at, last_seen_at, method, role, name, email,
  user_agent, user_version, provider_issuer, provider_sub, provider_sid, provider_auth_time,
  provider_id_token, connection_roles`;

/** The grants a row holds as JSON; null on rows from before roles per connection (none). */
function grantsOf(text: string | null): ConnectionGrants | null {
  if (text === null) return null;
  try {
    return knownGrants(JSON.parse(text)) ?? null;
  } catch {
    return null;
  }
}

const iso = (at: number) => new Date(at).toISOString();

/** The record a row holds; `id` is the session id when known, the handle otherwise. */
function recordOf(row: SessionRow, id: string): SessionRecord {
  const optional = {
    // A role this build does not know (rows of a newer one) gives a session no role: it ends.
    role: knownRole(row.role) ?? null,
    connectionRoles: grantsOf(row.connection_roles),
    name: row.name,
    email: row.email,
    userAgent: row.user_agent,
    userVersion: row.user_version,
  };
  const provider = row.provider_issuer !== null &&
    row.provider_sub !== null && {
      issuer: row.provider_issuer,
      sub: row.provider_sub,
      ...(row.provider_sid !== null ? { sid: row.provider_sid } : {}),
      ...(row.provider_auth_time !== null ? { authTime: row.provider_auth_time } : {}),
      ...(row.provider_id_token !== null ? { idToken: row.provider_id_token } : {}),
    };
  return {
    id,
    handle: row.id_hash,
    username: row.username,
    createdAt: Date.parse(row.created_at),
    lastSeenAt: Date.parse(row.last_seen_at),
    method: row.method,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== null)),
    ...(provider ? { provider } : {}),
  };
}

/** Sessions in the console's database. */
export class SqlSessionStore implements SessionStore {
  readonly #options: SqlSessionStoreOptions;
  readonly #now: () => number;
  readonly #writeEveryMs: number;
  /** This process's copy of the sessions it created or used, for an outage of the database. */
  readonly #seen: MemorySessionStore;
  /** Ids of sessions created while the database could not be written. */
  readonly #unsaved = new Set<string>();
  /** Hashes of sessions signed out while the database could not be written. */
  readonly #pendingDeletes = new Set<string>();

  constructor(options: SqlSessionStoreOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#writeEveryMs = Math.min(10_000, options.idleMs / 100);
    this.#seen = new MemorySessionStore({
      idleMs: options.idleMs,
      maxAgeMs: options.maxAgeMs,
      now: this.#now,
      maxSessions: options.maxCachedSessions ?? 10_000,
    });
  }

  async create(user: SessionOwner, details: NewSessionDetails): Promise<SessionRecord> {
    const record = newSessionRecord(user, details, this.#now());
    this.#seen.remember(record);
    try {
      const db = await this.#options.database();
      // Sign-ins are rare and throttled: the moment to drop rows past their expiry.
      await db.query('DELETE FROM console_sessions WHERE expires_at <= $1', [
        iso(record.createdAt),
      ]);
      await this.#insert(db, record);
    } catch {
      this.#unsaved.add(record.id);
      // Bounded like the copy it is saved from.
      if (this.#unsaved.size > (this.#options.maxCachedSessions ?? 10_000)) {
        this.#unsaved.delete(this.#unsaved.values().next().value!);
      }
    }
    return { ...record };
  }

  async touch(
    id: string,
    { extend = true }: TouchOptions = {},
  ): Promise<SessionRecord | undefined> {
    const hash = sessionIdHash(id);
    if (this.#pendingDeletes.has(hash)) {
      await this.#database()
        .then((db) => this.#flushDeletes(db))
        .catch(() => undefined);
      return undefined;
    }
    let db: SqlDatabase;
    let row: SessionRow | undefined;
    try {
      db = await this.#database();
      await this.#saveLate(db, id);
      ({
        rows: [row],
      } = await select(
        db,
        SessionRowSchema,
        `SELECT ${SESSION_COLUMNS} FROM console_sessions WHERE id_hash = $1`,
        [hash],
      ));
    } catch (error) {
      // The database is away: a session this process has seen stays valid, within its limits.
      const seen = await this.#seen.touch(id, { extend });
      if (seen) return seen;
      throw sessionStoreUnavailable(error);
    }
    if (!row) {
      await this.#seen.delete(id);
      return undefined;
    }
    const record = recordOf(row, id);
    const at = this.#now();
    if (
      !(at - record.lastSeenAt < this.#options.idleMs) ||
      !(at - record.createdAt < this.#options.maxAgeMs)
    ) {
      await this.delete(id);
      return undefined;
    }
    if (!extend) {
      this.#seen.remember(record);
      return record;
    }
    const touched = { ...record, lastSeenAt: at };
    if (at - record.lastSeenAt >= this.#writeEveryMs) {
      // A failure here costs only the idle timer's restart.
      await db
        .query(
          'UPDATE console_sessions SET last_seen_at = $2, expires_at = $3 WHERE id_hash = $1',
          [hash, iso(at), iso(this.#expiresAt(touched))],
        )
        .catch(() => undefined);
    }
    this.#seen.remember(touched);
    return touched;
  }

  async delete(id: string): Promise<void> {
    await this.#seen.delete(id);
    this.#unsaved.delete(id);
    const hash = sessionIdHash(id);
    try {
      const db = await this.#options.database();
      await db.query('DELETE FROM console_sessions WHERE id_hash = $1', [hash]);
    } catch {
      // Signed out here now, in the database (for every process) once it answers again.
      this.#pendingDeletes.add(hash);
    }
  }

  async list(filter: { username?: string } = {}): Promise<SessionRecord[]> {
    const rows = await this.#live(filter.username);
    return rows.map((row) => recordOf(row, row.id_hash)).sort(newestFirst);
  }

  async endWhere(match: SessionMatch): Promise<string[]> {
    requireMatch(match);
    await this.#seen.endWhere(match);
    let db: SqlDatabase;
    let rows: SessionRow[];
    try {
      db = await this.#database();
      rows = await this.#live(match.username, db);
    } catch (error) {
      throw sessionStoreUnavailable(error);
    }
    const ended = rows
      .map((row) => recordOf(row, row.id_hash))
      .filter((record) => sessionMatches(record, match))
      .map((record) => record.handle);
    try {
      for (const hash of ended) {
        await db.query('DELETE FROM console_sessions WHERE id_hash = $1', [hash]);
      }
    } catch (error) {
      throw sessionStoreUnavailable(error);
    }
    return ended;
  }

  /** The rows of live sessions (of `username` when given). */
  async #live(username: string | undefined, db?: SqlDatabase): Promise<SessionRow[]> {
    try {
      const database = db ?? (await this.#database());
      const at = iso(this.#now());
      const { rows } = await select(
        database,
        SessionRowSchema,
        username === undefined
          ? `SELECT ${SESSION_COLUMNS} FROM console_sessions WHERE expires_at > $1`
          : `SELECT ${SESSION_COLUMNS} FROM console_sessions WHERE expires_at > $1 AND username = $2`,
        username === undefined ? [at] : [at, username],
      );
      return rows.filter(
        (row) => Date.parse(row.created_at) + this.#options.maxAgeMs > this.#now(),
      );
    } catch (error) {
      throw sessionStoreUnavailable(error);
    }
  }

  /** The database, with the sign-outs it missed applied first. */
  async #database(): Promise<SqlDatabase> {
    const db = await this.#options.database();
    await this.#flushDeletes(db);
    return db;
  }

  async #flushDeletes(db: SqlDatabase): Promise<void> {
    for (const hash of [...this.#pendingDeletes]) {
      await db.query('DELETE FROM console_sessions WHERE id_hash = $1', [hash]);
      this.#pendingDeletes.delete(hash);
    }
  }

  /** Saves a session created while the database was away, now that it answers. */
  async #saveLate(db: SqlDatabase, id: string): Promise<void> {
    if (!this.#unsaved.has(id)) return;
    const record = await this.#seen.touch(id, { extend: false });
    if (record) await this.#insert(db, record);
    this.#unsaved.delete(id);
  }

  async #insert(db: SqlDatabase, record: SessionRecord): Promise<void> {
    await db.query(
      `INSERT INTO console_sessions (${SESSION_COLUMNS}, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
       ON CONFLICT (id_hash) DO NOTHING`,
      [
        record.handle,
        record.username,
        iso(record.createdAt),
        iso(record.lastSeenAt),
        record.method,
        record.role ?? null,
        record.name ?? null,
        record.email ?? null,
        record.userAgent ?? null,
        record.userVersion ?? null,
        record.provider?.issuer ?? null,
        record.provider?.sub ?? null,
        record.provider?.sid ?? null,
        record.provider?.authTime ?? null,
        record.provider?.idToken ?? null,
        record.connectionRoles ? JSON.stringify(record.connectionRoles) : null,
        iso(this.#expiresAt(record)),
      ],
    );
  }

  /** When the session ends unless used again: idle time or maximum age, whichever is first. */
  #expiresAt(record: SessionRecord): number {
    return Math.min(
      record.lastSeenAt + this.#options.idleMs,
      record.createdAt + this.#options.maxAgeMs,
    );
  }
}
