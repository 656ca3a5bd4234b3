// What the planning area reads of the integrations' reported minutes, read here because every
// statement on this area's tables is this area's (docs/architecture.md §2): each integration's
// rows of some minutes, its requests in weighted minutes, and its calls per day, with the minutes
// no account limit allows (at the account's minute ceiling or above) listed apart or left out.
// compose.ts hands it to the planning area, and the replay thread's entry builds one on the
// connection that thread opens. Reads aggregate in SQL, so a week of 50 integrations comes back
// as a few thousand rows. A reader is one platform connection's: it reads the minutes of the
// integrations reporting to that connection only.
import * as z from 'zod';
import type { SqlDatabase } from '../store/database';
import { endpointTest, minuteWeights, placeholders } from '../store/sql-placeholders';
import { integer, select } from '../store/typed-rows';

const iso = (ms: number) => new Date(ms).toISOString();

type Endpoint = { readonly method: string; readonly template: string };

/** Built once: zod compiles an object schema on its first parse (see audit-store.ts). */
const MinuteRowSchema = z.object({
  source: z.string(),
  minute: z.string(),
  method: z.string(),
  template: z.string(),
  requests: integer,
  throttled: integer,
});

/** One integration's (`source`) requests and 429s of one template in one minute (epoch ms). */
export type ReportedRow = Omit<z.output<typeof MinuteRowSchema>, 'minute'> & { minute: number };

/** Each integration's reported minutes as the planning area reads them. */
export class ReportedMinutesReader {
  readonly #db: () => Promise<SqlDatabase>;
  readonly #connection: string;

  /**
   * `db` may still be opening: the first query waits for it. `connection`: whose integrations
   * (DEFAULT_CONNECTION where the caller does not know one yet).
   */
  constructor(
    db: SqlDatabase | (() => Promise<SqlDatabase>),
    options: { readonly connection: string },
  ) {
    this.#db = typeof db === 'function' ? db : () => Promise.resolve(db);
    this.#connection = options.connection;
  }

  /**
   * Each integration's rows (per minute and template) in `minutes`, the integration's id as
   * `source`. Each minute is a parameter of one statement: the caller asks for a few hundred at
   * a time.
   */
  async rowsIn(minutes: readonly number[]): Promise<ReportedRow[]> {
    if (minutes.length === 0) return [];
    const { rows } = await select(
      await this.#db(),
      MinuteRowSchema,
      `SELECT integration_id AS source, minute, method, template, requests, throttled
       FROM integration_minutes
       WHERE connection = $1 AND minute IN (${placeholders(2, minutes.length)})`,
      [this.#connection, ...minutes.map(iso)],
    );
    return rows.map((row) => ({ ...row, minute: Date.parse(row.minute) }));
  }

  /**
   * For each integration: its requests of `endpoints` in the minutes of `weights`, each minute's
   * multiplied by its weight and summed (`weighted`), and summed as they are (`requests`). One row
   * per integration, however many minutes; a few hundred minutes at a time, as for
   * {@link rowsIn}.
   */
  async weightedSums(
    weights: ReadonlyArray<readonly [minute: number, weight: number]>,
    endpoints: readonly Endpoint[],
  ): Promise<Array<{ source: string; weighted: number; requests: number }>> {
    if (weights.length === 0 || endpoints.length === 0) return [];
    const params: unknown[] = [this.#connection];
    const table = minuteWeights(weights, params);
    const { rows } = await select(
      await this.#db(),
      z.object({ source: z.string(), weighted: z.coerce.number(), requests: integer }),
      `${table}
       SELECT t.integration_id AS source, SUM(t.requests * w.weight) AS weighted,
         SUM(t.requests) AS requests
       FROM w JOIN integration_minutes t ON t.minute = w.minute
       WHERE t.connection = $1 AND t.minute IN (SELECT minute FROM w)
         AND (${endpointTest(endpoints, params, 't.')})
       GROUP BY t.integration_id`,
      params,
    );
    return rows;
  }

  /**
   * Each integration's minutes in [from, to] holding `ceiling` requests or more (every
   * template, 429s included): the minutes set aside as implausible, oldest first.
   */
  async minutesAtCeiling(
    from: number,
    to: number,
    ceiling: number,
  ): Promise<Array<{ source: string; minute: number; reported: number }>> {
    const { rows } = await select(
      await this.#db(),
      z.object({ source: z.string(), minute: z.string(), reported: integer }),
      `SELECT integration_id AS source, minute, SUM(requests) AS reported
       FROM integration_minutes WHERE connection = $4 AND minute >= $1 AND minute <= $2
       GROUP BY integration_id, minute HAVING SUM(requests) >= $3
       ORDER BY minute, integration_id`,
      [iso(from), iso(to), ceiling, this.#connection],
    );
    return rows.map((row) => ({ ...row, minute: Date.parse(row.minute) }));
  }

  /**
   * Each integration's calls of `endpoints` per day (UTC, `YYYY-MM-DD`) in [from, to]; a minute
   * in which the integration reported `ceiling` requests or more (one {@link minutesAtCeiling}
   * lists) is left out.
   */
  async dailyCalls(
    from: number,
    to: number,
    endpoints: readonly Endpoint[],
    ceiling: number,
  ): Promise<
    Array<{ source: string; day: string; method: string; template: string; calls: number }>
  > {
    if (endpoints.length === 0) return [];
    const params: unknown[] = [iso(from), iso(to), ceiling, this.#connection];
    const tests = endpointTest(endpoints, params);
    // Through the primary key (integration, minute, …): a few rows per minute read again.
    const plausible = `(SELECT SUM(s.requests) FROM integration_minutes s
         WHERE s.integration_id = integration_minutes.integration_id
           AND s.minute = integration_minutes.minute) < $3`;
    const { rows } = await select(
      await this.#db(),
      z.object({
        source: z.string(),
        day: z.string(),
        method: z.string(),
        template: z.string(),
        calls: integer,
      }),
      `SELECT integration_id AS source, SUBSTR(minute, 1, 10) AS day, method, template,
         SUM(requests) AS calls
       FROM integration_minutes
       WHERE connection = $4 AND minute >= $1 AND minute <= $2 AND (${tests}) AND ${plausible}
       GROUP BY integration_id, SUBSTR(minute, 1, 10), method, template`,
      params,
    );
    return rows;
  }
}
