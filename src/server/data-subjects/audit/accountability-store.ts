// The accountability report's figures, counted by the database with SQL aggregates (COUNT,
// COUNT DISTINCT, GROUP BY) over the period's rows of lookup_audit and admin_changes, so a year
// of lookups is never loaded to be counted. Portable SQL over SqlDatabase (SQLite or PostgreSQL).
import * as z from 'zod';
import type {
  AccountabilityActor,
  AccountabilityPurpose,
  AccountabilityReport,
} from '../../../shared/accountability';
import type { SqlDatabase } from '../../store/database';
import { integer, select } from '../../store/typed-rows';

/** The report's figures about lookups and changes (the rest is added by the report). */
export type AccountabilityFigures = Pick<
  AccountabilityReport,
  'lookups' | 'actors' | 'purposes' | 'withoutPurpose'
> & {
  readonly changes: Pick<AccountabilityReport['changes'], 'total' | 'byAction'>;
};

// `at` is ISO text on both engines, so text comparison is time order. The period is half-open:
// a lookup at midnight on the 1st belongs to the month it opens, not to the one before.
const IN_PERIOD = 'at >= $1 AND at < $2';

// A count that may be NULL (SUM over no rows) reads as 0.
const n = integer.nullable().transform((value) => value ?? 0);

const TotalsRowSchema = z.object({ lookups: n, people: n, without_person: n });
const ActorRowSchema = z.object({
  username: z.string(),
  token_name: z.string().nullable(),
  lookups: n,
  people: n,
});
const PurposeRowSchema = z.object({
  category: z.string(),
  lookups: n,
  refs: n,
  people: n,
});
const WithoutPurposeRowSchema = z.object({ lookups: n, people: n });
const ActionRowSchema = z.object({ action: z.string(), n });

/** Counts the period's lookups and changes in the database. */
export class AccountabilityStore {
  readonly #db: () => Promise<SqlDatabase>;

  constructor(db: () => Promise<SqlDatabase>) {
    this.#db = db;
  }

  /** The figures for `[since, until)`, times in epoch ms. */
  async figures(since: number, until: number): Promise<AccountabilityFigures> {
    const db = await this.#db();
    const period = [new Date(since).toISOString(), new Date(until).toISOString()];
    const [totals, actors, purposes, withoutPurpose, actions] = await Promise.all([
      select(
        db,
        TotalsRowSchema,
        `SELECT COUNT(*) AS lookups, COUNT(DISTINCT identifier_hash) AS people,
            SUM(CASE WHEN identifier_hash IS NULL THEN 1 ELSE 0 END) AS without_person
          FROM lookup_audit WHERE ${IN_PERIOD}`,
        period,
      ),
      select(
        db,
        ActorRowSchema,
        `SELECT username, token_name, COUNT(*) AS lookups,
            COUNT(DISTINCT identifier_hash) AS people
          FROM lookup_audit WHERE ${IN_PERIOD}
          GROUP BY username, token_name
          ORDER BY COUNT(*) DESC, username, token_name`,
        period,
      ),
      select(
        db,
        PurposeRowSchema,
        // References are counted without regard to case, as the trail's filter finds them.
        `SELECT purpose_category AS category, COUNT(*) AS lookups,
            COUNT(DISTINCT LOWER(purpose_reference)) AS refs,
            COUNT(DISTINCT identifier_hash) AS people
          FROM lookup_audit WHERE ${IN_PERIOD} AND purpose_category IS NOT NULL
          GROUP BY purpose_category
          ORDER BY COUNT(*) DESC, purpose_category`,
        period,
      ),
      select(
        db,
        WithoutPurposeRowSchema,
        `SELECT COUNT(*) AS lookups, COUNT(DISTINCT identifier_hash) AS people
          FROM lookup_audit WHERE ${IN_PERIOD} AND purpose_category IS NULL`,
        period,
      ),
      select(
        db,
        ActionRowSchema,
        `SELECT action, COUNT(*) AS n FROM admin_changes WHERE ${IN_PERIOD}
          GROUP BY action ORDER BY COUNT(*) DESC, action`,
        period,
      ),
    ]);
    const total = totals.rows[0];
    const byAction = actions.rows.map((row) => ({ action: row.action, count: row.n }));
    return {
      lookups: {
        total: total?.lookups ?? 0,
        people: total?.people ?? 0,
        withoutPerson: total?.without_person ?? 0,
      },
      actors: actors.rows.map((row): AccountabilityActor => ({
        user: row.username,
        token: row.token_name,
        lookups: row.lookups,
        people: row.people,
      })),
      purposes: purposes.rows.map((row): AccountabilityPurpose => ({
        category: row.category,
        lookups: row.lookups,
        references: row.refs,
        people: row.people,
      })),
      withoutPurpose: {
        lookups: withoutPurpose.rows[0]?.lookups ?? 0,
        people: withoutPurpose.rows[0]?.people ?? 0,
      },
      changes: {
        total: byAction.reduce((sum, row) => sum + row.count, 0),
        byAction,
      },
    };
  }
}
