// Opens the console's database and brings its schema up to date. Embedded by default: SQLite
// (better-sqlite3) in DATA_DIR, in write-ahead-log mode, and a write is reported done only once
// the log is on the disk (log-flusher.ts), so a record written before an answer survives a crash
// of the process and a power cut. The stores speak portable SQL through the
// SqlDatabase interface, so a PostgreSQL server (DATABASE_URL) can run the very same statements.
//
// Why not PGlite (PostgreSQL in WebAssembly): it costs 280–800 MB of resident memory in the BFF,
// against the product's bar of 150 MB; SQLite costs a few MB.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as z from 'zod';
import { logFlusher, type FlushFile, type LogFlusher } from './log-flusher';
import { MIGRATIONS, type Migration } from './migrations';
import { ensurePrivateDir, ensurePrivateFile } from './private-files';
import { integer, select, type SqlReader } from './typed-rows';

/**
 * What the stores need from a database: queries with `$1, $2…` parameters. Write SQL both SQLite
 * and PostgreSQL accept (see migrations.ts for the rules).
 */
export interface SqlExecutor extends SqlReader {
  exec(sql: string): Promise<unknown>;
  /**
   * PostgreSQL only (absent on SQLite): NOTIFY `channel` when the transaction commits, so other
   * replicas learn of the change (postgres-database.ts).
   */
  notify?(channel: string, payload: string): Promise<void>;
}

/** An open database. The PostgreSQL pool adapter (postgres-database.ts) satisfies it too. */
export interface SqlDatabase extends SqlExecutor {
  /** Runs `work` in one transaction: all of it commits, or none. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * PostgreSQL only: calls `handlers` for every NOTIFY on `channel`, from any replica. Resolves to
   * a function that stops listening.
   */
  listen?(
    channel: string,
    handlers: {
      notification: (payload: string) => void;
      reconnected?: () => void;
    },
  ): Promise<() => Promise<void>>;
}

/** The database is newer than this build: a downgrade, refused rather than guessed at. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
}

export interface OpenDatabaseOptions {
  /** Directory to keep the database in (`DATA_DIR`); omit for an in-memory database (tests). */
  readonly dataDir?: string;
  readonly migrations?: readonly Migration[];
  /** Stands in for `fdatasync` of the write-ahead log: tests hold or fail the disk's flush. */
  readonly flushFile?: FlushFile;
}

/** The database file inside DATA_DIR. */
export const DATABASE_FILE = 'console.sqlite';

/**
 * Applies the migrations the database has not seen, each in its own transaction, and records
 * them in `schema_migrations`.
 */
