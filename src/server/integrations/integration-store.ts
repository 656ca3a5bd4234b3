// Integrations and their reports in the database (SQLite or PostgreSQL, portable SQL): the
// registry with hashed keys, per-minute aggregates by operation template, the 429s each
// integration received, and the retention that keeps all of it bounded.
import { timingSafeEqual } from 'node:crypto';
import { REPORT_LIMITS, type Integration } from '../../shared/integrations';
import { OTHER_TEMPLATE } from '../../shared/operation-templates';
import type { SqlDatabase } from '../store/database';
import { sortableId } from '../store/sortable-id';
import { generateReportingKey, hashReportingKey, keyHint } from './integration-keys';
import * as z from 'zod';
import { integer, select } from '../store/typed-rows';

/** A name is taken (names are unique, without regard to case). */
export class IntegrationNameTakenError extends Error {
  override name = 'IntegrationNameTakenError';
}

/** One minute of one operation, reduced and validated (report-intake.ts). */
export interface MinuteAggregate {
  readonly minute: number;
  readonly method: string;
  readonly template: string;
  readonly requests: number;
  readonly throttled: number;
}

/** One 429 an integration received, reduced and validated. */
export interface ThrottleRecord {
  readonly at: number;
  readonly incidentKey: string;
  readonly eventId: string | null;
  readonly method: string;
  readonly template: string;
  readonly period: 'MINUTE' | 'HOUR' | null;
  readonly requestsAllowed: number | null;
  readonly requestsMade: number | null;
  readonly retryAfterSeconds: number | null;
}

/** Sums of one integration's requests by template, over a time range. */
export interface TemplateTotal {
  readonly integrationId: string;
  readonly method: string;
  readonly template: string;
  readonly minute: number;
  readonly requests: number;
  readonly throttled: number;
}

/** One integration's view of one blocking occurrence. */
export interface StoredThrottle extends ThrottleRecord {
  readonly integrationId: string;
  readonly firstSeen: number;
  readonly lastSeen: number;
  readonly hits: number;
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
});
type IntegrationRow = z.infer<typeof IntegrationRowSchema>;

/** A row of integration_throttles, as read. */
const ThrottleRowSchema = z.object({
  integration_id: z.string(),
  incident_key: z.string(),
  event_id: z.string().nullable(),
  first_seen: z.string(),
  last_seen: z.string(),
  hits: integer,
  method: z.string(),
  template: z.string(),
  // As before typed rows: a period the reader does not know reads as none.
  period: z
    .string()
    .nullable()
    .transform((period) => (period === 'MINUTE' || period === 'HOUR' ? period : null)),
  requests_allowed: integer.nullable(),
  requests_made: integer.nullable(),
  retry_after_seconds: integer.nullable(),
});

const iso = (ms: number) => new Date(ms).toISOString();
const minuteOf = (ms: number) => Math.floor(ms / 60_000) * 60_000;

function toIntegration(row: IntegrationRow): Integration {
  return {
    id: row.id,
    name: row.name,
    owner: row.owner,
    status: row.revoked_at === null ? 'active' : 'revoked',
    createdAt: new Date(row.created_at).toISOString(),
    keyIssuedAt: row.key_issued_at === null ? null : new Date(row.key_issued_at).toISOString(),
    keyHint: row.key_hint,
    lastReportAt: row.last_report_at === null ? null : new Date(row.last_report_at).toISOString(),
  };
}

const COLUMNS =
  'id, name, owner, key_hash, key_hint, created_at, key_issued_at, revoked_at, last_report_at';

const UPSERT_MINUTE = `INSERT INTO integration_minutes
    (integration_id, minute, method, template, requests, throttled)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (integration_id, minute, method, template) DO UPDATE SET
    requests = integration_minutes.requests + excluded.requests,
    throttled = integration_minutes.throttled + excluded.throttled`;

