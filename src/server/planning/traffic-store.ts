// The account's recorded traffic as the planning area reads it: account_minutes (every request
// of the account per minute and operation template: the console's and each integration's, added
// in the transactions that store them) for the replay, and the per-source rows (the console's
// console_minutes, each integration's reported minutes through the port the composition root
// fills in) for who would have drawn a refusal and for the migration report. Reads aggregate in
// SQL, so a week of 50 integrations comes back as a few thousand rows. A store is one platform
// connection's: two accounts' minutes are summed apart and read apart.
import * as z from 'zod';
import type { SqlDatabase, SqlExecutor } from '../store/database';
import { endpointTest, minuteWeights, placeholders } from '../store/sql-placeholders';
import { integer, select } from '../store/typed-rows';

const iso = (ms: number) => new Date(ms).toISOString();

/** One minute's requests of one operation template. */
export interface TrafficRow {
  readonly minute: number;
  readonly method: string;
  readonly template: string;
  readonly requests: number;
  readonly throttled: number;
}

/** One source's requests of one template in one minute. */
export interface SourceRow extends TrafficRow {
  /** An integration's id, or {@link CONSOLE_SOURCE}. */
  readonly source: string;
}

/** The source id of the console's own requests. */
export const CONSOLE_SOURCE = 'console';

type Endpoint = { readonly method: string; readonly template: string };

/**
 * What the planning area reads of the integrations' reports (the integrations area's tables,
 * which only its SQL names): filled in by compose.ts in the console, and by the replay thread's
 * entry on the connection that thread opens. Each integration is a `source` by its id. Each
 * minute listed is a statement parameter: a few hundred at a time.
 */
export interface ReportedMinutes {
  /** Each integration's rows (per minute and template) in `minutes`. */
  rowsIn(minutes: readonly number[]): Promise<SourceRow[]>;
  /**
   * For each integration: its requests of `endpoints` in the minutes of `weights`, each minute's
   * multiplied by its weight and summed (`weighted`), and as they are (`requests`).
   */
  weightedSums(
    weights: ReadonlyArray<readonly [minute: number, weight: number]>,
    endpoints: readonly Endpoint[],
  ): Promise<ReadonlyArray<{ source: string; weighted: number; requests: number }>>;
  /**
   * Each integration's minutes in [from, to] holding `ceiling` requests or more (every template,
   * 429s included): the minutes set aside as implausible, oldest first.
   */
  minutesAtCeiling(
    from: number,
    to: number,
    ceiling: number,
  ): Promise<ReadonlyArray<{ source: string; minute: number; reported: number }>>;
  /**
   * Each integration's calls of `endpoints` per UTC day (`YYYY-MM-DD`) in [from, to], its minutes
   * at `ceiling` or above left out.
   */
  dailyCalls(
    from: number,
    to: number,
    endpoints: readonly Endpoint[],
    ceiling: number,
  ): Promise<ReadonlyArray<DailyCalls>>;
}

/** One source's calls of one template on one day. */
export interface DailyCalls {
  readonly source: string;
  readonly day: string;
  readonly method: string;
  readonly template: string;
  readonly calls: number;
}

/** Adds one minute's counts to `table` (account_minutes or console_minutes), summing on a clash. */
const upsertInto = (table: 'account_minutes' | 'console_minutes') =>
  `INSERT INTO ${table} (minute, method, template, requests, throttled, connection)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (connection, minute, method, template) DO UPDATE SET
    requests = ${table}.requests + excluded.requests,
    throttled = ${table}.throttled + excluded.throttled`;
const UPSERT_ACCOUNT = upsertInto('account_minutes');
const UPSERT_CONSOLE = upsertInto('console_minutes');

const UPSERT_SOURCE = `INSERT INTO source_minutes (minute, source, requests, connection)
  VALUES ($1, $2, $3, $4)
  ON CONFLICT (connection, minute, source) DO UPDATE SET
    requests = source_minutes.requests + excluded.requests`;

/** A source's row of one platform connection's account. */
export interface ConnectionSourceRow extends SourceRow {
  readonly connection: string;
}

/**
 * Adds `rows` to their accounts' totals (per connection, minute and template, and per
 * connection, minute and source), inside the caller's transaction.
 */
