// The audit trail's hash chain in the database (audit-chain.ts has its hashes): appends an entry
// inside the transaction that writes what it covers, keeps the chain's head, reads the chain back
// with the records it covers for the walk (verify-chain.ts), and cuts its oldest entries off under
// a signed checkpoint when retention deletes old records. Portable SQL over the SqlDatabase
// interface (SQLite or PostgreSQL).
import * as z from 'zod';
import { chainEntryHash, signCheckpoint, type ChainCheckpoint } from './audit-chain';
import type { SqlDatabase, SqlExecutor } from '../../store/database';
import { databaseOpener, type DatabaseOrOpener } from '../../store/database-opener';
import { placeholders } from '../../store/sql-placeholders';
import { integer, parseRow, select } from '../../store/typed-rows';
import {
  CHANGE_COLUMNS,
  ChangeRowSchema,
  storedChange,
  type StoredChange,
} from './admin-change-entry';
import {
  AuditRowSchema,
  byHash,
  ShownKeyRowSchema,
  storedKey,
  toStored,
  type StoredAuditRow,
  type StoredShownKey,
} from './lookup-audit-entry';

/** Where an entry sits in the chain: its sequence number and hash. */
export interface ChainLink {
  readonly seq: number;
  readonly hash: string;
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

/** The chain's head and checkpoint. */
export interface ChainState {
  seq: number;
  hash: string;
  /** The signed checkpoint text (audit-chain.ts), when retention has cut the chain. */
  checkpoint: string | null;
  lastRetention: { at: string; deleted: number; cutoff: string } | null;
  legacyRecords: number;
}

/** What an entry covers, as its writer hands it to `append`. */
export interface ChainEntry {
  readonly at: string;
  readonly kind: ChainRow['kind'];
  readonly recordId: string | null;
  readonly payload: string;
}

// Row schemas are built once, here: zod compiles an object schema on its first parse, so one built
// inside a method pays that compile (about 0.1 ms) on every call.
const HeadRowSchema = z.object({ seq: integer, hash: z.string() });
const SeqRowSchema = z.object({ seq: integer });
const CountRowSchema = z.object({ n: integer });

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

/** The audit trail's hash chain over a SQL database (SQLite embedded, or PostgreSQL). */
export class AuditChainStore {
  readonly #db: () => Promise<SqlDatabase>;
  readonly #chainKey: Buffer;
  /**
   * The head as this store's last append left it, to append after it without reading it first.
   * A guess only: it may never have committed, or another replica may have appended since. The
   * write that uses it names it in its WHERE clause, so it takes effect only when the stored head
   * is exactly that one (seq and hash); otherwise the append reads the head as it is.
   */
  #lastHead: ChainLink | undefined;

  /** `chainKey` is deriveAuditKey(AUDIT_KEY, 'chain'). */
  constructor(db: DatabaseOrOpener, chainKey: Buffer) {
    this.#db = databaseOpener(db);
    this.#chainKey = chainKey;
  }

  /**
   * Appends one entry to the chain inside `tx`, the transaction that writes what it covers (the
   * record store's group commit, or retention's). The UPDATE comes first: it takes the head row's
   * lock (PostgreSQL) so a concurrent append waits for this transaction to commit, then reads the
   * head it left; SQLite's transactions hold the database's write lock from their start.
   */
  async append(tx: SqlExecutor, entry: ChainEntry): Promise<ChainLink> {
    // Last in its write, so the head's lock is held for two or three statements and the commit
    // (and, in a group commit, for the writes after it in the batch: store/group-commit.ts).
    const link =
      (await this.#appendAfterLastHead(tx, entry)) ?? (await this.#appendAfterHead(tx, entry));
    this.#lastHead = link;
    return link;
  }

  /**
   * Appends after the head this store last wrote, in two statements instead of three: undefined,
   * with nothing written, when the stored head is no longer that one. The UPDATE takes the head's
   * lock as the three-statement way does; on PostgreSQL, an UPDATE that waited for another
   * transaction's append finds the head changed and matches nothing.
   */
  async #appendAfterLastHead(tx: SqlExecutor, entry: ChainEntry): Promise<ChainLink | undefined> {
    const last = this.#lastHead;
    if (!last) return undefined;
    const seq = last.seq + 1;
    const hash = chainEntryHash(this.#chainKey, seq, last.hash, entry.payload);
    const { rows } = await select(
      tx,
      SeqRowSchema,
      `UPDATE audit_chain_state SET seq = $1, hash = $2
        WHERE name = 'head' AND seq = $3 AND hash = $4 RETURNING seq`,
      [seq, hash, last.seq, last.hash],
    );
    if (rows.length === 0) return undefined;
    await this.#insertEntry(tx, entry, seq, last.hash, hash);
    return { seq, hash };
  }

  /** Appends after the head as stored: takes its lock, then reads it. */
  async #appendAfterHead(tx: SqlExecutor, entry: ChainEntry): Promise<ChainLink> {
    const { rows } = await select(
      tx,
      HeadRowSchema,
      `UPDATE audit_chain_state SET seq = seq + 1 WHERE name = 'head' RETURNING seq, hash`,
    );
    const head = rows[0];
    if (!head) throw new Error('the audit chain has no head row');
    const seq = head.seq;
    const hash = chainEntryHash(this.#chainKey, seq, head.hash, entry.payload);
    await this.#insertEntry(tx, entry, seq, head.hash, hash);
    await tx.query(`UPDATE audit_chain_state SET hash = $1 WHERE name = 'head'`, [hash]);
    return { seq, hash };
  }

  async #insertEntry(
    tx: SqlExecutor,
    entry: ChainEntry,
    seq: number,
    prevHash: string,
    hash: string,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO audit_chain (seq, at, kind, record_id, payload, prev_hash, hash)
        VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [seq, entry.at, entry.kind, entry.recordId, entry.payload, prevHash, hash],
    );
  }

  /** The entry of `kind` that covers `recordId`, read inside `tx`; undefined when there is none. */
  async linkOf(
    tx: SqlExecutor,
    recordId: string,
    kind: ChainRow['kind'],
  ): Promise<ChainLink | undefined> {
    const { rows } = await select(
      tx,
      HeadRowSchema,
      'SELECT seq, hash FROM audit_chain WHERE record_id = $1 AND kind = $2',
      [recordId, kind],
    );
    return rows[0];
  }

  /** The chain entries after `afterSeq`, oldest first, with their records. */
  async readChain(afterSeq: number, limit: number): Promise<ChainRow[]> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      ChainEntryRowSchema,
      `SELECT c.seq, c.at AS entry_at, c.kind, c.record_id, c.payload, c.prev_hash, c.hash,
          a.id, a.at, a.username, a.operation, a.outcome, a.status, a.detail, a.identifier_hash,
          a.key_id, a.continued, a.request_id, a.params, a.record_count, a.subject_count,
          a.completed, a.token_name, a.purpose_category, a.purpose_reference, a.connection
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

  /** The chain's head and checkpoint. */
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

  /** Records the chain must cover but does not, and records that predate it. */
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

  /**
   * Deletes the records made before `cutoff` (epoch ms), cuts the chain's oldest entries off
   * under a checkpoint signed with the chain's key, and appends a retention entry saying so.
   */
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
      await this.append(tx, {
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
}