export async function migrate(db: SqlDatabase, migrations: readonly Migration[] = MIGRATIONS) {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at text NOT NULL
  )`);
  const {
    rows: [row],
  } = await select(
    db,
    z.object({ version: integer.nullable() }),
    'SELECT MAX(version) AS version FROM schema_migrations',
  );
  const current = row?.version ?? 0;
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
      await tx.query(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
        [migration.version, migration.name, new Date().toISOString()],
      );
    });
  }
}

/** `$1` → `@p1`: SQLite's named parameters may repeat, as PostgreSQL's numbered ones do. */
function toSqliteSql(sql: string): string {
  return sql.replace(/\$(\d+)/g, '@p$1');
}

function toSqliteParams(params: unknown[] = []): Record<string, unknown> {
  const named: Record<string, unknown> = {};
  params.forEach((value, index) => {
    named[`p${index + 1}`] =
      typeof value === 'boolean'
        ? Number(value)
        : value instanceof Date
          ? value.toISOString()
          : value;
  });
  return named;
}

/**
 * Wraps a better-sqlite3 connection in the async SqlDatabase interface. With a `log` flusher, a
 * write (a transaction, or a statement outside one) resolves only once it is on the disk.
 */
function sqliteDatabase(connection: Database.Database, log?: LogFlusher): SqlDatabase {
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = connection.prepare(toSqliteSql(sql));
      if (statements.size > 500) statements.clear();
      statements.set(sql, statement);
    }
    return statement;
  };
  const execute = async (statement: Database.Statement, params?: unknown[]) => {
    const bound = toSqliteParams(params);
    if (statement.reader) return { rows: statement.all(bound) };
    statement.run(bound);
    return { rows: [] };
  };
  const run: SqlExecutor = {
    query: (sql, params) => execute(prepare(sql), params),
    async exec(sql: string) {
      connection.exec(sql);
    },
  };
  // After a failed flush nothing more is written: no later write could be promised durable.
  const writable = () => {
    if (log?.failure) throw log.failure;
  };
  const durably = async <T>(write: () => Promise<T>): Promise<T> => {
    writable();
    const result = await write();
    await log?.flush();
    return result;
  };
  // One connection: while a transaction awaits between its statements, nothing else may run on
  // the connection, or it would join the transaction. Transactions (and queries arriving while
  // one is open) queue here. A transaction's flush runs after it leaves the queue, so the next
  // one commits while the disk takes the last.
  let queue: Promise<unknown> = Promise.resolve();
  let inTransaction = false;
  const afterQueue = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  const direct = <T>(work: () => Promise<T>) => (inTransaction ? afterQueue(work) : work());
  return {
    query: async (sql, params) => {
      const statement = prepare(sql);
      return statement.reader
        ? direct(() => execute(statement, params))
        : durably(() => direct(() => execute(statement, params)));
    },
    exec: (sql) => durably(() => direct(() => run.exec(sql))),
    transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return durably(() =>
        afterQueue(async () => {
          writable();
          inTransaction = true;
          connection.exec('BEGIN IMMEDIATE');
          try {
            const result = await work(run);
            connection.exec('COMMIT');
            return result;
          } catch (error) {
            if (connection.inTransaction) connection.exec('ROLLBACK');
            throw error;
          } finally {
            inTransaction = false;
          }
        }),
      );
    },
    async close() {
      await queue;
      await log?.close();
      if (connection.open) connection.close();
    },
  };
}

/**
 * The store cannot be used: one line saying what is wrong and what to do, fit for the start-up
 * banner, the log and readiness. Never carries a secret (paths of DATA_DIR only).
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/** One line for an error opening SQLite under `dataDir`: what is wrong and what to do. */
export function explainStoreError(error: unknown, dataDir: string): StoreUnavailableError {
  if (error instanceof StoreUnavailableError) return error;
  const code = (error as { code?: string }).code ?? '';
  const file = join(dataDir, DATABASE_FILE);
  const message = (error as Error).message ?? String(error);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'SQLITE_READONLY') {
    return new StoreUnavailableError(
      `DATA_DIR ${dataDir} is not writable (${code}): give the console's user write access or set DATA_DIR to a writable directory`,
    );
  }
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'SQLITE_CANTOPEN') {
    return new StoreUnavailableError(
      `DATA_DIR ${dataDir} cannot be created or opened (${code}): check that its parent exists and is writable, or set DATA_DIR`,
    );
  }
  if (code === 'SQLITE_NOTADB') {
    return new StoreUnavailableError(
      `${file} is not a SQLite database: move it aside (the console then starts with an empty store) or restore it from a backup`,
    );
  }
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_CORRUPT_INDEX') {
    return new StoreUnavailableError(
      `${file} is damaged (${message}): restore it from a backup, or move it aside to start with an empty store`,
    );
  }
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return new StoreUnavailableError(`The disk holding ${file} is full: free space in DATA_DIR`);
  }
  return new StoreUnavailableError(`Could not open the store ${file}: ${message}`);
}

/** One line for a failed flush of the write-ahead log, after which nothing more is written. */
function explainFlushError(error: unknown, dataDir: string): StoreUnavailableError {
  const code = (error as { code?: string }).code ?? (error as Error).message ?? String(error);
  return new StoreUnavailableError(
    `The disk holding ${join(dataDir, DATABASE_FILE)} failed to flush a write (${code}): the console writes nothing more until it is restarted; check the disk, then restart it`,
  );
}

/** Runs SQLite's quick integrity check; throws a corrupt-database error naming what it found. */
function quickCheck(connection: Database.Database): void {
  const rows = connection.pragma('quick_check(3)') as Array<{ quick_check: string }>;
  const findings = rows.map((row) => row.quick_check).filter((finding) => finding !== 'ok');
  if (findings.length > 0) {
    throw Object.assign(new Error(`integrity check: ${findings.join('; ')}`), {
      code: 'SQLITE_CORRUPT',
    });
  }
}

