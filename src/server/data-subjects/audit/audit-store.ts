// The lookup audit trail in the database: one row per data-subject lookup, written as an intent
// before anything is sent upstream and completed with its outcome after; the data subjects each
// answer showed, by keyed hash; and the hash chain that makes the trail tamper-evident. Read back
// newest first with filters, or by an identifier's keyed hashes. Portable SQL over the
// SqlDatabase interface (SQLite or PostgreSQL).
import {
  AUDIT_OUTCOMES,
  type AuditOutcome,
  type AuditParam,
  type AuditRecord,
} from '../../../shared/audit-trail';
import type { PersonKeyKind } from '../../../shared/data-subject-contract';
import type { LookupPurpose } from '../../../shared/lookup-purpose';
import { chainEntryHash, signCheckpoint, type ChainCheckpoint } from './audit-chain';
import type { SqlDatabase, SqlExecutor } from '../../store/database';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../store/keyset-cursor';
import { GroupCommit } from '../../store/group-commit';
import { placeholders } from '../../store/sql-placeholders';
import { sortableId } from '../../store/sortable-id';
import * as z from 'zod';
import { flag, integer, parseRow, select } from '../../store/typed-rows';
import type { AdministrativeChange } from '../../http/admin-change';
import {
  CHANGE_COLUMNS,
  ChangeCountSchema,
  ChangeRowSchema,
  changePayload,
  stateText,
  storedChange,
  type StoredChange,
} from './admin-change-entry';

/** What a lookup is about to do, written before anything is sent (time in epoch ms). */
export interface AuditIntentEntry {
  readonly at: number;
  readonly user: string;
  /** The token the lookup was made with (its name); absent for a signed-in person. */
  readonly tokenName?: string | null;
  readonly operation: string;
  /** HMAC of the identifier asked for (identifier-hash.ts); null when it named none. */
  readonly identifierHash: string | null;
  /** Fingerprint of the key the hashes were made with. */
  readonly keyId: string;
  readonly continued: boolean;
  readonly requestId: string | null;
  /** The parameters asked, identifiers hashed. */
  readonly params?: readonly AuditParam[];
  /** Why the person is looked up; null or absent when none was stated. */
  readonly purpose?: LookupPurpose | null;
  /**
   * The client's address, for the entry's log line and `audit.entry` alert only: the lookup's
   * rows and chain payload never held one, so it is not stored (older entries would differ).
   */
  readonly address?: string | null;
}

/** What came of a lookup. */
export interface AuditOutcomeEntry {
  readonly outcome: AuditOutcome;
  readonly status: number;
  readonly detail: string | null;
  /** Records the answer held; null when there was no answer. */
  readonly recordCount?: number | null;
  /** Keyed hashes of every identifier the answer showed (kind unknown, no links). */
  readonly shownHashes?: readonly string[];
  /** Every person key the answer showed: its keyed hash, kind and person (shown-identifiers.ts). */
  readonly shown?: readonly ShownHash[];
  /** The client's address, as on the intent (not stored). */
  readonly address?: string | null;
}

/** One person key an answer showed, as the trail keeps it. */
export interface ShownHash {
  readonly hash: string;
  readonly kind: PersonKeyKind;
  /** Keys with the same number were shown as one person in this answer. */
  readonly person: number;
}

/** A shown key as stored; kind and person are null on records made before they were kept. */
export interface StoredShownKey {
  hash: string;
  kind: string | null;
  person: number | null;
}

/** One lookup as the route hands it over in one go (nothing was sent, or tests). */
export type AuditEntry = AuditIntentEntry & AuditOutcomeEntry;

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
  readonly limit: number;
  /** From a previous page's `nextCursor`. */
  readonly cursor?: string;
}

/** One page, newest first. */
export interface AuditRecordPage {
  items: AuditRecord[];
  nextCursor: string | null;
}

/** One entry of the hash chain with the record it concerns, as the verifier reads it. */
export interface ChainRow {
  seq: number;
  entryAt: string;
  kind: 'intent' | 'outcome' | 'retention' | 'change';
  recordId: string | null;
  payload: string;
  prevHash: string;
  hash: string;
  /** The record as stored now; null when it is gone. */
  record: StoredAuditRow | null;
  /** The record's shown keys as stored now, sorted by hash. */
  subjects: StoredShownKey[];
  /** For a `change` entry: the change as stored now; null when it is gone (or another kind). */
  change?: StoredChange | null;
}

/** The administrative changes' filters; times in epoch ms. */
export interface ChangeQuery {
  readonly since?: number;
  readonly until?: number;
  /** A prefix of the person's name (or a token's owner). */
  readonly user?: string;
  /** The kind of change: the part of its action before the dot (`alert-destination`). */
  readonly kind?: string;
  readonly limit: number;
  readonly cursor?: string;
}

