// The numbered parameters of an SQL `IN (…)` list, the one way every store writes them: SQLite and
// PostgreSQL both take `$n` (store/database.ts turns it into SQLite's named form), so one statement
// runs on either.

/** `$first, $first+1, …`: `count` parameters, numbered from `first`. */
export const placeholders = (first: number, count: number): string =>
  Array.from({ length: count }, (_, offset) => `$${first + offset}`).join(', ');