/**
 * Opens (creating if needed), checks and migrates the database. With a DATA_DIR, every failure
 * is a StoreUnavailableError with one line saying what is wrong and what to do.
 */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<SqlDatabase> {
  let connection: Database.Database;
  let wal = false;
  if (options.dataDir) {
    try {
      // Owner-only from the start: SQLite gives its -wal and -shm files the database file's mode.
      ensurePrivateDir(options.dataDir);
      ensurePrivateFile(join(options.dataDir, DATABASE_FILE));
      connection = new Database(join(options.dataDir, DATABASE_FILE));
    } catch (error) {
      throw explainStoreError(error, options.dataDir);
    }
    try {
      // In WAL mode a commit is flushed off the event loop (log-flusher.ts); where the file
      // system cannot hold a write-ahead log, SQLite keeps its rollback journal and each commit
      // waits for the disk itself.
      const mode = connection.pragma('journal_mode = WAL', { simple: true });
      wal = mode === 'wal';
      connection.pragma(wal ? 'synchronous = NORMAL' : 'synchronous = FULL');
      // An overwritten page must stop us here, not surface later as a generic 500.
      quickCheck(connection);
    } catch (error) {
      connection.close();
      throw explainStoreError(error, options.dataDir);
    }
  } else {
    connection = new Database(':memory:');
  }
  // Another process (a second console on the same DATA_DIR) may hold a write lock briefly.
  connection.pragma('busy_timeout = 5000');
  const { dataDir } = options;
  const log =
    dataDir && wal
      ? logFlusher(
          `${join(dataDir, DATABASE_FILE)}-wal`,
          (error) => explainFlushError(error, dataDir),
          options.flushFile,
        )
      : undefined;
  const db = sqliteDatabase(connection, log);
  try {
    await migrate(db, options.migrations ?? MIGRATIONS);
  } catch (error) {
    await db.close();
    if (options.dataDir && !(error instanceof SchemaTooNewError)) {
      throw explainStoreError(error, options.dataDir);
    }
    throw error;
  }
  return db;
}

/**
 * A second, read-only connection to the database under `dataDir`, which another connection has
 * opened and migrated: for work that only reads, in a thread of its own (what-if replays). In
 * write-ahead-log mode its reads see the last commit and never wait for a writer. No check or
 * migration runs: the console's own connection did both when it opened.
 */
export function openReadOnlyDatabase(dataDir: string): SqlDatabase {
  try {
    const connection = new Database(join(dataDir, DATABASE_FILE), {
      readonly: true,
      fileMustExist: true,
    });
    connection.pragma('busy_timeout = 5000');
    return sqliteDatabase(connection);
  } catch (error) {
    throw explainStoreError(error, dataDir);
  }
}

export interface RetryingDatabaseOptions {
  /** Opens the database; called again after a failure once `retryMs` has passed. */
  readonly open: () => Promise<SqlDatabase>;
  /** The failure to start from, when the first attempt was made by the caller. */
  readonly initialError?: StoreUnavailableError;
  /** Wait between attempts (default 5 s). */
  readonly retryMs?: number;
  readonly now?: () => number;
  /** Told when an attempt fails and when the store opens after failures. */
  readonly onError?: (error: StoreUnavailableError) => void;
  readonly onOpen?: () => void;
}

/**
 * A database that may not be open yet: every statement waits for it, or fails at once with the
 * StoreUnavailableError of the last attempt, and the opening is tried again every `retryMs`. The
 * console keeps serving what does not need the store (event types, sign-in, rate limits in
 * memory) and picks the store up by itself when the operator has fixed it.
 */
export function retryingDatabase(options: RetryingDatabaseOptions): SqlDatabase {
  const now = options.now ?? Date.now;
  const retryMs = options.retryMs ?? 5_000;
  let opened: SqlDatabase | undefined;
  let opening: Promise<SqlDatabase> | undefined;
  let failure = options.initialError;
  let failedAt = failure ? now() : -Infinity;
  const current = (): Promise<SqlDatabase> => {
    if (opened) return Promise.resolve(opened);
    if (failure && now() - failedAt < retryMs) return Promise.reject(failure);
    opening ??= options
      .open()
      .then((db) => {
        opened = db;
        if (failure) options.onOpen?.();
        failure = undefined;
        return db;
      })
      .catch((error: unknown) => {
        failure =
          error instanceof StoreUnavailableError
            ? error
            : new StoreUnavailableError((error as Error).message ?? String(error));
        failedAt = now();
        options.onError?.(failure);
        throw failure;
      })
      .finally(() => {
        opening = undefined;
      });
    return opening;
  };
  return {
    query: async (sql, params) => (await current()).query(sql, params),
    exec: async (sql) => (await current()).exec(sql),
    transaction: async (work) => (await current()).transaction(work),
    async close() {
      await opening?.catch(() => undefined);
      await opened?.close();
    },
  };
}