/** A record's columns as stored. */
export interface StoredAuditRow {
  id: string;
  at: string;
  username: string;
  operation: string;
  outcome: string;
  status: number;
  detail: string | null;
  identifierHash: string | null;
  keyId: string;
  continued: boolean;
  requestId: string | null;
  params: string | null;
  purposeCategory: string | null;
  purposeReference: string | null;
  recordCount: number | null;
  subjectCount: number;
  completed: boolean;
  tokenName: string | null;
}

/** The chain's head and checkpoint. */
export interface ChainState {
  seq: number;
  hash: string;
  /** The signed checkpoint text (audit-chain.ts), when retention has cut the chain. */
  checkpoint: string | null;
  lastRetention: { at: string; deleted: number; cutoff: string } | null;
  legacyRecords: number;
}

/** Where the audit trail is kept. */
export interface AuditStore {
  /** Writes a lookup's intent before anything is sent; resolves once it is stored. */
  begin(intent: AuditIntentEntry): Promise<AuditRecord>;
  /** Completes the intent `id` with its outcome and the subjects the answer showed. */
  complete(id: string, outcome: AuditOutcomeEntry): Promise<AuditRecord>;
  /** Writes a whole lookup (intent and outcome) at once. */
  record(entry: AuditEntry): Promise<AuditRecord>;
  /** Writes an administrative change and its chain entry in one transaction. */
  recordChange(change: AdministrativeChange): Promise<StoredChange>;
  /** One page of administrative changes, newest first. */
  listChanges(query: ChangeQuery): Promise<{ items: StoredChange[]; nextCursor: string | null }>;
  /** How many administrative changes match the filters (for the export's limit). */
  countChanges(query: Omit<ChangeQuery, 'limit' | 'cursor'>): Promise<number>;
  /** One page of the trail, newest first. */
  list(query: AuditQuery): Promise<AuditRecordPage>;
  /** How many records match the filters (for the export's limit). */
  count(query: Omit<AuditQuery, 'limit' | 'cursor'>): Promise<number>;
  /**
   * One page of the lookups that asked for, or showed, an identifier whose hash is one of
   * `identifierHashes`, newest first.
   */
  findByIdentifierHashes(
    identifierHashes: readonly string[],
    page: { limit: number; cursor?: string },
  ): Promise<AuditRecordPage>;
  /** How many records a search by these hashes finds. */
  countByIdentifierHashes(identifierHashes: readonly string[]): Promise<number>;
  /** The chain entries after `afterSeq`, oldest first, with their records. */
  readChain(afterSeq: number, limit: number): Promise<ChainRow[]>;
  /** The chain's head and checkpoint. */
  chainState(): Promise<ChainState>;
  /** Records the chain must cover but does not, and records that predate it. */
  coverage(): Promise<{ unchained: number; legacy: number; completedWithoutOutcome: number }>;
  /**
   * Deletes the records made before `cutoff` (epoch ms), cuts the chain's oldest entries off
   * under a checkpoint signed with `chainKey`, and appends a retention entry saying so.
   */
  applyRetention(cutoff: number, now: number): Promise<{ deleted: number; checkpointSeq: number }>;
  /**
   * The hashes shown as one person together with any of `hashes`, in any lookup, followed
   * `rounds` steps from one lookup's person to the next (bounded by `max`); includes `hashes`.
   * `complete` is false when a linked hash was left out because `max` was reached.
   */
  linkedHashes(
    hashes: readonly string[],
    rounds: number,
    max: number,
  ): Promise<{ hashes: string[]; complete: boolean }>;
  /**
   * For each of the records `ids`: the hash it asked for, and which of `hashes` it showed, with
   * their kinds.
   */
  matchedKeys(
    ids: readonly string[],
    hashes: readonly string[],
  ): Promise<Map<string, { asked: string | null; shown: StoredShownKey[] }>>;
}

// Row schemas are built once, here: zod compiles an object schema on its first parse, so one built
// inside a method pays that compile (about 0.1 ms) on every call.
const HeadRowSchema = z.object({ seq: integer, hash: z.string() });
const IdRowSchema = z.object({ id: z.string() });
const CountRowSchema = z.object({ n: integer });
const IdentifierHashRowSchema = z.object({ identifier_hash: z.string() });
const AskedRowSchema = z.object({ id: z.string(), identifier_hash: z.string().nullable() });

