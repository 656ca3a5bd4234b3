// Route tests of incidents share one in-memory database per test file, emptied after each test.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { openDatabase, type SqlDatabase } from '../store/database';

/**
 * Opens one in-memory database before the file's tests and closes it after them; after each test,
 * first `reset` (close that test's harness, put its clock back), then the incidents are deleted.
 * Returns the database, to be read once the tests run.
 */
export function sharedIncidentDatabase(reset: () => Promise<void> | void): () => SqlDatabase {
  let database: SqlDatabase | undefined;
  beforeAll(async () => {
    database = await openDatabase();
  });
  afterAll(() => database?.close());
  afterEach(async () => {
    await reset();
    await database?.exec('DELETE FROM rate_limit_incidents');
  });
  return () => {
    if (!database) throw new Error('the incident database opens before the first test');
    return database;
  };
}
