// Integrations' reports as the console keeps them: per-minute request counts by operation
// template and the 429s they met, summed in the database (group commit: a flood of reports costs
// one commit per round, not one per report), read back for the account-wide view, and pruned at
// the end of their retention. An integration's rows name its platform connection (its key's),
// read from the registry as they are written, so a report can land in no other connection.
import * as z from 'zod';
import { REPORT_LIMITS } from '../../shared/integrations';
import { OTHER_TEMPLATE } from '../../shared/operation-templates';
import type { SqlDatabase, SqlExecutor } from '../store/database';
import { databaseOpener, type DatabaseOrOpener } from '../store/database-opener';
import { placeholders } from '../store/sql-placeholders';
import { integer, select } from '../store/typed-rows';
import { DEFAULT_CONNECTION } from '../../shared/connections';

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
  /** The platform connection the integration reports to. */
  readonly connection: string;
  readonly method: string;
  readonly template: string;
  readonly minute: number;
  readonly requests: number;
  readonly throttled: number;
}

/** One integration's view of one blocking occurrence. */
export interface StoredThrottle extends ThrottleRecord {
  readonly integrationId: string;
  /** The platform connection the integration reports to. */
  readonly connection: string;
  readonly firstSeen: number;
  readonly lastSeen: number;
  readonly hits: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const minuteOf = (ms: number) => Math.floor(ms / 60_000) * 60_000;

/** A row of integration_throttles, as read. */
const ThrottleRowSchema = z.object({
  integration_id: z.string(),
  connection: z.string(),
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

const UPSERT_MINUTE = `INSERT INTO integration_minutes
    (integration_id, minute, method, template, requests, throttled, connection)
  VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (integration_id, minute, method, template) DO UPDATE SET
    requests = integration_minutes.requests + excluded.requests,
    throttled = integration_minutes.throttled + excluded.throttled`;

const UPSERT_THROTTLE = `INSERT INTO integration_throttles
    (integration_id, incident_key, event_id, first_seen, last_seen, hits, method, template, period,
     requests_allowed, requests_made, retry_after_seconds, connection)
  VALUES ($1, $2, $3, $4, $4, $11, $5, $6, $7, $8, $9, $10, $12)
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

/** The incident key of the row that counts one integration's 429s beyond the cap in a minute. */
const aggregatedKey = (minute: number) => `aggregated-${minute / 60_000}`;

interface PendingReport {
  readonly integrationId: string;
  readonly minutes: readonly MinuteAggregate[];
  readonly throttles: readonly ThrottleRecord[];
  readonly at: number;
  /** 429 entries kept only as a count (beyond the distinct ones allowed in their minute). */
  aggregated: number;
  /** Requests not stored because their minute reached the ceiling, and those minutes. */
  readonly capped: { requests: number; minutes: Set<number> };
}

/** What the ingest answer says of a stored report. */
export interface StoredReport {
  readonly aggregated: number;
  /** Requests beyond the account's minute ceiling, not stored, and the minutes they claimed. */
  readonly capped: { readonly minutes: number; readonly requests: number };
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

/** Built once: zod compiles an object schema on its first parse (see audit-store.ts). */
const IncidentKeyRowSchema = z.object({ incident_key: z.string() });

/**
 * What else must hold every stored minute, written in the same transaction (the planning area's
 * account totals, which a replay reads): the batch's rows, summed per integration (`source`),
 * minute and template.
 */
export type AlsoRecordMinutes = (
  tx: SqlExecutor,
  rows: ReadonlyArray<MinuteAggregate & { readonly source: string; readonly connection: string }>,
) => Promise<void>;

/**
 * The most requests one source reporting to `connection` may hold in a minute (that connection's
 * account minute ceiling, from its rules in force), or undefined for no bound.
 */
export type MinuteCeiling = (connection: string) => number | undefined;

const StoredSumSchema = z.object({ n: integer });
const ConnectionRowSchema = z.object({ id: z.string(), connection: z.string() });

/**
 * Each of `ids`' platform connection as the registry has it. An id the registry does not hold
 * (reports are only taken from registered keys, so only a store used on its own meets one) is
 * counted as DEFAULT_CONNECTION's, the connection of a console configured the old way.
 */
async function integrationConnections(
  tx: SqlExecutor,
  ids: readonly string[],
): Promise<(id: string) => string> {
  const found = new Map<string, string>();
  if (ids.length > 0) {
    const { rows } = await select(
      tx,
      ConnectionRowSchema,
      `SELECT id, connection FROM integrations WHERE id IN (${placeholders(1, ids.length)})`,
      [...ids],
    );
    for (const row of rows) found.set(row.id, row.connection);
  }
  return (id) => found.get(id) ?? DEFAULT_CONNECTION;
}

/** The report aggregates of every integration. */
export class ReportAggregates {
  readonly #db: () => Promise<SqlDatabase>;
  readonly #now: () => number;
  readonly #alsoRecord: AlsoRecordMinutes | undefined;
  readonly #ceiling: MinuteCeiling;

  /** `db` may still be opening: the first query waits for it. */
  constructor(
    db: DatabaseOrOpener,
    now: () => number = Date.now,
    alsoRecord?: AlsoRecordMinutes,
    ceiling: MinuteCeiling = () => undefined,
  ) {
    this.#db = databaseOpener(db);
    this.#now = now;
    this.#alsoRecord = alsoRecord;
    this.#ceiling = ceiling;
  }

  /**
   * Stores one accepted report of `integrationId`, all of it or nothing; resolves once it is
   * committed. Group commit: reports arriving while a write is under way are written together in
   * the next transaction, their minute rows summed first, so a flood costs one commit (one fsync
   * on SQLite) per round instead of one per report. A source's requests of one minute, across
   * all its reports, are stored up to the account's minute ceiling; the rest is counted in the
   * answer (`capped`) and not stored.
   */
  storeReport(
    integrationId: string,
    minutes: readonly MinuteAggregate[],
    throttles: readonly ThrottleRecord[],
  ): Promise<StoredReport> {
    const batch = this.#pending;
    const report: PendingReport = {
      integrationId,
      minutes,
      throttles,
      at: this.#now(),
      aggregated: 0,
      capped: { requests: 0, minutes: new Set() },
    };
    batch.reports.push(report);
    if (!this.#writing) {
      this.#writing = true;
      setTimeout(() => void this.#writeBatches(), WRITE_WINDOW_MS);
    }
    return batch.done.then(() => ({
      aggregated: report.aggregated,
      capped: { minutes: report.capped.minutes.size, requests: report.capped.requests },
    }));
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

  /**
   * What each source may still add to each of its minutes in `reports` before its ceiling (its
   * connection's): the ceiling less what is stored already; no entry for a source without one.
   * Read in the writing transaction, so reports written together or one after the other are
   * bounded alike.
   */
  async #roomLeft(
    tx: SqlExecutor,
    reports: readonly PendingReport[],
    ceilingOf: (integrationId: string) => number | undefined,
  ): Promise<Map<string, number>> {
    const room = new Map<string, number>();
    for (const report of reports) {
      const ceiling = ceilingOf(report.integrationId);
      if (ceiling === undefined) continue;
      for (const entry of report.minutes) {
        const minute = minuteOf(entry.minute);
        const slot = `${report.integrationId}|${minute}`;
        if (room.has(slot)) continue;
        const { rows } = await select(
          tx,
          StoredSumSchema,
          `SELECT COALESCE(SUM(requests), 0) AS n FROM integration_minutes
           WHERE integration_id = $1 AND minute = $2`,
          [report.integrationId, iso(minute)],
        );
        room.set(slot, Math.max(0, ceiling - (rows[0]?.n ?? 0)));
      }
    }
    return room;
  }

  async #write(reports: readonly PendingReport[]): Promise<void> {
    const lastReport = new Map<string, number>();
    for (const report of reports) {
      lastReport.set(
        report.integrationId,
        Math.max(lastReport.get(report.integrationId) ?? 0, report.at),
      );
    }
    await (
      await this.#db()
    ).transaction(async (tx) => {
      const connectionOf = await integrationConnections(tx, [...lastReport.keys()]);
      // Each source is bounded by the ceiling of the connection its key reports to.
      const room = await this.#roomLeft(tx, reports, (id) => this.#ceiling(connectionOf(id)));
      const sums = new Map<string, [string, MinuteAggregate]>();
      for (const report of reports) {
        for (const entry of report.minutes) {
          const minute = minuteOf(entry.minute);
          let requests = entry.requests;
          const slot = `${report.integrationId}|${minute}`;
          const left = room.get(slot);
          if (left !== undefined && requests > left) {
            report.capped.requests += requests - left;
            report.capped.minutes.add(minute);
            requests = left;
            if (requests === 0) continue;
          }
          if (left !== undefined) room.set(slot, left - requests);
          const key = `${slot}|${entry.method}|${entry.template}`;
          const previous = sums.get(key)?.[1];
          sums.set(key, [
            report.integrationId,
            {
              ...entry,
              minute,
              requests: (previous?.requests ?? 0) + requests,
              throttled: (previous?.throttled ?? 0) + Math.min(entry.throttled, requests),
            },
          ]);
        }
      }
      for (const [integrationId, entry] of sums.values()) {
        await tx.query(UPSERT_MINUTE, [
          integrationId,
          iso(entry.minute),
          entry.method,
          entry.template,
          entry.requests,
          entry.throttled,
          connectionOf(integrationId),
        ]);
      }
      if (this.#alsoRecord) {
        await this.#alsoRecord(
          tx,
          [...sums.values()].map(([integrationId, entry]) => ({
            ...entry,
            source: integrationId,
            connection: connectionOf(integrationId),
          })),
        );
      }
      // Distinct occurrences per integration and minute, those stored already included.
      const distinct = new Map<string, Set<string>>();
      const known = async (integrationId: string, minute: number) => {
        const slot = `${integrationId}|${minute}`;
        let keys = distinct.get(slot);
        if (!keys) {
          const { rows } = await select(
            tx,
            IncidentKeyRowSchema,
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
              connectionOf(report.integrationId),
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
            connectionOf(report.integrationId),
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

  /**
   * Per-minute rows of every integration from `since` on (epoch ms); of those reporting to
   * `connection` only, when given.
   */
  async minutesSince(since: number, connection?: string): Promise<TemplateTotal[]> {
    const { rows } = await select(
      await this.#db(),
      z.object({
        integration_id: z.string(),
        connection: z.string(),
        minute: z.string(),
        method: z.string(),
        template: z.string(),
        requests: integer,
        throttled: integer,
      }),
      `SELECT integration_id, connection, minute, method, template, requests, throttled
       FROM integration_minutes
       WHERE minute >= $1 AND (CAST($2 AS text) IS NULL OR connection = CAST($2 AS text))`,
      [iso(minuteOf(since)), connection ?? null],
    );
    return rows.map((row) => ({
      integrationId: row.integration_id,
      connection: row.connection,
      minute: Date.parse(row.minute),
      method: row.method,
      template: row.template,
      requests: row.requests,
      throttled: row.throttled,
    }));
  }

  /** Per-minute rows of every integration with a minute in [from, to] (epoch ms). */
  async minutesBetween(from: number, to: number, connection?: string): Promise<TemplateTotal[]> {
    const rows = await this.minutesSince(from, connection);
    return rows.filter((row) => row.minute <= to);
  }

  /**
   * Every integration's 429 occurrences last seen from `since` on, newest first; of those
   * reporting to `connection` only, when given.
   */
  async throttlesSince(since: number, limit = 500, connection?: string): Promise<StoredThrottle[]> {
    const { rows } = await select(
      await this.#db(),
      ThrottleRowSchema,
      `SELECT integration_id, connection, incident_key, event_id, first_seen, last_seen, hits,
         method, template, period, requests_allowed, requests_made, retry_after_seconds
       FROM integration_throttles
       WHERE last_seen >= $1 AND (CAST($3 AS text) IS NULL OR connection = CAST($3 AS text))
       ORDER BY last_seen DESC LIMIT $2`,
      [iso(since), limit, connection ?? null],
    );
    return rows.map((row) => ({
      integrationId: row.integration_id,
      connection: row.connection,
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