const UPSERT_THROTTLE = `INSERT INTO integration_throttles
    (integration_id, incident_key, event_id, first_seen, last_seen, hits, method, template, period,
     requests_allowed, requests_made, retry_after_seconds)
  VALUES ($1, $2, $3, $4, $4, $11, $5, $6, $7, $8, $9, $10)
  ON CONFLICT (integration_id, incident_key) DO UPDATE SET
    hits = integration_throttles.hits + excluded.hits,
    first_seen = CASE WHEN excluded.first_seen < integration_throttles.first_seen
      THEN excluded.first_seen ELSE integration_throttles.first_seen END,
    last_seen = CASE WHEN excluded.last_seen > integration_throttles.last_seen
      THEN excluded.last_seen ELSE integration_throttles.last_seen END,
    requests_made = CASE WHEN excluded.requests_made IS NULL THEN integration_throttles.requests_made
      WHEN integration_throttles.requests_made IS NULL THEN excluded.requests_made
      WHEN excluded.requests_made > integration_throttles.requests_made
      THEN excluded.requests_made ELSE integration_throttles.requests_made END`;

/**
 * How long reports are gathered before one commit: at most four commits (fsyncs, which block the
 * event loop on SQLite) a second, whatever the ingest rate, at the price of a 202 up to this late.
 */
const WRITE_WINDOW_MS = 250;

/**
 * How often, at most, the reporting keys are re-read when a request presents one this process
 * does not know (a key issued by the CLI or another replica since): a flood of wrong keys costs
 * one read a second, not one per request.
 */
const KEY_REFRESH_MS = 1_000;

/** The incident key of the row that counts one integration's 429s beyond the cap in a minute. */
const aggregatedKey = (minute: number) => `aggregated-${minute / 60_000}`;

/** True when `digest` is one of `known`, comparing each in constant time and all of them. */
function holds(known: readonly Buffer[], digest: Buffer): boolean {
  let found = false;
  for (const candidate of known) {
    // No early exit: the time does not depend on where (or whether) the key is found.
    if (timingSafeEqual(candidate, digest)) found = true;
  }
  return found;
}

interface PendingReport {
  readonly integrationId: string;
  readonly minutes: readonly MinuteAggregate[];
  readonly throttles: readonly ThrottleRecord[];
  readonly at: number;
  /** 429 entries kept only as a count (beyond the distinct ones allowed in their minute). */
  aggregated: number;
}

interface Batch {
  reports: PendingReport[];
  done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const done = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  // A batch nobody awaits (cannot happen: every report awaits) must not crash the process.
  done.catch(() => undefined);
  return { reports: [], done, resolve, reject };
}

/** The integration registry and report aggregates over a SQL database. */
export class IntegrationStore {
  readonly #db: () => Promise<SqlDatabase>;
  readonly #now: () => number;

  /** `db` may still be opening: the first query waits for it. */
  constructor(db: SqlDatabase | (() => Promise<SqlDatabase>), now: () => number = Date.now) {
    this.#db = typeof db === 'function' ? db : () => Promise.resolve(db);
    this.#now = now;
  }

  /** Every integration, by name. */
  async list(): Promise<Integration[]> {
    const { rows } = await select(
      await this.#db(),
      IntegrationRowSchema,
      `SELECT ${COLUMNS} FROM integrations ORDER BY name_key`,
    );
    return rows.map(toIntegration);
  }

  async findByName(name: string): Promise<Integration | undefined> {
    const { rows } = await select(
      await this.#db(),
      IntegrationRowSchema,
      `SELECT ${COLUMNS} FROM integrations WHERE name_key = $1`,
      [name.trim().toLowerCase()],
    );
    return rows[0] ? toIntegration(rows[0]) : undefined;
  }

  async findById(id: string): Promise<Integration | undefined> {
    const { rows } = await select(
      await this.#db(),
      IntegrationRowSchema,
      `SELECT ${COLUMNS} FROM integrations WHERE id = $1`,
      [id],
    );
    return rows[0] ? toIntegration(rows[0]) : undefined;
  }

