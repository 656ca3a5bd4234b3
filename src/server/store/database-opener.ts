// A store is handed its database in one of three forms: opened, still opening, or opened on first
// use (the console's shared one, open-store.ts). Each store keeps the one form it queries through.
import type { SqlDatabase } from './database';

/** A database as a store is handed it: opened, still opening, or an opener called on first use. */
export type DatabaseOrOpener = SqlDatabase | Promise<SqlDatabase> | (() => Promise<SqlDatabase>);

/** The opener a store calls before each query; the first query waits for a database still opening. */
export function databaseOpener(db: DatabaseOrOpener): () => Promise<SqlDatabase> {
  return typeof db === 'function' ? db : () => Promise.resolve(db);
}
