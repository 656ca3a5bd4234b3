// A database whose every call fails, as when its server is gone or its disk is full.
import type { SqlDatabase } from '../store/database';

/** A database that rejects every query, statement and transaction with `message`. */
export function failingDatabase(message: string): SqlDatabase {
  const fail = () => Promise.reject(new Error(message));
  return { query: fail, exec: fail, transaction: fail, close: async () => {} };
}
