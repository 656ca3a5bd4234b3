// The audit trail read back, never written: the audit page's and the exports' lookups, newest
// first with filters and keyset paging; the lookups that asked for or showed an identifier, by its
// keyed hashes, and the keys linked to it as one person (person-search.ts follows them); the
// administrative changes, with their own filters. Portable SQL over the SqlDatabase interface.
import * as z from 'zod';
import type { AuditOutcome, AuditRecord } from '../../../shared/audit-trail';
import type { SqlDatabase } from '../../store/database';
import { databaseOpener, type DatabaseOrOpener } from '../../store/database-opener';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../store/keyset-cursor';
import { placeholders } from '../../store/sql-placeholders';
import { integer, select } from '../../store/typed-rows';
import {
  CHANGE_COLUMNS,
  ChangeCountSchema,
  ChangeRowSchema,
  storedChange,
} from './admin-change-entry';
import {
  AuditRowSchema,
  COLUMNS,
  ShownKeyRowSchema,
  storedKey,
  toRecord,
  type AuditRow,
  type StoredShownKey,
} from './lookup-audit-entry';

/** The trail's filters; times in epoch ms. */
export interface AuditQuery {
  readonly since?: number;
  readonly until?: number;
  readonly user?: string;
  readonly operation?: string;
  readonly outcome?: AuditOutcome;
  /** The purpose's reference, exactly (case-insensitive): "everything under DSAR-2291". */
  readonly reference?: string;
  /** The purpose's category. */
  readonly category?: string;
  /** One platform connection's lookups only; every connection's when absent. */
  readonly connection?: string;
  readonly limit: number;
  /** From a previous page's `nextCursor`. */
  readonly cursor?: string;
}

/** One page, newest first. */
export interface AuditRecordPage {
  items: AuditRecord[];
  nextCursor: string | null;
}

/** The administrative changes' filters; times in epoch ms. */
export interface ChangeQuery {
  readonly since?: number;
  readonly until?: number;
  /** A prefix of the person's name (or a token's owner). */
  readonly user?: string;
  /** The kind of change: the part of its action before the dot (`alert-destination`). */
  readonly kind?: string;
  /** One platform connection's changes only; every connection's when absent. */
  readonly connection?: string;
  readonly limit: number;
  readonly cursor?: string;
}

// Row schemas are built once, here: zod compiles an object schema on its first parse, so one built
// inside a method pays that compile (about 0.1 ms) on every call.
const CountRowSchema = z.object({ n: integer });
const IdentifierHashRowSchema = z.object({ identifier_hash: z.string() });
const AskedRowSchema = z.object({ id: z.string(), identifier_hash: z.string().nullable() });

function encodeCursor(record: AuditRecord): string {
  return encodeKeysetCursor(record.at, record.id);
}

const decodeCursor = (cursor: string) => decodeKeysetCursor(cursor, 64);

const FILTERS = `(CAST($1 AS text) IS NULL OR at >= CAST($1 AS text))
    AND (CAST($2 AS text) IS NULL OR at <= CAST($2 AS text))
    AND (CAST($3 AS text) IS NULL OR LOWER(username) LIKE CAST($3 AS text) ESCAPE '!')
    AND (CAST($4 AS text) IS NULL OR operation = CAST($4 AS text))
    AND (CAST($5 AS text) IS NULL OR outcome = CAST($5 AS text))
    AND (CAST($6 AS text) IS NULL OR LOWER(purpose_reference) = CAST($6 AS text))
    AND (CAST($7 AS text) IS NULL OR purpose_category = CAST($7 AS text))
    AND (CAST($8 AS text) IS NULL OR connection = CAST($8 AS text))`;

/**
 * The administrative changes' filters ($1–$5, changeFilterParams): period, person, kind,
 * connection.
 */
const CHANGE_FILTERS = `(CAST($1 AS text) IS NULL OR at >= CAST($1 AS text))
    AND (CAST($2 AS text) IS NULL OR at <= CAST($2 AS text))
    AND (CAST($3 AS text) IS NULL OR LOWER(username) LIKE CAST($3 AS text) ESCAPE '!')
    AND (CAST($4 AS text) IS NULL OR action LIKE CAST($4 AS text) ESCAPE '!')
    AND (CAST($5 AS text) IS NULL OR connection = CAST($5 AS text))`;

// Keyset paging on (at, id): stable while new lookups arrive at the top.
const LIST = `SELECT ${COLUMNS} FROM lookup_audit
  WHERE ${FILTERS}
    AND (CAST($9 AS text) IS NULL
      OR at < CAST($9 AS text) OR (at = CAST($9 AS text) AND id < CAST($10 AS text)))
  ORDER BY at DESC, id DESC
  LIMIT $11`;

