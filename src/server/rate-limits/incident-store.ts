// 429 incidents in the database: one row per blocking occurrence, written before the browser gets
// its answer, read back for the history, the live stream's replay and the blocks to restore
// after a restart. A store is one platform connection's: it writes and reads that connection's
// rows only. Portable SQL over the SqlDatabase interface (SQLite or PostgreSQL); merging
// a further hit into an incident happens in code, inside one transaction.
import type { Incident } from '../../shared/incident';
import * as z from 'zod';
import {
  RATE_LIMIT_HEADERS,
  RATE_LIMIT_PERIODS,
  type RateLimitPeriod,
} from '../../shared/rate-limits';
import type { SqlDatabase } from '../store/database';
import { databaseOpener, type DatabaseOrOpener } from '../store/database-opener';
import { decodeKeysetCursor, encodeKeysetCursor } from '../store/keyset-cursor';
import { integer, select } from '../store/typed-rows';

/** One upstream 429 as the recorder hands it over (times in epoch ms). */
export interface IncidentObservation {
  readonly key: string;
  readonly eventId: string | null;
  readonly at: number;
  readonly period: RateLimitPeriod | null;
  readonly requestsAllowed: number | null;
  readonly requestsMade: number | null;
  readonly retryAfterSeconds: number | null;
  readonly blockedUntil: number;
  readonly ruleId: string | null;
  readonly scope: 'account' | 'rule';
  readonly operation: string;
  readonly flags: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
}

/** The history's filters; times in epoch ms. */
export interface IncidentQuery {
  /** Incidents still seen at or after this time. */
  readonly since?: number;
  /** Incidents first seen at or before this time. */
  readonly until?: number;
  readonly period?: RateLimitPeriod;
  /** A rule id, or `unmatched` for incidents that matched no rule. */
  readonly rule?: string;
  readonly limit: number;
  /** From a previous page's `nextCursor`. */
  readonly cursor?: string;
}

export { InvalidCursorError } from '../store/keyset-cursor';

/** Where incidents are kept. The embedded and the PostgreSQL store both satisfy it. */
export interface IncidentStore {
  /** Creates the incident of `observation.key`, or counts one more hit of it. */
  record(observation: IncidentObservation): Promise<Incident>;
  /** One page of the history, newest first. */
  list(query: IncidentQuery): Promise<{ items: Incident[]; nextCursor: string | null }>;
  /** Incidents changed after stream id `seq`, oldest change first. */
  changesSince(seq: number, limit: number): Promise<Incident[]>;
  /** The newest stream id (0 when there is none). */
  latestSeq(): Promise<number>;
  /** Incidents whose block has not ended at `now`. */
  activeBlocks(now: number): Promise<Incident[]>;
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Resolves when the store takes a committed write (a counter row of its own), so a store that
   * refused writes (disk full, read-only) is seen to take them again without waiting for an
   * incident.
   */
  probeWrite(now: number): Promise<void>;
  /**
   * Deletes incidents last seen before `cutoff` whose block has ended (INCIDENT_RETENTION_DAYS);
   * resolves to how many went.
   */
  deleteOlderThan(cutoff: number, now: number): Promise<number>;
}

/** A row of rate_limit_incidents, as read. */
const IncidentRowSchema = z.object({
  key: z.string(),
  event_id: z.string().nullable(),
  seq: integer,
  first_seen: z.string(),
  last_seen: z.string(),
  hits: integer,
  period: z.enum(RATE_LIMIT_PERIODS).nullable(),
  requests_allowed: integer.nullable(),
  requests_made: integer.nullable(),
  retry_after_seconds: integer.nullable(),
  blocked_until: z.string(),
  rule_id: z.string().nullable(),
  scope: z.enum(['account', 'rule']),
  operation: z.string(),
  /** JSON array text. */
  flags: z.string().nullable(),
  /** JSON object text. */
  headers: z.string().nullable(),
});
type IncidentRow = z.infer<typeof IncidentRowSchema>;
const CountSchema = z.object({ count: integer });

const iso = (value: string) => new Date(value).toISOString();

/** The headers in the order of docs/rate-limit-model.md §5, then any others as received. */
function orderedHeaders(stored: IncidentRow['headers']): Record<string, string> {
  const headers: Record<string, string> = stored ? JSON.parse(stored) : {};
  const ordered: Record<string, string> = {};
  for (const name of RATE_LIMIT_HEADERS) if (name in headers) ordered[name] = headers[name]!;
  for (const [name, value] of Object.entries(headers)) ordered[name] ??= value;
  return ordered;
}

