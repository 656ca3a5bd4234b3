// Integrations and their reports in the database (SQLite or PostgreSQL, portable SQL): the
// registry with hashed keys, per-minute aggregates by operation template, the 429s each
// integration received, and the retention that keeps all of it bounded. The registry is the
// console's; each integration reports to one platform connection, fixed at registration.
import { timingSafeEqual } from 'node:crypto';
import type { Integration } from '../../shared/integrations';
import { nameSkeleton } from '../../shared/safe-text';
import type { SqlDatabase } from '../store/database';
import { databaseOpener, type DatabaseOrOpener } from '../store/database-opener';
import { sortableId } from '../store/sortable-id';
import { generateReportingKey, hashReportingKey, keyHint } from './integration-keys';
import * as z from 'zod';
import { select } from '../store/typed-rows';

/** A name is taken (names are unique, without regard to case). */
export class IntegrationNameTakenError extends Error {
  override name = 'IntegrationNameTakenError';
}

const IntegrationRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string().nullable(),
  key_hash: z.string().nullable(),
  key_hint: z.string().nullable(),
  created_at: z.string(),
  key_issued_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_report_at: z.string().nullable(),
  connection: z.string(),
});
type IntegrationRow = z.infer<typeof IntegrationRowSchema>;

const iso = (ms: number) => new Date(ms).toISOString();

function toIntegration(row: IntegrationRow): Integration {
  return {
    id: row.id,
    name: row.name,
    owner: row.owner,
    connection: row.connection,
    status: row.revoked_at === null ? 'active' : 'revoked',
    createdAt: new Date(row.created_at).toISOString(),
    keyIssuedAt: row.key_issued_at === null ? null : new Date(row.key_issued_at).toISOString(),
    keyHint: row.key_hint,
    lastReportAt: row.last_report_at === null ? null : new Date(row.last_report_at).toISOString(),
  };
}

/** Removed integrations are kept for their history, never listed nor found. */
const LISTED = 'removed_at IS NULL';

/** "Nightly sync (removed integration)": how a removed integration's history is labelled. */
export function removedName(name: string): string {
  return `${name} (removed integration)`;
}

const COLUMNS = `id, name, owner, key_hash, key_hint, created_at, key_issued_at, revoked_at,
  last_report_at, connection`;

/**
 * How often, at most, the reporting keys are re-read when a request presents one this process
 * does not know (a key issued by the CLI or another replica since): a flood of wrong keys costs
 * one read a second, not one per request.
 */
const KEY_REFRESH_MS = 1_000;

/** True when `digest` is one of `known`, comparing each in constant time and all of them. */
function holds(known: readonly Buffer[], digest: Buffer): boolean {
  let found = false;
  for (const candidate of known) {
    // No early exit: the time does not depend on where (or whether) the key is found.
    if (timingSafeEqual(candidate, digest)) found = true;
  }
  return found;
}

/** The integration registry (names, owners, reporting keys) over a SQL database. */
export class IntegrationStore {
  readonly #db: () => Promise<SqlDatabase>;
  readonly #now: () => number;

  /** `db` may still be opening: the first query waits for it. */
  constructor(db: DatabaseOrOpener, now: () => number = Date.now) {
    this.#db = databaseOpener(db);
    this.#now = now;
  }

  /** Every integration not removed, by name; those of `connection` only, when given. */
  async list(filter: { readonly connection?: string } = {}): Promise<Integration[]> {
    const { rows } = await select(
      await this.#db(),
      IntegrationRowSchema,
      `SELECT ${COLUMNS} FROM integrations
       WHERE ${LISTED} AND (CAST($1 AS text) IS NULL OR connection = CAST($1 AS text))
       ORDER BY name_key`,
      [filter.connection ?? null],
    );
    return rows.map(toIntegration);
  }

  /**
   * The name of every integration that ever reported, by id, a removed one's marked as such: its
   * recorded minutes stay in replays and the account-wide view, under a name people recognise.
   */
  async names(): Promise<Map<string, string>> {
    const { rows } = await select(
      await this.#db(),
      z.object({ id: z.string(), name: z.string(), removed_at: z.string().nullable() }),
      // Active and revoked first, in the list's order; removed ones after them.
      `SELECT id, name, removed_at FROM integrations
       ORDER BY CASE WHEN removed_at IS NULL THEN 0 ELSE 1 END, name_key`,
    );
    return new Map(
      rows.map((row) => [row.id, row.removed_at === null ? row.name : removedName(row.name)]),
    );
  }

  async findByName(name: string): Promise<Integration | undefined> {
    const { rows } = await select(
      await this.#db(),
      IntegrationRowSchema,
      `SELECT ${COLUMNS} FROM integrations WHERE name_key = $1 AND ${LISTED}`,
      [name.trim().toLowerCase()],
    );
    return rows[0] ? toIntegration(rows[0]) : undefined;
  }

  async findById(id: string): Promise<Integration | undefined> {
    const { rows } = await select(
      await this.#db(),
      IntegrationRowSchema,
      `SELECT ${COLUMNS} FROM integrations WHERE id = $1 AND ${LISTED}`,
      [id],
    );
    return rows[0] ? toIntegration(rows[0]) : undefined;
  }