const AuditRowSchema = z.object({
  id: z.string(),
  at: z.string(),
  username: z.string(),
  operation: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
  status: integer,
  detail: z.string().nullable(),
  identifier_hash: z.string().nullable(),
  key_id: z.string(),
  continued: flag,
  request_id: z.string().nullable(),
  params: z.string().nullable(),
  purpose_category: z.string().nullable(),
  purpose_reference: z.string().nullable(),
  record_count: integer.nullable(),
  subject_count: integer,
  completed: flag,
  token_name: z.string().nullable(),
  matched_by: z.string().nullable().optional(),
});
type AuditRow = z.infer<typeof AuditRowSchema>;

function parseParams(text: string | null): AuditParam[] | undefined {
  if (text === null) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as AuditParam[]) : undefined;
  } catch {
    return undefined;
  }
}

/** What a row says happened, read the same way for the trail and for the chain walk. */
function outcomeOf(row: AuditRow) {
  return {
    operation: row.operation,
    outcome: row.outcome,
    status: row.status,
    detail: row.detail,
  };
}

/** The purpose a record states; null when none was recorded (records made before, `optional`). */
function purposeOf(row: AuditRow): LookupPurpose | null {
  return row.purpose_category !== null && row.purpose_reference !== null
    ? { category: row.purpose_category, reference: row.purpose_reference }
    : null;
}

function toRecord(row: AuditRow): AuditRecord {
  const params = parseParams(row.params);
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    user: row.username,
    ...(row.token_name === null ? {} : { token: row.token_name }),
    ...outcomeOf(row),
    identifierHashed: row.identifier_hash !== null,
    continued: row.continued,
    completed: row.completed,
    ...(params ? { params } : {}),
    purpose: purposeOf(row),
    recordCount: row.record_count,
    subjectCount: row.subject_count,
    ...(row.matched_by === 'asked' || row.matched_by === 'shown' || row.matched_by === 'both'
      ? { matchedBy: row.matched_by }
      : {}),
  };
}

function toStored(row: AuditRow): StoredAuditRow {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    username: row.username,
    ...outcomeOf(row),
    identifierHash: row.identifier_hash,
    keyId: row.key_id,
    continued: row.continued,
    requestId: row.request_id,
    params: row.params,
    purposeCategory: row.purpose_category,
    purposeReference: row.purpose_reference,
    recordCount: row.record_count,
    subjectCount: row.subject_count,
    completed: row.completed,
    tokenName: row.token_name,
  };
}

function encodeCursor(record: AuditRecord): string {
  return encodeKeysetCursor(record.at, record.id);
}

const decodeCursor = (cursor: string) => decodeKeysetCursor(cursor, 64);

const COLUMNS = `id, at, username, operation, outcome, status, detail, identifier_hash, key_id,
  continued, request_id, params, record_count, subject_count, completed, token_name,
  purpose_category, purpose_reference`;

const FILTERS = `(CAST($1 AS text) IS NULL OR at >= CAST($1 AS text))
    AND (CAST($2 AS text) IS NULL OR at <= CAST($2 AS text))
    AND (CAST($3 AS text) IS NULL OR LOWER(username) LIKE CAST($3 AS text) ESCAPE '!')
    AND (CAST($4 AS text) IS NULL OR operation = CAST($4 AS text))
    AND (CAST($5 AS text) IS NULL OR outcome = CAST($5 AS text))
    AND (CAST($6 AS text) IS NULL OR LOWER(purpose_reference) = CAST($6 AS text))
    AND (CAST($7 AS text) IS NULL OR purpose_category = CAST($7 AS text))`;

/** The administrative changes' filters ($1–$4, changeFilterParams): period, person, kind. */
const CHANGE_FILTERS = `(CAST($1 AS text) IS NULL OR at >= CAST($1 AS text))
    AND (CAST($2 AS text) IS NULL OR at <= CAST($2 AS text))
    AND (CAST($3 AS text) IS NULL OR LOWER(username) LIKE CAST($3 AS text) ESCAPE '!')
    AND (CAST($4 AS text) IS NULL OR action LIKE CAST($4 AS text) ESCAPE '!')`;

// Keyset paging on (at, id): stable while new lookups arrive at the top.
const LIST = `SELECT ${COLUMNS} FROM lookup_audit
  WHERE ${FILTERS}
    AND (CAST($8 AS text) IS NULL
      OR at < CAST($8 AS text) OR (at = CAST($8 AS text) AND id < CAST($9 AS text)))
  ORDER BY at DESC, id DESC
  LIMIT $10`;

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

/** An entry of audit_chain with its record's columns beside it (null when the record is gone). */
const ChainEntryRowSchema = z.looseObject({
  seq: integer,
  entry_at: z.string(),
  kind: z.enum(['intent', 'outcome', 'retention', 'change']),
  record_id: z.string().nullable(),
  payload: z.string(),
  prev_hash: z.string(),
  hash: z.string(),
  id: z.string().nullable(),
});