export async function addToAccountTraffic(
  tx: SqlExecutor,
  rows: readonly ConnectionSourceRow[],
): Promise<void> {
  const account = new Map<string, TrafficRow & { connection: string }>();
  const bySource = new Map<
    string,
    { connection: string; minute: number; source: string; requests: number }
  >();
  for (const row of rows) {
    const key = `${row.connection}|${row.minute}|${row.method}|${row.template}`;
    const sum = account.get(key);
    account.set(key, {
      connection: row.connection,
      minute: row.minute,
      method: row.method,
      template: row.template,
      requests: (sum?.requests ?? 0) + row.requests,
      throttled: (sum?.throttled ?? 0) + row.throttled,
    });
    const slot = `${row.connection}|${row.minute}|${row.source}`;
    const own = bySource.get(slot);
    bySource.set(slot, {
      connection: row.connection,
      minute: row.minute,
      source: row.source,
      requests: (own?.requests ?? 0) + row.requests,
    });
  }
  for (const row of account.values()) {
    await tx.query(UPSERT_ACCOUNT, [
      iso(row.minute),
      row.method,
      row.template,
      row.requests,
      row.throttled,
      row.connection,
    ]);
  }
  for (const row of bySource.values()) {
    await tx.query(UPSERT_SOURCE, [iso(row.minute), row.source, row.requests, row.connection]);
  }
}

/** One minute: every request, the busiest endpoint's, and each group's (in the order asked). */
export interface MinuteTotals {
  readonly minute: number;
  readonly total: number;
  readonly peak: number;
  readonly groups: readonly number[];
}

const TrafficRowSchema = z.object({
  minute: z.string(),
  method: z.string(),
  template: z.string(),
  requests: integer,
  throttled: integer,
});
const toRow = (row: z.output<typeof TrafficRowSchema>): TrafficRow => ({
  ...row,
  minute: Date.parse(row.minute),
});

/** Minutes asked for at once by the per-source reads. */
const MINUTES_PER_READ = 200;

export interface TrafficStoreOptions {
  /**
   * The platform connection whose traffic the store keeps and reads (DEFAULT_CONNECTION where the
   * caller does not know one yet); `reported` must read that connection's integrations.
   */
  readonly connection: string;
}

export class TrafficStore {
  readonly #db: () => Promise<SqlDatabase>;
  readonly #reported: ReportedMinutes;
  /** The connection whose traffic this is. */
  readonly connection: string;

  /** `reported`: the integrations' reported minutes, read through their area's port. */
  constructor(
    db: () => Promise<SqlDatabase>,
    reported: ReportedMinutes,
    options: TrafficStoreOptions,
  ) {
    this.#db = db;
    this.#reported = reported;
    this.connection = options.connection;
  }

  /** Adds the console's own requests: its rows and the account's, in one transaction. */
  async addConsoleMinutes(rows: readonly TrafficRow[]): Promise<void> {
    if (rows.length === 0) return;
    await (
      await this.#db()
    ).transaction(async (tx) => {
      for (const row of rows) {
        await tx.query(UPSERT_CONSOLE, [
          iso(row.minute),
          row.method,
          row.template,
          row.requests,
          row.throttled,
          this.connection,
        ]);
      }
      await addToAccountTraffic(
        tx,
        rows.map((row) => ({ ...row, source: CONSOLE_SOURCE, connection: this.connection })),
      );
    });
  }

  /**
   * Per minute with any request: the total, the busiest endpoint's count, and for each group (a
   * list of endpoints) the requests of its endpoints.
   */
  async minuteTotals(
    from: number,
    to: number,
    groups: ReadonlyArray<ReadonlyArray<{ method: string; template: string }>>,
  ): Promise<MinuteTotals[]> {
    const params: unknown[] = [iso(from), iso(to), this.connection];
    const columns = groups.map((cells, index) =>
      cells.length === 0
        ? `0 AS g${index}`
        : `SUM(CASE WHEN ${endpointTest(cells, params)} THEN requests ELSE 0 END) AS g${index}`,
    );
    const { rows } = await select(
      await this.#db(),
      z.looseObject({ minute: z.string(), total: integer, peak: integer }),
      `SELECT minute, SUM(requests) AS total, MAX(requests) AS peak
         ${columns.map((column) => `, ${column}`).join('')}
       FROM account_minutes WHERE connection = $3 AND minute >= $1 AND minute <= $2
       GROUP BY minute ORDER BY minute`,
      params,
    );
    return rows.map((row) => ({
      minute: Date.parse(row.minute),
      total: row.total,
      peak: row.peak,
      groups: groups.map((_, index) => integer.parse(row[`g${index}`] ?? 0)),
    }));
  }

