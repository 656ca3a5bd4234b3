// Opens the console's database and brings its schema up to date. By default that is PGlite:
// PostgreSQL compiled to WebAssembly, kept under DATA_DIR, so one `npm start` needs no database
// server yet runs the very SQL a PostgreSQL server (DATABASE_URL, for several replicas) will.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS, type Migration } from './migrations';

/** What the stores need from a database: PostgreSQL queries with `$1` parameters. */
export interface SqlExecutor {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
}

/** An open database. A PostgreSQL pool adapter satisfies the same interface. */
export interface SqlDatabase extends SqlExecutor {
  /** Runs `work` in one transaction: all of it commits, or none. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Another process holds the data directory. */
export class DatabaseInUseError extends Error {
  override name = 'DatabaseInUseError';
}

/** The database is newer than this build: a downgrade, refused rather than guessed at. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
}

export interface OpenDatabaseOptions {
  /** Directory to keep the database in (`DATA_DIR`); omit for an in-memory database (tests). */
  readonly dataDir?: string;
  readonly migrations?: readonly Migration[];
}

/**
 * PostgreSQL settings for a small embedded database. The defaults (128 MB of shared buffers)
 * suit a database server, not a few thousand incident rows inside the BFF: with these the
 * embedded store adds about 100 MB to the process instead of about 260 MB (measured on a warm
 * start; the first start, which runs initdb, peaks higher once).
 */
const SMALL_FOOTPRINT = [
  '-c',
  'shared_buffers=2MB',
  '-c',
  'temp_buffers=1MB',
  '-c',
  'work_mem=256kB',
  '-c',
  'maintenance_work_mem=1MB',
  '-c',
  'wal_buffers=64kB',
];

/** Subdirectory of DATA_DIR holding PGlite's files; DATA_DIR also holds other state. */
const PGLITE_DIR = 'pglite';
const LOCK_FILE = 'pglite.lock';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite has no locking of its own and two processes writing one directory corrupt it, so the
 * first process writes its pid here; a lock left by a process that no longer runs is taken over.
 */
function acquireLock(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
        throw new DatabaseInUseError(
          `DATA_DIR ${dataDir} is in use by process ${holder}: stop it or set another DATA_DIR`,
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new DatabaseInUseError(`DATA_DIR ${dataDir} is locked (${path})`);
}

/**
 * Applies the migrations the database has not seen, each in its own transaction, and records
 * them in `schema_migrations`.
 */
export async function migrate(db: SqlDatabase, migrations: readonly Migration[] = MIGRATIONS) {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const { rows } = await db.query<{ version: number }>(
    'SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations',
  );
  const current = Number(rows[0]?.version ?? 0);
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new SchemaTooNewError(
      `The database is at schema version ${current}, newer than this build knows (${latest})`,
    );
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    await db.transaction(async (tx) => {
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    });
  }
}

/** Opens (creating if needed) and migrates the database. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<SqlDatabase> {
  let releaseLock = () => {};
  let pg: PGlite;
  if (options.dataDir) {
    mkdirSync(join(options.dataDir, PGLITE_DIR), { recursive: true });
    releaseLock = acquireLock(options.dataDir);
    try {
      pg = await PGlite.create(join(options.dataDir, PGLITE_DIR), {
        startParams: [...PGlite.defaultStartParams, ...SMALL_FOOTPRINT],
      });
    } catch (error) {
      releaseLock();
      throw error;
    }
  } else {
    pg = await PGlite.create({ startParams: [...PGlite.defaultStartParams, ...SMALL_FOOTPRINT] });
  }
  const db: SqlDatabase = {
    query: (sql, params) => pg.query(sql, params),
    exec: (sql) => pg.exec(sql),
    transaction: (work) =>
      pg.transaction((tx) =>
        work({ query: (sql, params) => tx.query(sql, params), exec: (sql) => tx.exec(sql) }),
      ),
    async close() {
      try {
        if (!pg.closed) await pg.close();
      } finally {
        releaseLock();
      }
    },
  };
  try {
    await migrate(db, options.migrations ?? MIGRATIONS);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