const ShownKeyRowSchema = z.object({
  audit_id: z.string(),
  identifier_hash: z.string(),
  kind: z.string().nullable(),
  person: integer.nullable(),
});
type ShownKeyRow = z.infer<typeof ShownKeyRowSchema>;

const storedKey = (row: ShownKeyRow): StoredShownKey => ({
  hash: row.identifier_hash,
  kind: row.kind,
  person: row.person,
});

const byHash = (a: StoredShownKey, b: StoredShownKey) =>
  a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0;

/**
 * The keys an outcome keeps, one per hash: kinds and persons as the answer showed them, or, for
 * callers that give bare hashes, each an identifier of its own.
 */
function shownKeys(outcome: AuditOutcomeEntry): StoredShownKey[] {
  const keys = new Map<string, StoredShownKey>();
  for (const key of outcome.shown ?? []) {
    if (!keys.has(key.hash)) keys.set(key.hash, { ...key });
  }
  let person = Math.max(-1, ...[...keys.values()].map((key) => key.person ?? -1)) + 1;
  for (const hash of outcome.shownHashes ?? []) {
    if (!keys.has(hash)) keys.set(hash, { hash, kind: 'identifier', person: person++ });
  }
  return [...keys.values()].sort(byHash);
}

/**
 * How many data subjects an answer showed: its distinct persons (keys shown as one person count
 * once); a key kept without a person (records made before persons were) counts as one.
 */
export function personCount(keys: readonly StoredShownKey[]): number {
  return new Set(keys.map((key) => (key.person === null ? `key:${key.hash}` : key.person))).size;
}

const INSERT = `INSERT INTO lookup_audit (
    id, at, username, operation, outcome, status, detail, identifier_hash, key_id, continued,
    request_id, params, record_count, subject_count, completed, chained, token_name,
    purpose_category, purpose_reference
  ) VALUES ($1, $2, $3, $4, 'error', 0, NULL, $5, $6, $7, $8, $9, NULL, 0, 0, 1, $10, $11, $12)`;

const COMPLETE = `UPDATE lookup_audit
  SET outcome = $2, status = $3, detail = $4, record_count = $5, subject_count = $6, completed = 1
  WHERE id = $1 AND completed = 0`;

