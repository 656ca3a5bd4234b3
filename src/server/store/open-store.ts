// The console's one database, as every store borrows it (incidents, the audit trail, alerts,
// integrations): the one index.ts opened under DATA_DIR or DATABASE_URL, or, without one, an
// in-memory database opened on first use, whose records last only as long as the process (tests,
// benchmarks). Whoever opened a database closes it.
import { openDatabase, type SqlDatabase } from './database';

/** The database the stores share, and whether it is this module's to close. */
export interface ConsoleStore {
  /** The database; an in-memory one is opened on the first call when none was handed in. */
  readonly database: () => Promise<SqlDatabase>;
  /** Whether records outlive the process (a database was handed in): stored blocks then matter. */
  readonly persistent: boolean;
  /** Closes the database if it was opened here; one handed in stays its opener's to close. */
  close(): Promise<void>;
}

/** Shares `database` with the stores, or an in-memory database opened on first use. */
export function openConsoleStore(database?: SqlDatabase): ConsoleStore {
  let own: Promise<SqlDatabase> | undefined;
  return {
    database: () => (database ? Promise.resolve(database) : (own ??= openDatabase())),
    persistent: database !== undefined,
    async close() {
      if (own) await (await own).close();
    },
  };
}
