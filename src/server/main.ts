// The console itself, started by index.ts on a supported Node: configuration, the demo upstream
// when no real one is configured, the HTTP listener, and a graceful shutdown on SIGINT/SIGTERM.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { RedisClient } from './redis/redis-connection';
import type { DataSubjectOperation } from '../shared/data-subject-operations';
import { connectionPagePath } from '../shared/connections';
import {
  AUDIT_KEY_FILE,
  AuditKeyError,
  loadOrCreateAuditKey,
} from './data-subjects/audit/audit-key';
import { SESSION_SECRET_FILE } from './auth/session-cookie';
import { tightenPrivatePaths } from './store/private-files';
import { ConfigError, loadConfig, loadTracingEnvironment, type Config } from './config/config';
import { redactedValue } from './config/config-values';
import { startTracing, type Tracing } from './observability/tracing';
import { composeBff } from './compose';
import {
  identifierPlacementWarnings,
  loadOperationsCatalog,
} from './data-subjects/operations-file';
import { createLogger } from './observability/logger';
import type { DemoControlsPort } from './demo/demo-controls-routes';
import type { DemoTrafficPort } from './integrations/demo-integrations';
import {
  DATABASE_FILE,
  openDatabase,
  retryingDatabase,
  SchemaTooNewError,
  StoreUnavailableError,
  type SqlDatabase,
} from './store/database';
import { PostgresConnectError } from './store/postgres-database';
import { openConfiguredDatabase } from './store/configured-database';
import { closeRedis, connectRedis } from './redis/redis-connection';
import { createConsoleServer } from './http-server';
import { loadOrCreateKeyFile } from './security/key-file';