const COUNT = `SELECT COUNT(*) AS n FROM lookup_audit WHERE ${FILTERS}`;

/**
 * The records that asked for one of the hashes, or showed one. Hashes come first as parameters
 * ($1…$n), then the cursor and the limit.
 */
function byIdentifierSql(hashes: number): string {
  const list = placeholders(1, hashes);
  const after = hashes + 1;
  return `SELECT ${COLUMNS},
      CASE
        WHEN identifier_hash IN (${list}) AND EXISTS (SELECT 1 FROM lookup_audit_subjects s
          WHERE s.audit_id = lookup_audit.id AND s.identifier_hash IN (${list})) THEN 'both'
        WHEN identifier_hash IN (${list}) THEN 'asked'
        ELSE 'shown'
      END AS matched_by
    FROM lookup_audit
    WHERE (identifier_hash IN (${list})
        OR id IN (SELECT audit_id FROM lookup_audit_subjects WHERE identifier_hash IN (${list})))
      AND (CAST($${after} AS text) IS NULL
        OR at < CAST($${after} AS text)
        OR (at = CAST($${after} AS text) AND id < CAST($${after + 1} AS text)))
    ORDER BY at DESC, id DESC
    LIMIT $${after + 2}`;
}

function countByIdentifierSql(hashes: number): string {
  const list = placeholders(1, hashes);
  return `SELECT COUNT(*) AS n FROM lookup_audit
    WHERE identifier_hash IN (${list})
      OR id IN (SELECT audit_id FROM lookup_audit_subjects WHERE identifier_hash IN (${list}))`;
}