  /** Registers an integration; resolves to it and its key (the only time the key exists). */
  async register(
    name: string,
    owner: string | null,
  ): Promise<{ integration: Integration; key: string }> {
    const now = this.#now();
    const key = generateReportingKey();
    const id = sortableId(now);
    try {
      // One statement: two registrations of one name at once cannot both pass (unique index).
      await (
        await this.#db()
      ).query(
        `INSERT INTO integrations (id, name, name_key, owner, key_hash, key_hint, created_at,
           key_issued_at, revoked_at, last_report_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, NULL, NULL)`,
        [
          id,
          name.trim(),
          name.trim().toLowerCase(),
          owner,
          hashReportingKey(key),
          keyHint(key),
          iso(now),
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
       WHERE id = $1`,
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
         revoked_at = COALESCE(revoked_at, $2) WHERE id = $1`,
      [id, iso(this.#now())],
    );
    this.#keysChanged();
    return this.findById(id);
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

  /**
   * Stores one accepted report of `integrationId`, all of it or nothing; resolves once it is
   * committed. Group commit: reports arriving while a write is under way are written together in
   * the next transaction, their minute rows summed first, so a flood costs one commit (one fsync
   * on SQLite) per round instead of one per report.
   */
  storeReport(
    integrationId: string,
    minutes: readonly MinuteAggregate[],
    throttles: readonly ThrottleRecord[],
  ): Promise<{ aggregated: number }> {
    const batch = this.#pending;
    const report: PendingReport = {
      integrationId,
      minutes,
      throttles,
      at: this.#now(),
      aggregated: 0,
    };
    batch.reports.push(report);
    if (!this.#writing) {
      this.#writing = true;
      setTimeout(() => void this.#writeBatches(), WRITE_WINDOW_MS);
    }
    return batch.done.then(() => ({ aggregated: report.aggregated }));
  }

  #pending = newBatch();
  #writing = false;

  async #writeBatches(): Promise<void> {
    while (this.#pending.reports.length > 0) {
      const batch = this.#pending;
      this.#pending = newBatch();
      try {
        await this.#write(batch.reports);
        batch.resolve();
      } catch (error) {
        batch.reject(error);
      }
      if (this.#pending.reports.length > 0) {
        await new Promise((resolve) => setTimeout(resolve, WRITE_WINDOW_MS));
      }
    }
    this.#writing = false;
  }

  async #write(reports: readonly PendingReport[]): Promise<void> {
    const sums = new Map<string, [string, MinuteAggregate]>();
    const lastReport = new Map<string, number>();
    for (const report of reports) {
      lastReport.set(
        report.integrationId,
        Math.max(lastReport.get(report.integrationId) ?? 0, report.at),
      );
      for (const entry of report.minutes) {
        const minute = minuteOf(entry.minute);
        const key = `${report.integrationId}|${minute}|${entry.method}|${entry.template}`;
        const previous = sums.get(key)?.[1];
        sums.set(key, [
          report.integrationId,
          {
            ...entry,
            minute,
            requests: (previous?.requests ?? 0) + entry.requests,
            throttled: (previous?.throttled ?? 0) + entry.throttled,
          },
        ]);
      }
    }
    await (
      await this.#db()
    ).transaction(async (tx) => {
      for (const [integrationId, entry] of sums.values()) {
        await tx.query(UPSERT_MINUTE, [
          integrationId,
          iso(entry.minute),
          entry.method,
          entry.template,
          entry.requests,
          entry.throttled,
        ]);
      }
      // Distinct occurrences per integration and minute, those stored already included.
      const distinct = new Map<string, Set<string>>();
      const known = async (integrationId: string, minute: number) => {
        const slot = `${integrationId}|${minute}`;
        let keys = distinct.get(slot);
        if (!keys) {
          const { rows } = await select(
            tx,
            z.object({ incident_key: z.string() }),
            `SELECT incident_key FROM integration_throttles
             WHERE integration_id = $1 AND first_seen >= $2 AND first_seen < $3
               AND incident_key <> $4`,
            [integrationId, iso(minute), iso(minute + 60_000), aggregatedKey(minute)],
          );
          keys = new Set(rows.map((row) => row.incident_key));
          distinct.set(slot, keys);
        }
        return keys;
      };
      for (const report of reports) {
        for (const entry of report.throttles) {
          const minute = minuteOf(entry.at);
          const keys = await known(report.integrationId, minute);
          if (!keys.has(entry.incidentKey) && keys.size >= REPORT_LIMITS.maxThrottlesPerMinute) {
            // Beyond the cap: one row per integration and minute counts them, nothing else kept.
            report.aggregated += 1;
            await tx.query(UPSERT_THROTTLE, [
              report.integrationId,
              aggregatedKey(minute),
              null,
              iso(minute),
              entry.method,
              OTHER_TEMPLATE,
              null,
              null,
              null,
              null,
              1,
            ]);
            continue;
          }
          keys.add(entry.incidentKey);
          await tx.query(UPSERT_THROTTLE, [
            report.integrationId,
            entry.incidentKey,
            entry.eventId,
            iso(entry.at),
            entry.method,
            entry.template,
            entry.period,
            entry.requestsAllowed,
            entry.requestsMade,
            entry.retryAfterSeconds,
            1,
          ]);
        }
      }
      for (const [integrationId, at] of lastReport) {
        await tx.query('UPDATE integrations SET last_report_at = $2 WHERE id = $1', [
          integrationId,
          iso(at),
        ]);
      }
    });
  }

  /** Per-minute rows of every integration from `since` on (epoch ms). */
  async minutesSince(since: number): Promise<TemplateTotal[]> {
    const { rows } = await select(
      await this.#db(),
      z.object({
        integration_id: z.string(),
        minute: z.string(),
        method: z.string(),
        template: z.string(),
        requests: integer,
        throttled: integer,
      }),
      `SELECT integration_id, minute, method, template, requests, throttled
       FROM integration_minutes WHERE minute >= $1`,
      [iso(minuteOf(since))],
    );
    return rows.map((row) => ({
      integrationId: row.integration_id,
      minute: Date.parse(row.minute),
      method: row.method,
      template: row.template,
      requests: row.requests,
      throttled: row.throttled,
    }));
  }

  /** Per-minute rows of every integration with a minute in [from, to] (epoch ms). */
  async minutesBetween(from: number, to: number): Promise<TemplateTotal[]> {
    const rows = await this.minutesSince(from);
    return rows.filter((row) => row.minute <= to);
  }

  /** Every integration's 429 occurrences last seen from `since` on, newest first. */
  async throttlesSince(since: number, limit = 500): Promise<StoredThrottle[]> {
    const { rows } = await select(
      await this.#db(),
      ThrottleRowSchema,
      `SELECT integration_id, incident_key, event_id, first_seen, last_seen, hits, method,
         template, period, requests_allowed, requests_made, retry_after_seconds
       FROM integration_throttles WHERE last_seen >= $1
       ORDER BY last_seen DESC LIMIT $2`,
      [iso(since), limit],
    );
    return rows.map((row) => ({
      integrationId: row.integration_id,
      incidentKey: row.incident_key,
      eventId: row.event_id,
      at: Date.parse(row.first_seen),
      firstSeen: Date.parse(row.first_seen),
      lastSeen: Date.parse(row.last_seen),
      hits: row.hits,
      method: row.method,
      template: row.template,
      period: row.period,
      requestsAllowed: row.requests_allowed,
      requestsMade: row.requests_made,
      retryAfterSeconds: row.retry_after_seconds,
    }));
  }

  /** Deletes aggregates and 429 records older than `cutoff` (epoch ms); resolves to rows gone. */
  async prune(cutoff: number): Promise<number> {
    const before = iso(cutoff);
    const counted = async (sql: string) => {
      const { rows } = await select(await this.#db(), z.object({ n: integer }), sql, [before]);
      return rows[0]?.n ?? 0;
    };
    const total =
      (await counted('SELECT COUNT(*) AS n FROM integration_minutes WHERE minute < $1')) +
      (await counted('SELECT COUNT(*) AS n FROM integration_throttles WHERE last_seen < $1'));
    await (
      await this.#db()
    ).transaction(async (tx) => {
      await tx.query('DELETE FROM integration_minutes WHERE minute < $1', [before]);
      await tx.query('DELETE FROM integration_throttles WHERE last_seen < $1', [before]);
    });
    return total;
  }
}