  /**
   * Registers an integration reporting to `connection` (for good: its key and its minutes are
   * that connection's); resolves to it and its key (the only time the key exists). Names are
   * unique across connections: a name tells one integration apart on every page and in the log.
   */
  async register(
    name: string,
    owner: string | null,
    connection: string,
  ): Promise<{ integration: Integration; key: string }> {
    const now = this.#now();
    // A name that reads like one registered (lookalike letters, full-width forms, other spacing)
    // would pass for it on every page. Checked here, against the few names there are; the unique
    // index below still settles two registrations of the very same name at once.
    const skeleton = nameSkeleton(name);
    const alike = (await this.list()).find((item) => nameSkeleton(item.name) === skeleton);
    if (alike && alike.name.toLowerCase() !== name.trim().toLowerCase()) {
      throw new IntegrationNameTakenError(
        `"${name.trim()}" reads like the existing integration "${alike.name}"`,
      );
    }
    const key = generateReportingKey();
    const id = sortableId(now);
    try {
      // One statement: two registrations of one name at once cannot both pass (unique index).
      await (
        await this.#db()
      ).query(
        `INSERT INTO integrations (id, name, name_key, owner, key_hash, key_hint, created_at,
           key_issued_at, revoked_at, last_report_at, connection)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, NULL, NULL, $8)`,
        [
          id,
          name.trim(),
          name.trim().toLowerCase(),
          owner,
          hashReportingKey(key),
          keyHint(key),
          iso(now),
          connection,
        ],
      );
    } catch (error) {
      if (/unique|duplicate/i.test((error as Error).message)) {
        throw new IntegrationNameTakenError(`An integration named "${name.trim()}" exists`);
      }
      throw error;
    }
    this.#keysChanged();
    const integration = await this.findById(id);
    if (!integration) throw new Error('the registered integration was not found');
    return { integration, key };
  }

  /** Issues a new key (the old one stops working at once); reinstates a revoked integration. */
  async rotate(id: string): Promise<{ integration: Integration; key: string } | undefined> {
    const key = generateReportingKey();
    await (
      await this.#db()
    ).query(
      `UPDATE integrations SET key_hash = $2, key_hint = $3, key_issued_at = $4, revoked_at = NULL
       WHERE id = $1 AND ${LISTED}`,
      [id, hashReportingKey(key), keyHint(key), iso(this.#now())],
    );
    this.#keysChanged();
    const integration = await this.findById(id);
    return integration ? { integration, key } : undefined;
  }

  /** Revokes the key: its reports are refused from now on; what it reported stays. */
  async revoke(id: string): Promise<Integration | undefined> {
    await (
      await this.#db()
    ).query(
      `UPDATE integrations SET key_hash = NULL, key_hint = NULL,
         revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 AND ${LISTED}`,
      [id, iso(this.#now())],
    );
    this.#keysChanged();
    return this.findById(id);
  }

  /**
   * Takes a revoked integration off the list. Its row stays (removed_at set, key already gone)
   * so what it reported keeps its name; its name is free to register again. Resolves to the
   * integration removed, `'active'` for one still active (revoke it first), or undefined.
   */
  async remove(id: string): Promise<Integration | 'active' | undefined> {
    const { rows } = await select(
      await this.#db(),
      IntegrationRowSchema,
      // One statement: a rotation at the same moment (which reinstates it) cannot slip between
      // the check that it is revoked and its removal.
      `UPDATE integrations SET removed_at = $2, name_key = $3, key_hash = NULL, key_hint = NULL
       WHERE id = $1 AND revoked_at IS NOT NULL AND ${LISTED} RETURNING ${COLUMNS}`,
      [id, iso(this.#now()), `removed:${id}`],
    );
    if (rows[0]) {
      this.#keysChanged();
      return toIntegration(rows[0]);
    }
    return (await this.findById(id)) ? 'active' : undefined;
  }

  /** The hashes of every active key, as last read; undefined until read or after a change. */
  #keys: { hashes: Buffer[]; at: number } | undefined;
  #keysLoading: Promise<Buffer[]> | undefined;

  #loadKeys(): Promise<Buffer[]> {
    this.#keysLoading ??= (async () => {
      try {
        const at = this.#now();
        const { rows } = await select(
          await this.#db(),
          z.object({ key_hash: z.string() }),
          'SELECT key_hash FROM integrations WHERE key_hash IS NOT NULL AND revoked_at IS NULL',
        );
        const hashes = rows.map((row) => Buffer.from(row.key_hash, 'hex'));
        this.#keys = { hashes, at };
        return hashes;
      } finally {
        this.#keysLoading = undefined;
      }
    })();
    return this.#keysLoading;
  }

  /**
   * Whether `hash` may be an active key, without a database read for a key this process knows is
   * wrong: the active hashes are held in memory and compared in constant time; an unknown one
   * re-reads them at most once a second (it may have been issued elsewhere since).
   */
  async #mayBeActive(hash: string): Promise<boolean> {
    const digest = Buffer.from(hash, 'hex');
    const keys = this.#keys;
    if (keys && holds(keys.hashes, digest)) return true;
    if (keys && this.#now() - keys.at < KEY_REFRESH_MS && this.#now() >= keys.at) return false;
    return holds(await this.#loadKeys(), digest);
  }

  /** Forget the held key hashes (after a registration, rotation or revocation here). */
  #keysChanged(): void {
    this.#keys = undefined;
  }

  /**
   * The active integration holding `key`, if any. A key held in memory is still confirmed by the
   * database, so a revocation anywhere takes effect at once; a wrong key costs no read.
   */
  async authenticate(key: string): Promise<Integration | undefined> {
    if (!(await this.#mayBeActive(hashReportingKey(key)))) return undefined;
    const { rows } = await select(
      await this.#db(),
      IntegrationRowSchema,
      `SELECT ${COLUMNS} FROM integrations WHERE key_hash = $1 AND revoked_at IS NULL`,
      [hashReportingKey(key)],
    );
    return rows[0] ? toIntegration(rows[0]) : undefined;
  }
}