function page(rows: AuditRow[], limit: number): AuditRecordPage {
  const items = rows.slice(0, limit).map(toRecord);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/**
 * The payload of a lookup's intent entry: exactly the columns it wrote. Version 2 covers the
 * purpose (null when none was stated), so it cannot be added, edited or removed afterwards;
 * version 1, written before purposes were kept, covers the rest alone.
 */
export function intentPayload(
  row: {
    id: string;
    at: string;
    username: string;
    operation: string;
    identifierHash: string | null;
    keyId: string;
    continued: boolean;
    requestId: string | null;
    params: string | null;
    tokenName: string | null;
    purposeCategory: string | null;
    purposeReference: string | null;
  },
  version: 1 | 2 = 2,
): string {
  const fields = {
    kind: 'intent',
    id: row.id,
    at: row.at,
    user: row.username,
    operation: row.operation,
    identifierHash: row.identifierHash,
    keyId: row.keyId,
    continued: row.continued,
    requestId: row.requestId,
    params: row.params,
    // Only when set: an intent written before tokens existed has the same payload as it had.
    ...(row.tokenName === null ? {} : { token: row.tokenName }),
  };
  if (version === 1) return JSON.stringify(fields);
  const purpose =
    row.purposeCategory === null && row.purposeReference === null
      ? null
      : [row.purposeCategory, row.purposeReference];
  return JSON.stringify({ ...fields, v: 2, purpose });
}

/**
 * The payload of a lookup's outcome entry: the columns it wrote and the keys it showed, sorted by
 * hash. Version 2 covers each key's kind and person (the links a search follows); version 1,
 * written before, covers the hashes alone.
 */
export function outcomePayload(
  row: {
    id: string;
    at: string;
    outcome: string;
    status: number;
    detail: string | null;
    recordCount: number | null;
    subjects: readonly StoredShownKey[];
  },
  version: 1 | 2 = 2,
): string {
  const sorted = [...row.subjects].sort(byHash);
  const fields = {
    kind: 'outcome',
    id: row.id,
    recordAt: row.at,
    outcome: row.outcome,
    status: row.status,
    detail: row.detail,
    recordCount: row.recordCount,
  };
  if (version === 1) {
    return JSON.stringify({ ...fields, subjects: sorted.map((key) => key.hash) });
  }
  return JSON.stringify({
    ...fields,
    v: 2,
    keys: sorted.map((key) => [key.hash, key.kind, key.person]),
  });
}

export interface SqlAuditStoreOptions {
  /** The chain's key (deriveAuditKey(AUDIT_KEY, 'chain')). */
  readonly chainKey: Buffer;
  /**
   * Told of each completed lookup and each change once its transaction has committed
   * (audit-stream.ts sends it out); must not throw. A lookup is told once, complete.
   */
  readonly onEntry?: (entry: AppendedEntry) => void;
}

/** Where an entry sits in the chain: its sequence number and hash. */
export interface ChainLink {
  readonly seq: number;
  readonly hash: string;
}

/** An entry as the store hands it out after writing it. */
export type AppendedEntry =
  | {
      readonly kind: 'lookup';
      readonly record: StoredAuditRow;
      /** The intent's chain entry; null when the store could not find it (should not happen). */
      readonly intent: ChainLink | null;
      readonly outcome: ChainLink;
      readonly address: string | null;
    }
  | { readonly kind: 'change'; readonly change: StoredChange; readonly link: ChainLink };

/** The audit store over a SQL database (SQLite embedded, or PostgreSQL). */
export class SqlAuditStore implements AuditStore {
  readonly #db: () => Promise<SqlDatabase>;
  readonly #chainKey: Buffer;
  readonly #onEntry: ((entry: AppendedEntry) => void) | undefined;
  /** Intents, outcomes and changes arriving together share one durable commit. */
  readonly #commits: GroupCommit;

  /** `db` may still be opening, or be opened on first use: the first query waits for it. */
  constructor(
    db: SqlDatabase | Promise<SqlDatabase> | (() => Promise<SqlDatabase>),
    options: SqlAuditStoreOptions,
  ) {
    this.#db = typeof db === 'function' ? db : () => Promise.resolve(db);
    this.#chainKey = options.chainKey;
    this.#onEntry = options.onEntry;
    this.#commits = new GroupCommit(this.#db);
  }

  /**
   * Appends one entry to the chain inside `tx`. The UPDATE comes first: it takes the head row's
   * lock (PostgreSQL) so a concurrent append waits for this transaction to commit, then reads the
   * head it left; SQLite's transactions hold the database's write lock from their start.
   */
  async #append(
    tx: SqlExecutor,
    entry: { at: string; kind: ChainRow['kind']; recordId: string | null; payload: string },
  ): Promise<ChainLink> {
    // Last in its write, so the head's lock is held for three statements and the commit (and, in
    // a group commit, for the writes after it in the batch: store/group-commit.ts).
    const { rows } = await select(
      tx,
      HeadRowSchema,
      `UPDATE audit_chain_state SET seq = seq + 1 WHERE name = 'head' RETURNING seq, hash`,
    );
    const head = rows[0];
    if (!head) throw new Error('the audit chain has no head row');
    const seq = head.seq;
    const hash = chainEntryHash(this.#chainKey, seq, head.hash, entry.payload);
    await tx.query(
      `INSERT INTO audit_chain (seq, at, kind, record_id, payload, prev_hash, hash)
        VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [seq, entry.at, entry.kind, entry.recordId, entry.payload, head.hash, hash],
    );
    await tx.query(`UPDATE audit_chain_state SET hash = $1 WHERE name = 'head'`, [hash]);
    return { seq, hash };
  }

  /** Hands a committed entry out; a listener's fault never undoes or fails the write. */
  #tell(entry: AppendedEntry): void {
    try {
      this.#onEntry?.(entry);
    } catch {
      // The entry is in the trail; its copy outside is best effort (audit-stream.ts logs its own).
    }
  }

  async #insertIntent(tx: SqlExecutor, intent: AuditIntentEntry): Promise<string> {
    const id = sortableId(intent.at);
    const at = new Date(intent.at).toISOString();
    const params = intent.params ? JSON.stringify(intent.params) : null;
    await tx.query(INSERT, [
      id,
      at,
      intent.user,
      intent.operation,
      intent.identifierHash,
      intent.keyId,
      intent.continued ? 1 : 0,
      intent.requestId,
      params,
      intent.tokenName ?? null,
      intent.purpose?.category ?? null,
      intent.purpose?.reference ?? null,
    ]);
    await this.#append(tx, {
      at,
      kind: 'intent',
      recordId: id,
      payload: intentPayload({
        id,
        at,
        username: intent.user,
        operation: intent.operation,
        identifierHash: intent.identifierHash,
        keyId: intent.keyId,
        continued: intent.continued,
        requestId: intent.requestId,
        params,
        tokenName: intent.tokenName ?? null,
        purposeCategory: intent.purpose?.category ?? null,
        purposeReference: intent.purpose?.reference ?? null,
      }),
    });
    return id;
  }

  async #complete(
    tx: SqlExecutor,
    id: string,
    outcome: AuditOutcomeEntry,
    now: number,
  ): Promise<{ row: AuditRow; intent: ChainLink | null; outcome: ChainLink }> {
    const subjects = shownKeys(outcome);
    const recordCount = outcome.recordCount ?? null;
    // Only an intent still open is completed: RETURNING tells whether there was one.
    const { rows } = await select(tx, AuditRowSchema, `${COMPLETE} RETURNING ${COLUMNS}`, [
      id,
      outcome.outcome,
      outcome.status,
      outcome.detail,
      recordCount,
      personCount(subjects),
    ]);
    const row = rows[0];
    if (!row) {
      const exists = (
        await select(tx, IdRowSchema, 'SELECT id FROM lookup_audit WHERE id = $1', [id])
      ).rows.length;
      throw new Error(
        exists ? `audit record ${id} is already complete` : `audit record ${id} does not exist`,
      );
    }
    const at = new Date(row.at).toISOString();
    // One statement per 200 hashes rather than one per hash: a listing page shows up to 50.
    for (let start = 0; start < subjects.length; start += 200) {
      const batch = subjects.slice(start, start + 200);
      await tx.query(
        `INSERT INTO lookup_audit_subjects (audit_id, identifier_hash, at, kind, person) VALUES ${batch
          .map((_, index) => `($1, $${index * 3 + 3}, $2, $${index * 3 + 4}, $${index * 3 + 5})`)
          .join(', ')}`,
        [id, at, ...batch.flatMap((key) => [key.hash, key.kind, key.person])],
      );
    }
    const intentLink = (
      await select(
        tx,
        HeadRowSchema,
        `SELECT seq, hash FROM audit_chain WHERE record_id = $1 AND kind = 'intent'`,
        [id],
      )
    ).rows[0];
    const outcomeLink = await this.#append(tx, {
      at: new Date(Math.max(now, Date.parse(at))).toISOString(),
      kind: 'outcome',
      recordId: id,
      payload: outcomePayload({
        id,
        at,
        outcome: outcome.outcome,
        status: outcome.status,
        detail: outcome.detail,
        recordCount,
        subjects,
      }),
    });
    return { row, intent: intentLink ?? null, outcome: outcomeLink };
  }

  /** Tells the listener of a lookup just completed. */
  #tellLookup(
    done: { row: AuditRow; intent: ChainLink | null; outcome: ChainLink },
    address: string | null | undefined,
  ): void {
    this.#tell({
      kind: 'lookup',
      record: toStored(done.row),
      intent: done.intent,
      outcome: done.outcome,
      address: address ?? null,
    });
  }

  async begin(intent: AuditIntentEntry): Promise<AuditRecord> {
    const id = await this.#commits.run((tx) => this.#insertIntent(tx, intent));
    // What was just written, without reading it back.
    return toRecord({
      id,
      at: new Date(intent.at).toISOString(),
      username: intent.user,
      operation: intent.operation,
      outcome: 'error',
      status: 0,
      detail: null,
      identifier_hash: intent.identifierHash,
      key_id: intent.keyId,
      continued: intent.continued,
      request_id: intent.requestId,
      params: intent.params ? JSON.stringify(intent.params) : null,
      purpose_category: intent.purpose?.category ?? null,
      purpose_reference: intent.purpose?.reference ?? null,
      record_count: null,
      subject_count: 0,
      completed: false,
      token_name: intent.tokenName ?? null,
    });
  }

  async complete(id: string, outcome: AuditOutcomeEntry, now = Date.now()): Promise<AuditRecord> {
    const done = await this.#commits.run((tx) => this.#complete(tx, id, outcome, now));
    this.#tellLookup(done, outcome.address);
    return toRecord(done.row);
  }

  async record(entry: AuditEntry): Promise<AuditRecord> {
    const done = await this.#commits.run(async (tx) => {
      const id = await this.#insertIntent(tx, entry);
      return this.#complete(tx, id, entry, entry.at);
    });
    this.#tellLookup(done, entry.address);
    return toRecord(done.row);
  }

  async recordChange(change: AdministrativeChange): Promise<StoredChange> {
    const stored: StoredChange = {
      id: sortableId(change.at),
      at: new Date(change.at).toISOString(),
      username: change.actor.user,
      tokenId: change.actor.token?.id ?? null,
      tokenName: change.actor.token?.name ?? null,
      address: change.address,
      action: change.action,
      target: change.target,
      before: stateText(change.before),
      after: stateText(change.after),
      requestId: change.requestId,
    };
    const link = await this.#commits.run(async (tx) => {
      await tx.query(
        `INSERT INTO admin_changes (${CHANGE_COLUMNS})
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          stored.id,
          stored.at,
          stored.username,
          stored.tokenId,
          stored.tokenName,
          stored.address,
          stored.action,
          stored.target,
          stored.before,
          stored.after,
          stored.requestId,
        ],
      );
      return this.#append(tx, {
        at: stored.at,
        kind: 'change',
        recordId: stored.id,
        payload: changePayload(stored),
      });
    });
    this.#tell({ kind: 'change', change: stored, link });
    return stored;
  }

  async listChanges(query: ChangeQuery) {
    const db = await this.#db();
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const { rows } = await select(
      db,
      ChangeRowSchema,
      `SELECT ${CHANGE_COLUMNS} FROM admin_changes
        WHERE ${CHANGE_FILTERS}
          AND (CAST($5 AS text) IS NULL
            OR at < CAST($5 AS text) OR (at = CAST($5 AS text) AND id < CAST($6 AS text)))
        ORDER BY at DESC, id DESC
        LIMIT $7`,
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

  async count(query: Omit<AuditQuery, 'limit' | 'cursor'>): Promise<number> {
    const db = await this.#db();
    const { rows } = await select(db, CountRowSchema, COUNT, filterParams(query));
    return rows[0]?.n ?? 0;
  }

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

  async readChain(afterSeq: number, limit: number): Promise<ChainRow[]> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      ChainEntryRowSchema,
      `SELECT c.seq, c.at AS entry_at, c.kind, c.record_id, c.payload, c.prev_hash, c.hash,
          a.id, a.at, a.username, a.operation, a.outcome, a.status, a.detail, a.identifier_hash,
          a.key_id, a.continued, a.request_id, a.params, a.record_count, a.subject_count,
          a.completed, a.token_name, a.purpose_category, a.purpose_reference
        FROM audit_chain c
          LEFT JOIN lookup_audit a ON a.id = c.record_id AND c.kind IN ('intent', 'outcome')
        WHERE c.seq > $1
        ORDER BY c.seq
        LIMIT $2`,
      [afterSeq, limit],
    );
    const ids = [...new Set(rows.map((row) => row.id).filter((id): id is string => id !== null))];
    const subjects = new Map<string, StoredShownKey[]>();
    if (ids.length > 0) {
      const found = await select(
        db,
        ShownKeyRowSchema,
        `SELECT audit_id, identifier_hash, kind, person FROM lookup_audit_subjects
          WHERE audit_id IN (${placeholders(1, ids.length)})`,
        ids,
      );
      for (const row of found.rows) {
        const list = subjects.get(row.audit_id) ?? [];
        list.push(storedKey(row));
        subjects.set(row.audit_id, list);
      }
    }
    const changeIds = rows
      .filter((row) => row.kind === 'change' && row.record_id !== null)
      .map((row) => row.record_id as string);
    const changes = new Map<string, StoredChange>();
    if (changeIds.length > 0) {
      const found = await select(
        db,
        ChangeRowSchema,
        `SELECT ${CHANGE_COLUMNS} FROM admin_changes
          WHERE id IN (${placeholders(1, changeIds.length)})`,
        changeIds,
      );
      for (const row of found.rows) changes.set(row.id, storedChange(row));
    }
    return rows.map((row) => ({
      ...(row.kind === 'change' ? { change: changes.get(row.record_id ?? '') ?? null } : {}),
      seq: row.seq,
      entryAt: row.entry_at,
      kind: row.kind,
      recordId: row.record_id,
      payload: row.payload,
      prevHash: row.prev_hash,
      hash: row.hash,
      record: row.id === null ? null : toStored(parseRow(AuditRowSchema, row, 'lookup_audit')),
      subjects: row.id === null ? [] : (subjects.get(row.id) ?? []).sort(byHash),
    }));
  }

  async chainState(): Promise<ChainState> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      z.object({
        seq: integer,
        hash: z.string(),
        checkpoint: z.string().nullable(),
        last_retention: z.string().nullable(),
        legacy_records: integer,
      }),
      `SELECT seq, hash, checkpoint, last_retention, legacy_records
        FROM audit_chain_state WHERE name = 'head'`,
    );
    const row = rows[0];
    if (!row) throw new Error('the audit chain has no head row');
    return {
      seq: row.seq,
      hash: row.hash,
      checkpoint: row.checkpoint,
      lastRetention: row.last_retention ? JSON.parse(row.last_retention) : null,
      legacyRecords: row.legacy_records,
    };
  }

  async coverage() {
    const db = await this.#db();
    const count = async (sql: string) =>
      Number((await select(db, CountRowSchema, sql)).rows[0]?.n ?? 0);
    const [unchained, unchainedChanges, legacy, completed, outcomes] = await Promise.all([
      count(`SELECT COUNT(*) AS n FROM lookup_audit a WHERE a.chained = 1 AND NOT EXISTS
        (SELECT 1 FROM audit_chain c WHERE c.record_id = a.id AND c.kind = 'intent')`),
      count(`SELECT COUNT(*) AS n FROM admin_changes a WHERE NOT EXISTS
        (SELECT 1 FROM audit_chain c WHERE c.record_id = a.id AND c.kind = 'change')`),
      count('SELECT COUNT(*) AS n FROM lookup_audit WHERE chained = 0'),
      count('SELECT COUNT(*) AS n FROM lookup_audit WHERE chained = 1 AND completed = 1'),
      count(`SELECT COUNT(*) AS n FROM audit_chain c JOIN lookup_audit a ON a.id = c.record_id
        WHERE c.kind = 'outcome'`),
    ]);
    return {
      unchained: unchained + unchainedChanges,
      legacy,
      completedWithoutOutcome: Math.max(0, completed - outcomes),
    };
  }

  async applyRetention(cutoff: number, now: number) {
    const db = await this.#db();
    const cutoffText = new Date(cutoff).toISOString();
    const nowText = new Date(now).toISOString();
    return db.transaction(async (tx) => {
      // The head's lock first: no append runs while the chain is cut.
      await tx.query(`UPDATE audit_chain_state SET seq = seq WHERE name = 'head'`);
      const state = (
        await select(
          tx,
          z.object({ seq: integer, checkpoint: z.string().nullable() }),
          `SELECT seq, checkpoint FROM audit_chain_state WHERE name = 'head'`,
        )
      ).rows[0]!;
      const count = async (sql: string, params: unknown[]) =>
        Number(
          (await select(tx, z.object({ n: integer.nullable() }), sql, params)).rows[0]?.n ?? 0,
        );
      const deleted = await count('SELECT COUNT(*) AS n FROM lookup_audit WHERE at < $1', [
        cutoffText,
      ]);
      // The longest prefix of the chain made before the cutoff: everything up to the entry
      // before the first one made at or after it.
      const firstKept = await count('SELECT MIN(seq) AS n FROM audit_chain WHERE at >= $1', [
        cutoffText,
      ]);
      const cutSeq = firstKept > 0 ? firstKept - 1 : state.seq;
      const previous = state.checkpoint ? (JSON.parse(state.checkpoint) as ChainCheckpoint) : null;
      const cutsChain = cutSeq > (previous?.seq ?? 0);
      if (deleted === 0 && !cutsChain) {
        await tx.query(`UPDATE audit_chain_state SET last_retention = $1 WHERE name = 'head'`, [
          JSON.stringify({ at: nowText, deleted: 0, cutoff: cutoffText }),
        ]);
        return { deleted: 0, checkpointSeq: previous?.seq ?? 0 };
      }
      await tx.query(
        `DELETE FROM lookup_audit_subjects WHERE audit_id IN
          (SELECT id FROM lookup_audit WHERE at < $1)`,
        [cutoffText],
      );
      await tx.query('DELETE FROM lookup_audit WHERE at < $1', [cutoffText]);
      await tx.query('DELETE FROM admin_changes WHERE at < $1', [cutoffText]);
      let checkpointSeq = previous?.seq ?? 0;
      if (cutsChain) {
        const hash = (
          await select(
            tx,
            z.object({ hash: z.string() }),
            'SELECT hash FROM audit_chain WHERE seq = $1',
            [cutSeq],
          )
        ).rows[0]?.hash;
        if (!hash) throw new Error(`the audit chain has no entry ${cutSeq} to cut at`);
        const checkpoint: ChainCheckpoint = {
          seq: cutSeq,
          hash,
          // The latest cutoff: records made before it may be missing from the kept entries.
          cutoff: cutoffText,
          at: nowText,
          deleted,
        };
        await tx.query('DELETE FROM audit_chain WHERE seq <= $1', [cutSeq]);
        await tx.query(`UPDATE audit_chain_state SET checkpoint = $1 WHERE name = 'head'`, [
          signCheckpoint(this.#chainKey, checkpoint),
        ]);
        checkpointSeq = cutSeq;
      }
      await tx.query(`UPDATE audit_chain_state SET last_retention = $1 WHERE name = 'head'`, [
        JSON.stringify({ at: nowText, deleted, cutoff: cutoffText }),
      ]);
      await this.#append(tx, {
        at: nowText,
        kind: 'retention',
        recordId: null,
        payload: JSON.stringify({
          kind: 'retention',
          at: nowText,
          cutoff: cutoffText,
          deleted,
          checkpointSeq,
        }),
      });
      return { deleted, checkpointSeq };
    });
  }

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
  ];
}