function toIncident(row: IncidentRow): Incident {
  return {
    key: row.key,
    eventId: row.event_id,
    seq: row.seq,
    firstSeen: iso(row.first_seen),
    lastSeen: iso(row.last_seen),
    hits: row.hits,
    period: row.period,
    requestsAllowed: row.requests_allowed,
    requestsMade: row.requests_made,
    retryAfterSeconds: row.retry_after_seconds,
    blockedUntil: iso(row.blocked_until),
    ruleId: row.rule_id,
    scope: row.scope,
    operation: row.operation,
    flags: row.flags ? (JSON.parse(row.flags) as string[]) : [],
    headers: orderedHeaders(row.headers),
  };
}

/** Cursor of the page after `incident`: its place in the (first_seen, key) order. */
function encodeCursor(incident: Incident): string {
  return encodeKeysetCursor(incident.firstSeen, incident.key);
}

const decodeCursor = (cursor: string) => decodeKeysetCursor(cursor, 200);

/** The NOTIFY channel a committed incident change is announced on (PostgreSQL). */
export const INCIDENT_CHANNEL = 'console_incidents';

// Taking the next stream id locks the counter's row until the transaction ends. On PostgreSQL
// that serialises record() across every replica: ids are handed out in commit order, so a reader
// that has seen id n has also seen every id below it (the live stream's replay relies on it), and
// the read-merge-write of one incident never loses a concurrent hit.
const NEXT_SEQ = `UPDATE store_counters SET value = value + 1 WHERE name = 'incident_seq'
  RETURNING value`;

const UPSERT = `
  INSERT INTO rate_limit_incidents (
    key, event_id, seq, first_seen, last_seen, hits, period, requests_allowed, requests_made,
    retry_after_seconds, blocked_until, rule_id, scope, operation, flags, headers, connection
  ) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
  ON CONFLICT (connection, key) DO UPDATE SET
    seq = excluded.seq, first_seen = excluded.first_seen, last_seen = excluded.last_seen,
    hits = excluded.hits, period = excluded.period, requests_allowed = excluded.requests_allowed,
    requests_made = excluded.requests_made, retry_after_seconds = excluded.retry_after_seconds,
    blocked_until = excluded.blocked_until, rule_id = excluded.rule_id, scope = excluded.scope,
    operation = excluded.operation, flags = excluded.flags, headers = excluded.headers
  RETURNING *`;

const earlier = (a: string, b: string) => (a <= b ? a : b);
const later = (a: string, b: string) => (a >= b ? a : b);
const larger = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.max(a, b);

/**
 * The row after one more 429 of the same occurrence: the first values seen are kept where later
 * ones may be missing, counts and the block only grow, flags accumulate.
 */
function mergedRow(existing: IncidentRow | undefined, o: IncidentObservation, seq: number) {
  const at = new Date(o.at).toISOString();
  const blockedUntil = new Date(o.blockedUntil).toISOString();
  if (!existing) {
    return [
      o.key,
      o.eventId,
      seq,
      at,
      at,
      1,
      o.period,
      o.requestsAllowed,
      o.requestsMade,
      o.retryAfterSeconds,
      blockedUntil,
      o.ruleId,
      o.scope,
      o.operation,
      JSON.stringify([...new Set(o.flags)].sort()),
      JSON.stringify(o.headers),
    ];
  }
  const flags = new Set<string>([
    ...(existing.flags ? (JSON.parse(existing.flags) as string[]) : []),
    ...o.flags,
  ]);
  return [
    existing.key,
    existing.event_id ?? o.eventId,
    seq,
    earlier(iso(existing.first_seen), at),
    later(iso(existing.last_seen), at),
    existing.hits + 1,
    existing.period ?? o.period,
    existing.requests_allowed ?? o.requestsAllowed,
    larger(existing.requests_made, o.requestsMade),
    o.retryAfterSeconds ?? existing.retry_after_seconds,
    later(iso(existing.blocked_until), blockedUntil),
    existing.rule_id ?? o.ruleId,
    existing.scope,
    existing.operation,
    JSON.stringify([...flags].sort()),
    JSON.stringify(o.headers),
  ];
}

export interface SqlIncidentStoreOptions {
  /**
   * The platform connection whose incidents the store keeps: every row it writes names it, and
   * every read is of its rows only (two accounts' blocks never hold each other). Stated by the
   * caller: DEFAULT_CONNECTION where it does not know one yet.
   */
  readonly connection: string;
}

/** The incident store over a SQL database (SQLite embedded, or PostgreSQL). */
export class SqlIncidentStore implements IncidentStore {
  readonly #db: () => Promise<SqlDatabase>;
  /** The connection whose incidents these are. */
  readonly connection: string;

