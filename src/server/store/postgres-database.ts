// PostgreSQL behind the SqlDatabase interface (DATABASE_URL), so several replicas share one set of
// incidents and one audit trail: the stores' portable SQL runs unchanged on a node-postgres pool.
// Migrations are applied at start under an advisory lock, so replicas starting together apply
// each one exactly once; LISTEN/NOTIFY tells every replica about a committed change.
import type pg from 'pg';
import type { Logger } from '../observability/logger';
import { migrate, SchemaTooNewError, type SqlDatabase, type SqlExecutor } from './database';
import { MIGRATIONS, type Migration } from './migrations';

/** Handlers of a LISTEN channel. */
export interface NotificationHandlers {
  /** A NOTIFY on the channel, committed by any connection (this replica's or another's). */
  readonly notification: (payload: string) => void;
  /**
   * The listening connection was lost and is back: notifications sent in between were missed,
   * so read whatever changed.
   */
  readonly reconnected?: () => void;
}

export interface PostgresDatabaseOptions {
  /** `postgres://user:password@host:port/database?…` (libpq-style parameters allowed). */
  readonly url: string;
  readonly migrations?: readonly Migration[];
  /** Pooled connections per replica (default 10). */
  readonly poolSize?: number;
  /** Where lost connections are reported; the pool replaces them on next use. */
  readonly logger?: Logger;
  /** How long to wait for a connection (default 5 s). */
  readonly connectTimeoutMs?: number;
}

/** Why PostgreSQL could not be opened; the message names the server, never the password. */
export class PostgresConnectError extends Error {
  override name = 'PostgresConnectError';
}

/**
 * Where a DATABASE_URL points, without its user and password: `host:port/database`. For messages
 * and logs.
 */