  /** Endpoint minutes in [from, to] with more than `threshold` requests. */
  async busyCells(from: number, to: number, threshold: number): Promise<TrafficRow[]> {
    const { rows } = await select(
      await this.#db(),
      TrafficRowSchema,
      `SELECT minute, method, template, requests, throttled FROM account_minutes
       WHERE connection = $4 AND minute >= $1 AND minute <= $2 AND requests > $3`,
      [iso(from), iso(to), threshold, this.connection],
    );
    return rows.map(toRow);
  }

  /** Each endpoint's requests in [from, to] (epoch ms of minutes) together. */
  async endpointTotals(from: number, to: number): Promise<TrafficRow[]> {
    const { rows } = await select(
      await this.#db(),
      z.object({ method: z.string(), template: z.string(), requests: integer, throttled: integer }),
      `SELECT method, template, SUM(requests) AS requests, SUM(throttled) AS throttled
       FROM account_minutes WHERE connection = $3 AND minute >= $1 AND minute <= $2
       GROUP BY method, template`,
      [iso(from), iso(to), this.connection],
    );
    return rows.map((row) => ({ ...row, minute: from }));
  }

  /**
   * The endpoints with a 429 recorded in [from, to], each with its 429s (`throttled`) together.
   * Only the rows holding one are summed: over a week a 429 is rare, and summing every row
   * (400,000 of a busy account's week) to drop all but a few groups afterwards cost most of a
   * replay's time (bench/findings/memory.md).
   */
  async throttledTotals(
    from: number,
    to: number,
  ): Promise<Array<{ method: string; template: string; throttled: number }>> {
    const { rows } = await select(
      await this.#db(),
      z.object({ method: z.string(), template: z.string(), throttled: integer }),
      `SELECT method, template, SUM(throttled) AS throttled
       FROM account_minutes
       WHERE connection = $3 AND minute >= $1 AND minute <= $2 AND throttled > 0
       GROUP BY method, template`,
      [iso(from), iso(to), this.connection],
    );
    return rows;
  }

  /** Every endpoint's requests in one minute. */
  async minute(minute: number): Promise<TrafficRow[]> {
    const { rows } = await select(
      await this.#db(),
      TrafficRowSchema,
      `SELECT minute, method, template, requests, throttled FROM account_minutes
       WHERE connection = $2 AND minute = $1`,
      [iso(minute), this.connection],
    );
    return rows.map(toRow);
  }