  /** `db` may still be opening, or be opened on first use: the first query waits for it. */
  constructor(db: DatabaseOrOpener, options: SqlIncidentStoreOptions) {
    this.#db = databaseOpener(db);
    this.connection = options.connection;
  }

  async record(o: IncidentObservation): Promise<Incident> {
    const db = await this.#db();
    const rows = await db.transaction(async (tx) => {
      const {
        rows: [next],
      } = await select(tx, z.object({ value: integer }), NEXT_SEQ);
      const seq = next?.value ?? Number.NaN;
      const {
        rows: [existing],
      } = await select(
        tx,
        IncidentRowSchema,
        'SELECT * FROM rate_limit_incidents WHERE connection = $1 AND key = $2',
        [this.connection, o.key],
      );
      const { rows: upserted } = await select(tx, IncidentRowSchema, UPSERT, [
        ...mergedRow(existing, o, seq),
        this.connection,
      ]);
      // PostgreSQL: other replicas hear of it at commit, in commit order (incident-feed.ts).
      await tx.notify?.(INCIDENT_CHANNEL, String(seq));
      return upserted;
    });
    const row = rows[0];
    if (!row) throw new Error('incident upsert returned no row');
    return toIncident(row);
  }

  async list(query: IncidentQuery) {
    const db = await this.#db();
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const { rows: rows } = await select(
      db,
      IncidentRowSchema,
      `SELECT * FROM rate_limit_incidents
        WHERE connection = $8
          AND (CAST($1 AS text) IS NULL OR last_seen >= CAST($1 AS text))
          AND (CAST($2 AS text) IS NULL OR first_seen <= CAST($2 AS text))
          AND (CAST($3 AS text) IS NULL OR period = CAST($3 AS text))
          AND (CAST($4 AS text) IS NULL
            OR (CAST($4 AS text) = 'unmatched' AND rule_id IS NULL) OR rule_id = CAST($4 AS text))
          AND (CAST($5 AS text) IS NULL
            OR first_seen < CAST($5 AS text)
            OR (first_seen = CAST($5 AS text) AND key < CAST($6 AS text)))
        ORDER BY first_seen DESC, key DESC
        LIMIT $7`,
      [
        query.since === undefined ? null : new Date(query.since).toISOString(),
        query.until === undefined ? null : new Date(query.until).toISOString(),
        query.period ?? null,
        query.rule ?? null,
        cursor ? new Date(cursor[0]).toISOString() : null,
        cursor ? cursor[1] : null,
        query.limit + 1,
        this.connection,
      ],
    );
    const items = rows.slice(0, query.limit).map(toIncident);
    const last = items.at(-1);
    return { items, nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
  }

  async changesSince(seq: number, limit: number): Promise<Incident[]> {
    const db = await this.#db();
    const { rows: rows } = await select(
      db,
      IncidentRowSchema,
      `SELECT * FROM rate_limit_incidents WHERE connection = $3 AND seq > $1
        ORDER BY seq ASC LIMIT $2`,
      [seq, limit, this.connection],
    );
    return rows.map(toIncident);
  }

  async latestSeq(): Promise<number> {
    const db = await this.#db();
    const {
      rows: [row],
    } = await select(
      db,
      z.object({ seq: integer.nullable() }),
      'SELECT MAX(seq) AS seq FROM rate_limit_incidents WHERE connection = $1',
      [this.connection],
    );
    return row?.seq ?? 0;
  }

  async activeBlocks(now: number): Promise<Incident[]> {
    const db = await this.#db();
    const { rows: rows } = await select(
      db,
      IncidentRowSchema,
      `SELECT * FROM rate_limit_incidents WHERE connection = $2 AND blocked_until > $1
        ORDER BY blocked_until ASC`,
      [new Date(now).toISOString(), this.connection],
    );
    return rows.map(toIncident);
  }

  async ping(): Promise<void> {
    const db = await this.#db();
    await db.query('SELECT 1');
  }

  async deleteOlderThan(cutoff: number, now: number): Promise<number> {
    const db = await this.#db();
    const params = [new Date(cutoff).toISOString(), new Date(now).toISOString(), this.connection];
    const where = 'connection = $3 AND last_seen < $1 AND blocked_until < $2';
    const {
      rows: [row],
    } = await select(
      db,
      CountSchema,
      `SELECT COUNT(*) AS count FROM rate_limit_incidents WHERE ${where}`,
      params,
    );
    await db.query(`DELETE FROM rate_limit_incidents WHERE ${where}`, params);
    return row?.count ?? 0;
  }

  async probeWrite(now: number): Promise<void> {
    const db = await this.#db();
    await db.transaction((tx) =>
      tx.query(
        `INSERT INTO store_counters (name, value) VALUES ('write_probe', $1)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
        [now],
      ),
    );
  }
}
