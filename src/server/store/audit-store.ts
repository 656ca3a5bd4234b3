// The lookup audit trail in the database: one row per data-subject lookup, written before the
// browser gets its answer, read back newest first with filters or by an identifier's keyed hash.
// Portable SQL over the SqlDatabase interface (SQLite or PostgreSQL).
import type { AuditOutcome, AuditRecord } from '../../shared/audit-trail';
import type { SqlDatabase } from './database';
import { decodeKeysetCursor, encodeKeysetCursor } from './keyset-cursor';
import { sortableId } from './sortable-id';

/** One lookup as the route hands it over (time in epoch ms). */
export interface AuditEntry {
  readonly at: number;
  readonly user: string;
  readonly operation: string;
  readonly outcome: AuditOutcome;
  readonly status: number;
  readonly detail: string | null;
  /** HMAC of the identifier (identifier-hash.ts); null when the lookup named no data subject. */
  readonly identifierHash: string | null;
  /** Fingerprint of the key the hash was made with. */
  readonly keyId: string;
  readonly continued: boolean;
  readonly requestId: string | null;
}

/** The trail's filters; times in epoch ms. */
export interface AuditQuery {
  readonly since?: number;
  readonly until?: number;
  readonly user?: string;
  readonly operation?: string;
  readonly outcome?: AuditOutcome;
  readonly limit: number;
  /** From a previous page's `nextCursor`. */
  readonly cursor?: string;
}

/** One page, newest first. */
export interface AuditRecordPage {
  items: AuditRecord[];
  nextCursor: string | null;
}

/** Where the audit trail is kept. */
export interface AuditStore {
  /** Writes one lookup; resolves once it is stored. */
  record(entry: AuditEntry): Promise<AuditRecord>;
  /** One page of the trail, newest first. */
  list(query: AuditQuery): Promise<AuditRecordPage>;
  /** One page of the lookups of the identifier whose hash is `identifierHash`, newest first. */
  findByIdentifierHash(
    identifierHash: string,
    page: { limit: number; cursor?: string },
  ): Promise<AuditRecordPage>;
}

interface AuditRow {
  id: string;
  at: string;
  username: string;
  operation: string;
  outcome: AuditOutcome;
  status: number | string;
  detail: string | null;
  identifier_hash: string | null;
  continued: number | string | boolean;
}

function toRecord(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    user: row.username,
    operation: row.operation,
    outcome: row.outcome,
    status: Number(row.status),
    detail: row.detail,
    identifierHashed: row.identifier_hash !== null,
    continued: Number(row.continued) === 1 || row.continued === true,
  };
}

function encodeCursor(record: AuditRecord): string {
  return encodeKeysetCursor(record.at, record.id);
}

const decodeCursor = (cursor: string) => decodeKeysetCursor(cursor, 64);

const COLUMNS = 'id, at, username, operation, outcome, status, detail, identifier_hash, continued';

const INSERT = `INSERT INTO lookup_audit (
    id, at, username, operation, outcome, status, detail, identifier_hash, key_id, continued,
    request_id
  ) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`;

// Keyset paging on (at, id): stable while new lookups arrive at the top.
const LIST = `SELECT ${COLUMNS} FROM lookup_audit
  WHERE (CAST($1 AS text) IS NULL OR at >= CAST($1 AS text))
    AND (CAST($2 AS text) IS NULL OR at <= CAST($2 AS text))
    AND (CAST($3 AS text) IS NULL OR username = CAST($3 AS text))
    AND (CAST($4 AS text) IS NULL OR operation = CAST($4 AS text))
    AND (CAST($5 AS text) IS NULL OR outcome = CAST($5 AS text))
    AND (CAST($6 AS text) IS NULL
      OR at < CAST($6 AS text) OR (at = CAST($6 AS text) AND id < CAST($7 AS text)))
  ORDER BY at DESC, id DESC
  LIMIT $8`;

const BY_IDENTIFIER = `SELECT ${COLUMNS} FROM lookup_audit
  WHERE identifier_hash = $1
    AND (CAST($2 AS text) IS NULL
      OR at < CAST($2 AS text) OR (at = CAST($2 AS text) AND id < CAST($3 AS text)))
  ORDER BY at DESC, id DESC
  LIMIT $4`;

function page(rows: AuditRow[], limit: number): AuditRecordPage {
  const items = rows.slice(0, limit).map(toRecord);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** The audit store over a SQL database (SQLite embedded, or PostgreSQL). */
export class SqlAuditStore implements AuditStore {
  readonly #db: () => Promise<SqlDatabase>;

  /** `db` may still be opening, or be opened on first use: the first query waits for it. */
  constructor(db: SqlDatabase | Promise<SqlDatabase> | (() => Promise<SqlDatabase>)) {
    this.#db = typeof db === 'function' ? db : () => Promise.resolve(db);
  }

  async record(entry: AuditEntry): Promise<AuditRecord> {
    const db = await this.#db();
    const row: AuditRow = {
      id: sortableId(entry.at),
      at: new Date(entry.at).toISOString(),
      username: entry.user,
      operation: entry.operation,
      outcome: entry.outcome,
      status: entry.status,
      detail: entry.detail,
      identifier_hash: entry.identifierHash,
      continued: entry.continued ? 1 : 0,
    };
    await db.query(INSERT, [
      row.id,
      row.at,
      row.username,
      row.operation,
      row.outcome,
      row.status,
      row.detail,
      row.identifier_hash,
      entry.keyId,
      row.continued,
      entry.requestId,
    ]);
    return toRecord(row);
  }

  async list(query: AuditQuery): Promise<AuditRecordPage> {
    const db = await this.#db();
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const { rows } = await db.query<AuditRow>(LIST, [
      query.since === undefined ? null : new Date(query.since).toISOString(),
      query.until === undefined ? null : new Date(query.until).toISOString(),
      query.user ?? null,
      query.operation ?? null,
      query.outcome ?? null,
      cursor ? cursor[0] : null,
      cursor ? cursor[1] : null,
      query.limit + 1,
    ]);
    return page(rows, query.limit);
  }

  async findByIdentifierHash(
    identifierHash: string,
    { limit, cursor }: { limit: number; cursor?: string },
  ): Promise<AuditRecordPage> {
    const db = await this.#db();
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    const { rows } = await db.query<AuditRow>(BY_IDENTIFIER, [
      identifierHash,
      after ? after[0] : null,
      after ? after[1] : null,
      limit + 1,
    ]);
    return page(rows, limit);
  }
}