function page(rows: AuditRow[], limit: number): AuditRecordPage {
  const items = rows.slice(0, limit).map(toRecord);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** The trail's searches over a SQL database (SQLite embedded, or PostgreSQL); reads only. */
export class AuditSearch {
  readonly #db: () => Promise<SqlDatabase>;

  constructor(db: DatabaseOrOpener) {
    this.#db = databaseOpener(db);
  }

  /** One page of administrative changes, newest first. */
  async listChanges(query: ChangeQuery) {
    const db = await this.#db();
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const { rows } = await select(
      db,
      ChangeRowSchema,
      `SELECT ${CHANGE_COLUMNS} FROM admin_changes
        WHERE ${CHANGE_FILTERS}
          AND (CAST($6 AS text) IS NULL
            OR at < CAST($6 AS text) OR (at = CAST($6 AS text) AND id < CAST($7 AS text)))
        ORDER BY at DESC, id DESC
        LIMIT $8`,
      [
        ...changeFilterParams(query),
        cursor ? cursor[0] : null,
        cursor ? cursor[1] : null,
        query.limit + 1,
      ],
    );
    const items = rows.slice(0, query.limit).map(storedChange);
    const last = items.at(-1);
    return {
      items,
      nextCursor: rows.length > query.limit && last ? encodeKeysetCursor(last.at, last.id) : null,
    };
  }

  /** How many administrative changes match the filters (for the export's limit). */
  async countChanges(query: Omit<ChangeQuery, 'limit' | 'cursor'>): Promise<number> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      ChangeCountSchema,
      `SELECT COUNT(*) AS n FROM admin_changes WHERE ${CHANGE_FILTERS}`,
      changeFilterParams(query),
    );
    return rows[0]?.n ?? 0;
  }

  /** One page of the trail, newest first. */
  async list(query: AuditQuery): Promise<AuditRecordPage> {
    const db = await this.#db();
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const { rows } = await select(db, AuditRowSchema, LIST, [
      ...filterParams(query),
      cursor ? cursor[0] : null,
      cursor ? cursor[1] : null,
      query.limit + 1,
    ]);
    return page(rows, query.limit);
  }

  /** How many records match the filters (for the export's limit). */
  async count(query: Omit<AuditQuery, 'limit' | 'cursor'>): Promise<number> {
    const db = await this.#db();
    const { rows } = await select(db, CountRowSchema, COUNT, filterParams(query));
    return rows[0]?.n ?? 0;
  }

  /**
   * One page of the lookups that asked for, or showed, an identifier whose hash is one of
   * `identifierHashes`, newest first, in every platform connection (each record names its own):
   * "who saw this person" is asked of the person, whichever account they were seen through.
   */
  async findByIdentifierHashes(
    identifierHashes: readonly string[],
    { limit, cursor }: { limit: number; cursor?: string },
  ): Promise<AuditRecordPage> {
    const db = await this.#db();
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    const { rows } = await select(db, AuditRowSchema, byIdentifierSql(identifierHashes.length), [
      ...identifierHashes,
      after ? after[0] : null,
      after ? after[1] : null,
      limit + 1,
    ]);
    return page(rows, limit);
  }

  /** How many records a search by these hashes finds. */
  async countByIdentifierHashes(identifierHashes: readonly string[]): Promise<number> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      CountRowSchema,
      countByIdentifierSql(identifierHashes.length),
      [...identifierHashes],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * The hashes shown as one person together with any of `hashes`, in any lookup, followed
   * `rounds` steps from one lookup's person to the next (bounded by `max`); includes `hashes`.
   * `complete` is false when a linked hash was left out because `max` was reached.
   */
  async linkedHashes(hashes: readonly string[], rounds: number, max: number) {
    const db = await this.#db();
    const found = new Set(hashes);
    let complete = true;
    let frontier = [...found];
    // A round runs even once `max` is reached, so a hash it would add marks the search incomplete.
    for (let round = 0; round < rounds && frontier.length > 0; round += 1) {
      const { rows } = await select(
        db,
        IdentifierHashRowSchema,
        `SELECT DISTINCT b.identifier_hash FROM lookup_audit_subjects a
          JOIN lookup_audit_subjects b ON b.audit_id = a.audit_id AND b.person = a.person
          WHERE a.person IS NOT NULL AND a.identifier_hash IN (${placeholders(1, frontier.length)})`,
        frontier,
      );
      frontier = [];
      for (const { identifier_hash: hash } of rows) {
        if (found.has(hash)) continue;
        if (found.size >= max) {
          complete = false;
          break;
        }
        found.add(hash);
        frontier.push(hash);
      }
    }
    return { hashes: [...found], complete };
  }

  /**
   * For each of the records `ids`: the hash it asked for, and which of `hashes` it showed, with
   * their kinds.
   */
  async matchedKeys(ids: readonly string[], hashes: readonly string[]) {
    const matched = new Map<string, { asked: string | null; shown: StoredShownKey[] }>();
    if (ids.length === 0) return matched;
    const db = await this.#db();
    const asked = await select(
      db,
      AskedRowSchema,
      `SELECT id, identifier_hash FROM lookup_audit WHERE id IN (${placeholders(1, ids.length)})`,
      [...ids],
    );
    for (const row of asked.rows) matched.set(row.id, { asked: row.identifier_hash, shown: [] });
    if (hashes.length === 0) return matched;
    const { rows } = await select(
      db,
      ShownKeyRowSchema,
      `SELECT audit_id, identifier_hash, kind, person FROM lookup_audit_subjects
        WHERE audit_id IN (${placeholders(1, ids.length)})
          AND identifier_hash IN (${placeholders(ids.length + 1, hashes.length)})`,
      [...ids, ...hashes],
    );
    for (const row of rows) matched.get(row.audit_id)?.shown.push(storedKey(row));
    return matched;
  }
}

/**
 * The user filter matches a prefix ("al" finds alice and alan), without regard to case on both
 * engines (SQLite's LIKE ignores ASCII case, PostgreSQL's does not, so both sides are lowered).
 * The typed `%` and `_` are literals: `!` escapes them, a character both engines accept as ESCAPE
 * without the backslash quoting rules that differ between them.
 */
function userPrefixPattern(user: string): string {
  return `${user.toLowerCase().replace(/[!%_]/g, '!$&')}%`;
}

function changeFilterParams(query: Omit<ChangeQuery, 'limit' | 'cursor'>): unknown[] {
  return [
    query.since === undefined ? null : new Date(query.since).toISOString(),
    query.until === undefined ? null : new Date(query.until).toISOString(),
    query.user ? userPrefixPattern(query.user) : null,
    query.kind ? `${query.kind.replace(/[!%_]/g, '!$&')}.%` : null,
    query.connection ?? null,
  ];
}

function filterParams(query: Omit<AuditQuery, 'limit' | 'cursor'>): unknown[] {
  return [
    query.since === undefined ? null : new Date(query.since).toISOString(),
    query.until === undefined ? null : new Date(query.until).toISOString(),
    query.user ? userPrefixPattern(query.user) : null,
    query.operation ?? null,
    query.outcome ?? null,
    query.reference ? query.reference.trim().toLowerCase() : null,
    query.category ?? null,
    query.connection ?? null,
  ];
}