function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname || '/'}`;
  } catch {
    return 'an unreadable DATABASE_URL';
  }
}

// Key of the session-level advisory lock held while migrations run (any constant; it only has to
// be the same in every replica).
const MIGRATION_LOCK_KEY = '7264019583';

/** node-postgres, as its module exports it. */
type PgDriver = typeof pg;

/**
 * node-postgres, loaded the first time a PostgreSQL store is opened: a console on SQLite (most of
 * them) never loads it, nor the resident memory its modules take (bench/findings/memory.md).
 */
const loadDriver = async (): Promise<PgDriver> => (await import('pg')).default;

// The portable rules allow integer and bigint columns only: their values (and SUM or COUNT of
// them) fit a JavaScript number, so the stores see numbers as they do on SQLite, not strings.
const INT8 = 20;
const NUMERIC = 1700;

const typesOf = (driver: PgDriver) =>
  ({
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === INT8 || oid === NUMERIC
        ? (value: string) => Number(value)
        : driver.types.getTypeParser(oid, format),
  }) as pg.CustomTypesConfig;

/** Parameters as SQLite's adapter sends them: times as ISO-8601 text, booleans as 0/1. */
function toParams(params: unknown[] = []): unknown[] {
  return params.map((value) =>
    typeof value === 'boolean'
      ? Number(value)
      : value instanceof Date
        ? value.toISOString()
        : typeof value === 'bigint'
          ? String(value)
          : value,
  );
}

/** Statements on one checked-out connection (a transaction, or the migration run). */
function clientExecutor(client: pg.ClientBase): SqlExecutor {
  return {
    async query(sql: string, params?: unknown[]) {
      const result = await client.query(sql, toParams(params));
      return { rows: result.rows as unknown[] };
    },
    // Without parameters node-postgres uses the simple protocol, which runs several statements.
    exec: (sql) => client.query(sql),
    async notify(channel, payload) {
      await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
  };
}

/** A SqlDatabase over one connection, for running the migrations while holding the lock. */
function singleConnectionDatabase(client: pg.ClientBase): SqlDatabase {
  const run = clientExecutor(client);
  return {
    ...run,
    async transaction(work) {
      await client.query('BEGIN');
      try {
        const result = await work(run);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    async close() {},
  };
}

/** A connection checked out of the pool for several statements. */
interface CheckedOut {
  readonly client: pg.PoolClient;
  /** The connection cannot be trusted any more (a failed ROLLBACK or unlock): release drops it. */
  broken(error: Error): void;
  /** Gives the connection back, or drops it if it broke or was lost. */
  release(): void;
}

/**
 * Checks a connection out of the pool. node-postgres reports a checked-out connection's loss
 * (PostgreSQL restarting, the network dropping it) as an 'error' event, and the pool listens only
 * while the connection is idle: without this listener a connection lost between two statements of
 * a transaction would crash the process. The loss is kept instead: the statement in flight fails
 * on its own, and release() drops the connection rather than handing it to the next request.
 */
async function checkOut(pool: pg.Pool): Promise<CheckedOut> {
  const client = await pool.connect();
  let failure: Error | undefined;
  const onError = (error: Error) => {
    failure ??= error;
  };
  client.on('error', onError);
  return {
    client,
    broken(error) {
      failure ??= error;
    },
    release() {
      client.removeListener('error', onError);
      client.release(failure);
    },
  };
}

/**
 * Applies the migrations while holding an advisory lock: a second replica starting at the same
 * moment waits, then finds them applied. The lock is tied to the connection, so a replica that
 * dies mid-migration releases it.
 */
async function migrateUnderLock(pool: pg.Pool, migrations: readonly Migration[]): Promise<void> {
  const connection = await checkOut(pool);
  const { client } = connection;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(singleConnectionDatabase(client), migrations);
    } finally {
      await client
        .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
        .catch((error: Error) => connection.broken(error));
    }
  } finally {
    connection.release();
  }
}

/** Opens a pool on `options.url`, checks the server answers, and brings the schema up to date. */
export async function openPostgresDatabase(options: PostgresDatabaseOptions): Promise<SqlDatabase> {
  const { url, logger } = options;
  const driver = await loadDriver();
  const connection: pg.ClientConfig = {
    connectionString: url,
    types: typesOf(driver),
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    // A server that stops answering must not hold a request: the recorder and /readyz give up
    // sooner anyway, this frees the connection.
    query_timeout: 15_000,
    keepAlive: true,
    application_name: 'privacy-api-console',
  };
  const pool = new driver.Pool({ ...connection, max: options.poolSize ?? 10 });
  // An idle connection that breaks (server restart, network) is reported here; without a
  // listener node-postgres would crash the process.
  pool.on('error', (error) => {
    logger?.warn({ err: error }, 'a PostgreSQL connection was lost; the pool opens a new one');
  });
  try {
    await migrateUnderLock(pool, options.migrations ?? MIGRATIONS);
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof SchemaTooNewError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new PostgresConnectError(
      `could not open PostgreSQL at ${describeDatabaseUrl(url)}: ${reason}`,
      { cause: error },
    );
  }

  const listeners = new Set<() => Promise<void>>();
  let closed = false;

  return {
    async query(sql: string, params?: unknown[]) {
      const result = await pool.query(sql, toParams(params));
      return { rows: result.rows as unknown[] };
    },
    exec: (sql) => pool.query(sql),
    async transaction(work) {
      const connection = await checkOut(pool);
      const { client } = connection;
      try {
        await client.query('BEGIN');
        const result = await work(clientExecutor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client
          .query('ROLLBACK')
          .catch((rollbackError: Error) => connection.broken(rollbackError));
        throw error;
      } finally {
        connection.release();
      }
    },
    async listen(channel, handlers) {
      const stop = await listenWithReconnect(driver, connection, channel, handlers, logger);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((stop) => stop()));
      // Waits for checked-out connections (a transaction finishing its commit) to come back.
      await pool.end();
    },
  };
}

const RECONNECT_DELAY_MS = 1_000;

/**
 * A dedicated connection LISTENing on `channel` (a pooled one cannot: it would be handed to other
 * work). When it breaks it is reopened every second until it works, then `reconnected` says so.
 */
async function listenWithReconnect(
  driver: PgDriver,
  connection: pg.ClientConfig,
  channel: string,
  handlers: NotificationHandlers,
  logger: Logger | undefined,
): Promise<() => Promise<void>> {
  let current: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const open = async () => {
    const client = new driver.Client(connection);
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (current === client) current = undefined;
      client.end().catch(() => undefined);
      if (stopped) return;
      logger?.warn({ err: error }, `the PostgreSQL LISTEN connection for ${channel} was lost`);
      retry();
    };
    client.on('notification', (message) => {
      if (message.channel === channel) handlers.notification(message.payload ?? '');
    });
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      lost = true;
      client.end().catch(() => undefined);
      throw error;
    }
    current = client;
  };

  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(async () => {
      timer = undefined;
      try {
        await open();
        logger?.info(`the PostgreSQL LISTEN connection for ${channel} is back`);
        handlers.reconnected?.();
      } catch {
        retry();
      }
    }, RECONNECT_DELAY_MS);
    timer.unref();
  };

  await open();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    const client = current;
    current = undefined;
    await client?.end().catch(() => undefined);
  };
}
