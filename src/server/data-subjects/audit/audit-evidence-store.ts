// What the console keeps beside the audit trail, outside its hash chain: the walks of the chain
// ("verify now", the daily job), the signed checkpoints of its head, the signatures of exports,
// and the readiness probe that proves the trail's database still takes a committed write.
import * as z from 'zod';
import type { SqlDatabase } from '../../store/database';
import { databaseOpener, type DatabaseOrOpener } from '../../store/database-opener';
import { sortableId } from '../../store/sortable-id';
import { flag, integer, select } from '../../store/typed-rows';

/** What a walk of the chain found. */
export interface AuditVerification {
  at: string;
  ok: boolean;
  entries: number;
  brokenAt: number | null;
  detail: string;
  source: string;
}

/** About an intent's size, so the probe meets a full disk where an intent would. */
const PROBE_PAYLOAD = 'readiness probe '.repeat(24);

export class AuditEvidenceStore {
  readonly #db: () => Promise<SqlDatabase>;

  /** `db` may still be opening, or be opened on first use: the first query waits for it. */
  constructor(db: DatabaseOrOpener) {
    this.#db = databaseOpener(db);
  }

  async saveVerification(verification: AuditVerification): Promise<void> {
    const db = await this.#db();
    await db.query(
      `INSERT INTO audit_verifications (id, at, ok, entries, broken_at, detail, source)
        VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        sortableId(Date.parse(verification.at)),
        verification.at,
        verification.ok ? 1 : 0,
        verification.entries,
        verification.brokenAt,
        verification.detail,
        verification.source,
      ],
    );
  }

  async lastVerification(): Promise<AuditVerification | null> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      z.object({
        at: z.string(),
        ok: flag,
        entries: integer,
        broken_at: integer.nullable(),
        detail: z.string(),
        source: z.string(),
      }),
      `SELECT at, ok, entries, broken_at, detail, source FROM audit_verifications
        ORDER BY at DESC, id DESC LIMIT 1`,
    );
    const row = rows[0];
    if (!row) return null;
    return {
      at: new Date(row.at).toISOString(),
      ok: row.ok,
      entries: row.entries,
      brokenAt: row.broken_at,
      detail: row.detail,
      source: row.source,
    };
  }

  async probeWrite(now: number): Promise<void> {
    const db = await this.#db();
    // Committed, as an intent is: a rolled-back write never reaches the disk, so it passes on a
    // full one. About an intent's size, in a table of its own so that the chain never sees it;
    // removed again at once (a probe left by a crash between the two is removed by the next).
    const id = sortableId(now);
    await db.query('INSERT INTO audit_write_probes (id, at, payload) VALUES ($1, $2, $3)', [
      id,
      new Date(now).toISOString(),
      PROBE_PAYLOAD,
    ]);
    await db.query('DELETE FROM audit_write_probes WHERE id <= $1', [id]);
  }

  async saveCheckpoint(checkpoint: { seq: number; at: string; line: string }): Promise<void> {
    const db = await this.#db();
    await db.query('INSERT INTO audit_checkpoints (id, seq, at, line) VALUES ($1, $2, $3, $4)', [
      sortableId(Date.parse(checkpoint.at)),
      checkpoint.seq,
      checkpoint.at,
      checkpoint.line,
    ]);
  }

  async checkpoints(): Promise<string[]> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      z.object({ line: z.string() }),
      'SELECT line FROM audit_checkpoints ORDER BY seq, id',
    );
    return rows.map((row) => row.line);
  }

  async latestCheckpoint(): Promise<string | null> {
    const db = await this.#db();
    const { rows } = await select(
      db,
      z.object({ line: z.string() }),
      'SELECT line FROM audit_checkpoints ORDER BY seq DESC, id DESC LIMIT 1',
    );
    return rows[0]?.line ?? null;
  }

  async saveExport(id: string, at: number, user: string, signature: string | null) {
    const db = await this.#db();
    if (signature === null) {
      await db.query(
        'INSERT INTO audit_exports (id, at, username, signature) VALUES ($1, $2, $3, NULL)',
        [id, new Date(at).toISOString(), user],
      );
    } else {
      await db.query('UPDATE audit_exports SET signature = $2 WHERE id = $1', [id, signature]);
    }
  }

  async exportSignature(id: string, user: string) {
    const db = await this.#db();
    const { rows } = await select(
      db,
      z.object({ signature: z.string().nullable() }),
      'SELECT signature FROM audit_exports WHERE id = $1 AND username = $2',
      [id, user],
    );
    return rows.length === 0 ? undefined : rows[0]!.signature;
  }
}