  /** Each source's rows in the given minutes (integrations' reports and the console's own). */
  async sourcesIn(minutes: readonly number[]): Promise<SourceRow[]> {
    const found: SourceRow[] = [];
    const db = await this.#db();
    for (let start = 0; start < minutes.length; start += MINUTES_PER_READ) {
      const chunk = minutes.slice(start, start + MINUTES_PER_READ);
      // Row by row: a chunk of a busy week holds more rows than a call takes arguments.
      for (const row of await this.#reported.rowsIn(chunk)) found.push(row);
      const { rows } = await select(
        db,
        TrafficRowSchema,
        `SELECT minute, method, template, requests, throttled
         FROM console_minutes
         WHERE connection = $1 AND minute IN (${placeholders(2, chunk.length)})`,
        [this.connection, ...chunk.map(iso)],
      );
      for (const row of rows) found.push({ ...toRow(row), source: CONSOLE_SOURCE });
    }
    return found;
  }

  /**
   * For each source: its requests in the given minutes, each minute's weighted by `weight` (the
   * share of them a replay refused), and unweighted; only the endpoints `cells` when given.
   * Summed in SQL, so a week of refused minutes comes back as one row per source.
   */
  async weightedBySource(
    weights: ReadonlyArray<readonly [minute: number, weight: number]>,
    cells?: readonly Endpoint[],
  ): Promise<Map<string, { weighted: number; requests: number }>> {
    const found = new Map<string, { weighted: number; requests: number }>();
    if (cells && cells.length === 0) return found;
    const db = await this.#db();
    const add = (rows: ReadonlyArray<{ source: string; weighted: number; requests: number }>) => {
      for (const row of rows) {
        const entry = found.get(row.source) ?? { weighted: 0, requests: 0 };
        entry.weighted += row.weighted;
        entry.requests += row.requests;
        found.set(row.source, entry);
      }
    };
    for (let start = 0; start < weights.length; start += MINUTES_PER_READ) {
      const chunk = weights.slice(start, start + MINUTES_PER_READ);
      // An account limit's refusals (no endpoints given) are shared by each source's minute
      // totals; a rule's or an endpoint's by the sources' rows of those endpoints: each
      // integration's, then the console's.
      if (cells) add(await this.#reported.weightedSums(chunk, cells));
      const params: unknown[] = [this.connection];
      const table = minuteWeights(chunk, params);
      const [from, source, filter] = cells
        ? ['console_minutes', `'${CONSOLE_SOURCE}'`, ` AND (${endpointTest(cells, params, 't.')})`]
        : ['source_minutes', 't.source', ''];
      const { rows } = await select(
        db,
        z.object({ source: z.string(), weighted: z.coerce.number(), requests: integer }),
        `${table}
         SELECT ${source} AS source, SUM(t.requests * w.weight) AS weighted,
           SUM(t.requests) AS requests
         FROM w JOIN ${from} t ON t.minute = w.minute
         WHERE t.connection = $1 AND t.minute IN (SELECT minute FROM w)${filter}
         GROUP BY 1`,
        params,
      );
      add(rows);
    }
    return found;
  }

  /**
   * Each integration's minutes in [from, to] holding `ceiling` requests or more (every
   * template, 429s included): the minutes set aside as implausible, oldest first.
   */
  minutesAtCeiling(
    from: number,
    to: number,
    ceiling: number,
  ): Promise<ReadonlyArray<{ source: string; minute: number; reported: number }>> {
    return this.#reported.minutesAtCeiling(from, to, ceiling);
  }

  /**
   * Each source's data-subject calls per day (UTC) in [from, to], for the templates given. An
   * integration's minute holding `ceiling` requests or more (the minutes
   * {@link minutesAtCeiling} lists) is left out.
   */
  async dailyBySource(
    from: number,
    to: number,
    templates: readonly Endpoint[],
    ceiling = Number.MAX_SAFE_INTEGER,
  ): Promise<DailyCalls[]> {
    if (templates.length === 0) return [];
    const params: unknown[] = [iso(from), iso(to), this.connection];
    const { rows } = await select(
      await this.#db(),
      z.object({ day: z.string(), method: z.string(), template: z.string(), calls: integer }),
      `SELECT SUBSTR(minute, 1, 10) AS day, method, template, SUM(requests) AS calls
       FROM console_minutes
       WHERE connection = $3 AND minute >= $1 AND minute <= $2
         AND (${endpointTest(templates, params)})
       GROUP BY SUBSTR(minute, 1, 10), method, template`,
      params,
    );
    return [
      ...(await this.#reported.dailyCalls(from, to, templates, ceiling)),
      ...rows.map((row) => ({ source: CONSOLE_SOURCE, ...row })),
    ];
  }

  /**
   * Deletes the console's and the account's rows of this connection older than `cutoff`;
   * resolves to rows gone.
   */
  async prune(cutoff: number): Promise<number> {
    const before = iso(cutoff);
    const db = await this.#db();
    let gone = 0;
    for (const table of ['console_minutes', 'account_minutes', 'source_minutes']) {
      const { rows } = await select(
        db,
        z.object({ n: integer }),
        `SELECT COUNT(*) AS n FROM ${table} WHERE connection = $2 AND minute < $1`,
        [before, this.connection],
      );
      gone += rows[0]?.n ?? 0;
      await db.query(`DELETE FROM ${table} WHERE connection = $2 AND minute < $1`, [
        before,
        this.connection,
      ]);
    }
    return gone;
  }
}