async function main(): Promise<void> {
  let config: Config;
  let dataSubjectOperations: DataSubjectOperation[];
  try {
    config = loadConfig((warning) => console.warn(`Configuration warning: ${warning}`));
    // Before anything starts: a bad DATA_SUBJECT_OPERATIONS_FILE stops the process with one line.
    dataSubjectOperations = loadOperationsCatalog(config.dataSubjects.operationsFile);
  } catch (error) {
    if (error instanceof ConfigError) {
      // CONNECTIONS_FILE's problems come together, one line each.
      for (const line of error.message.split('\n')) console.error(`Configuration error: ${line}`);
      process.exit(1);
    }
    throw error;
  }
  // Live mode requires AUDIT_KEY (config.ts); demo mode keeps a generated key under DATA_DIR.
  let auditKey: string;
  try {
    auditKey = config.dataSubjects.auditKey ?? loadOrCreateAuditKey(config.dataDir);
  } catch (error) {
    if (!(error instanceof AuditKeyError)) throw error;
    if (config.mode !== 'demo') {
      console.error(`Storage error: ${error.message}`);
      process.exit(1);
    }
    // Demo mode with an unusable DATA_DIR: a key for this run only (the store is unavailable
    // too, so nothing hashed with it is kept).
    console.error(`Storage error: ${error.message}. Demo mode uses a key for this run only.`);
    auditKey = randomBytes(32).toString('base64url');
  }
  // Demo mode without SESSION_SECRET signs cookies with a secret kept under DATA_DIR, so a restart
  // signs nobody out (the sessions themselves are in the store).
  if (config.auth.sessionSecretGenerated) {
    try {
      const sessionSecret = loadOrCreateKeyFile(config.dataDir, SESSION_SECRET_FILE);
      config = { ...config, auth: { ...config.auth, sessionSecret } };
    } catch (error) {
      console.error(
        `Storage error: could not read or create the session secret in DATA_DIR ${config.dataDir}: ${(error as Error).message}. Sign-ins last until the console stops.`,
      );
    }
  }
  const logger = createLogger(config.logLevel);
  // Traces only when OTEL_* asks for them: otherwise the SDK is never even imported.
  const tracingEnvironment = loadTracingEnvironment();
  const tracing: Tracing | undefined = tracingEnvironment
    ? await startTracing(tracingEnvironment, logger)
    : undefined;
  for (const warning of identifierPlacementWarnings(dataSubjectOperations)) {
    console.warn(`Configuration warning: ${warning}`);
  }

  let upstreamBaseUrl = config.upstream.baseUrl;
  const demoUpstreams: { close(): Promise<void> }[] = [];
  const stopDemoUpstream = async () => {
    await Promise.all(demoUpstreams.map((demo) => demo.close()));
  };
  let demoControls: DemoControlsPort | undefined;
  let demoTraffic: DemoTrafficPort | undefined;
  const connectionBaseUrls: Record<string, string> = {};
  const connectionDemoControls: Record<string, DemoControlsPort> = {};
  if (config.mode === 'demo') {
    // The one place the BFF reaches into the mock, and only in demo mode: each connection gets a
    // mock of its own (its tier's limits, its own data) serving the same MSW handlers on an
    // internal loopback port, so the upstream client cannot tell it apart from the real service.
    const { demoEventTypes, startDemoUpstream } = await import('../mocks/demo-upstream');
    for (const [index, connection] of config.connections.entries()) {
      const eventTypes = demoEventTypes(config.demo.eventTypes, index);
      const demo = await startDemoUpstream({
        clientId: connection.oauth.clientId,
        clientSecret: connection.oauth.clientSecret,
        ...(eventTypes === undefined ? {} : { eventTypes }),
        accountTier: connection.upstream.accountTier,
        // The simulated other clients of the account report as integrations, which are still
        // the first connection's (docs/architecture.md, "Connections").
        backgroundRpm: index === 0 ? config.demo.backgroundRpm : 0,
        // The mock serves the catalog as configured, so an override file can be tried in demo mode.
        dataSubjectOperations,
      });
      demoUpstreams.push(demo);
      if (index === 0) {
        upstreamBaseUrl = demo.url;
        demoControls = demo.controls;
        demoTraffic = demo.traffic;
      } else {
        connectionBaseUrls[connection.name] = demo.url;
        connectionDemoControls[connection.name] = demo.controls;
      }
    }
  }
  if (!upstreamBaseUrl) throw new Error('no upstream base URL');

  // The incident and audit store, opened and migrated before anything is served: PostgreSQL with
  // DATABASE_URL (shared by every replica), else SQLite under DATA_DIR.
  let database: SqlDatabase;
  try {
    database = await openConfiguredDatabase(
      { databaseUrl: config.scaleOut.databaseUrl, dataDir: config.dataDir },
      logger,
    );
  } catch (error) {
    if (error instanceof StoreUnavailableError) {
      // One line saying what is wrong and what to do; then serve what does not need the store
      // (event types, sign-in, the governor in memory). /readyz says "store unavailable" and the
      // store is tried again every few seconds, so fixing DATA_DIR needs no restart.
      console.error(
        `Storage error: ${error.message}. Serving without the store (no incidents or lookups recorded) and retrying every 5 s.`,
      );
      database = retryingDatabase({
        open: () => openDatabase({ dataDir: config.dataDir }),
        initialError: error,
        onOpen: () => logger.warn('the store opened: incidents and lookups are recorded again'),
      });
    } else {
      if (error instanceof SchemaTooNewError || error instanceof PostgresConnectError) {
        console.error(`Storage error: ${error.message.replace(/\s+/g, ' ')}`);
      } else {
        console.error(
          `Storage error: could not open the store in DATA_DIR ${config.dataDir}: ${(error as Error).message}`,
        );
      }
      await stopDemoUpstream();
      process.exit(1);
    }
  }
  // Files holding the trail, keys or secrets are the owner's alone; an older version made them
  // readable by others (0644): tightened now, and said once at start.
  const privatePaths = [
    config.dataDir,
    ...[
      DATABASE_FILE,
      `${DATABASE_FILE}-wal`,
      `${DATABASE_FILE}-shm`,
      AUDIT_KEY_FILE,
      SESSION_SECRET_FILE,
    ].map((name) => join(config.dataDir, name)),
    // AUDIT_CHECKPOINT_DIR is checked by its area before anything is written there
    // (checkpoint-file.ts): a place the console cannot trust stops the start.
  ];
  for (const loose of tightenPrivatePaths(privatePaths)) {
    logger.warn(
      { path: loose.path, mode: loose.mode, tightened: loose.tightened },
      loose.tightened
        ? 'a file of the audit trail or its keys was readable by other users; made owner-only'
        : `a file of the audit trail or its keys is readable by other users and was not made owner-only: ${loose.why ?? 'chmod it 600 (directories 700)'}`,
    );
  }
  // Redis (REDIS_URL), through which replicas share limits, blocks and sessions. Unreachable at
  // start stops the process; lost later, the governor falls back to its per-replica share.
  let redis: RedisClient | undefined;
  if (config.scaleOut.redisUrl) {
    try {
      redis = await connectRedis({
        url: config.scaleOut.redisUrl,
        cluster: config.scaleOut.redisCluster,
        logger,
      });
    } catch (error) {
      console.error(`Redis error: ${(error as Error).message.replace(/\s+/g, ' ')}`);
      await database.close();
      await stopDemoUpstream();
      process.exit(1);
    }
  }

  let bff: ReturnType<typeof composeBff>;
  try {
    bff = composeBff({
      config,
      logger,
      upstreamBaseUrl,
      database,
      dataSubjectOperations,
      auditKey,
      lastGoodEventTypesFile: join(config.dataDir, 'event-types-last-good.json'),
      ...(demoControls ? { demoControls } : {}),
      connectionBaseUrls,
      connectionDemoControls,
      ...(demoTraffic ? { demoTraffic } : {}),
      ...(redis ? { redis } : {}),
      processMetrics: true,
      // The audit trail's daily retention and chain walk (retention-job.ts), stopped on close.
      auditMaintenance: true,
      // What-if replays run in threads of their own, each opening the same database.
      replayDatabase: config.scaleOut.databaseUrl
        ? { kind: 'postgres', url: config.scaleOut.databaseUrl }
        : { kind: 'sqlite', dataDir: config.dataDir },
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      // CONNECTIONS_FILE's problems come together, one line each.
      for (const line of error.message.split('\n')) console.error(`Configuration error: ${line}`);
      await stopDemoUpstream();
      await database.close();
      if (redis) await closeRedis(redis);
      process.exit(1);
    }
    throw error;
  }
  // Blocks of incidents from before a restart still hold: nothing is sent before they end. Then
  // blocks and incidents start flowing between replicas.
  try {
    await bff.ready();
  } catch (error) {
    console.error(`Startup error: ${(error as Error).message.replace(/\s+/g, ' ')}`);
    process.exit(1);
  }
  // Node's HTTP server with a 16 KB header cap and problem+json for requests it cannot parse.
  const server = createConsoleServer({ fetch: bff.app.fetch, hostname: config.host });
  server.on('error', (error: NodeJS.ErrnoException) => {
    console.error(
      error.code === 'EADDRINUSE'
        ? `Port ${config.port} on ${config.host} is already in use: stop the other process or set PORT.`
        : `Could not listen on ${config.host}:${config.port}: ${error.message}`,
    );
    process.exit(1);
  });
  server.on('listening', () => {
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
    const lines = [
      `Privacy API Console listening on ${url}`,
      config.mode === 'demo'
        ? '  mode: demo (built-in mock upstream; set UPSTREAM_BASE_URL for live mode)'
        : `  mode: live (upstream ${new URL(upstreamBaseUrl).origin})`,
    ];
    // Several connections: each with the address of its pages, so the operator can open either.
    if (config.connections.length > 1) {
      for (const [index, connection] of config.connections.entries()) {
        const platform =
          config.mode === 'demo'
            ? 'its own built-in mock'
            : new URL(index === 0 ? upstreamBaseUrl : (connection.upstream.baseUrl ?? '')).origin;
        lines.push(
          `  connection "${connection.label}" (${platform}): ${url}${connectionPagePath(connection.name, 'event-types')}`,
        );
      }
    }
    if (config.mode === 'demo') {
      const users = bff.auth.users.list();
      // A password chosen with DEMO_PASSWORD is not echoed: console output often ends up in logs.
      const password =
        config.auth.demoPassword === 'demo'
          ? 'the password "demo" (set DEMO_PASSWORD to change it)'
          : 'the password set in DEMO_PASSWORD';
      lines.push(
        `  sign in as ${users.map((u) => `"${u.username}" (${u.role})`).join(' or ')} with ${password}`,
      );
      if (!/^(127\.|localhost$|::1$|\[::1\]$)/.test(config.host)) {
        lines.push(
          `  warning: demo users with a known password are reachable on ${config.host}; use HOST=127.0.0.1 or live mode`,
        );
      }
    }
    console.log(lines.join('\n'));
  });
  server.listen(config.port, config.host);

  // Graceful shutdown within 10 s: out of rotation (/readyz 503), no new connections, requests in
  // flight finish, live streams end so browsers reconnect to another replica (and replay what
  // they missed), then the store is flushed and closed.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    bff.drain();
    setTimeout(() => {
      logger.warn('shutdown took 10 s; leaving with requests still open');
      process.exit(1);
    }, 10_000).unref();
    bff.closeStreams();
    // Keep-alive connections are closed as soon as they are idle: at once, or after their answer.
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    idle.unref();
    server.close(async () => {
      clearInterval(idle);
      try {
        await bff.close();
        await database.close();
        if (redis) await closeRedis(redis);
        await stopDemoUpstream();
        // The spans still queued, sent within 2 s at most: a collector that is away must not
        // hold the shutdown past its deadline.
        await Promise.race([
          tracing?.shutdown(),
          new Promise((resolve) => setTimeout(resolve, 2_000).unref()),
        ]);
      } catch (error) {
        logger.error({ err: error }, 'error while shutting down');
        process.exit(1);
      }
      logger.info('shut down');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

// Whatever stops the start (a value no check foresaw included) is one line, never a stack trace
// that could hold a configured value; URL passwords in the message are replaced.
main().catch((error: unknown) => {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  console.error(`Start failed: ${message.split('\n')[0]?.replace(/\S+:\/\/\S*@/g, redactedValue)}`);
  process.exit(1);
});
