// Reads with their rows checked: every row a store reads is parsed with a zod schema of its
// columns, so a row the code does not expect (a column of the wrong type, a value planted by hand,
// an engine answering differently) fails loudly, naming the table and column, instead of flowing
// on as a silently wrong value. Writes go through `query` and read nothing back.
//
// Why zod at the boundary rather than a typed query builder (Kysely): the stores keep their
// portable SQL, the migrator and the PostgreSQL LISTEN/NOTIFY adapter as they are, and the check
// is where a wrong row would otherwise slip through, at run time; its cost is measured in
// docs/architecture.md ("Typed rows").
import * as z from 'zod';

/** A row did not have the columns the code reads, or a column held another type. */
export class StoredRowError extends Error {
  override name = 'StoredRowError';
}

/** The first table a statement reads from, for the error message. */
function tableOf(sql: string): string {
  return /\b(?:FROM|INTO|UPDATE)\s+([a-z_]+)/i.exec(sql)?.[1] ?? 'the query';
}

/** `value` checked against `row`, or a StoredRowError naming `table` and the column. */
export function parseRow<Row extends z.ZodType>(
  row: Row,
  value: unknown,
  table: string,
): z.output<Row> {
  const parsed = row.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new StoredRowError(
    `a row of ${table} is not what the console expects: column ${String(issue?.path[0] ?? '?')}: ${issue?.message ?? 'invalid'}`,
  );
}

/**
 * The reading half of a database (database.ts's SqlExecutor extends it), declared here so that
 * this file, which the database's migrator uses, needs nothing of the database.
 */
export interface SqlReader {
  /**
   * Runs one statement. Its rows are not typed: a store reads them through `select`, which
   * checks each against the schema of its columns.
   */
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Runs `sql` and returns its rows, each checked against `row`. */
export async function select<Row extends z.ZodType>(
  db: SqlReader,
  row: Row,
  sql: string,
  params?: unknown[],
): Promise<{ rows: Array<z.output<Row>> }> {
  const { rows } = await db.query(sql, params);
  const table = tableOf(sql);
  return { rows: rows.map((value) => parseRow(row, value, table)) };
}

/** A whole number as each engine returns it: SQLite a number, PostgreSQL a bigint as text. */
export const integer = z
  .union([z.number(), z.bigint(), z.string().regex(/^-?\d+$/)])
  .pipe(z.transform((value) => Number(value)));

/** A boolean as each engine returns it: SQLite 0 or 1, PostgreSQL true or false. */
export const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')])
  .pipe(z.transform((value) => value === true || value === 1 || value === '1'));
