// Process entry: configuration, the demo upstream when no real one is configured, the HTTP
// listener, and a graceful shutdown on SIGINT/SIGTERM.
import { ConfigError, loadConfig, type Config } from './config';
import { composeBff } from './compose';
import { createLogger } from './logger';
import type { DemoControlsPort } from './routes/demo-controls';
import { openDatabase, SchemaTooNewError, type SqlDatabase } from './store/database';
import { createConsoleServer } from './security/http-server';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);

  let upstreamBaseUrl = config.upstream.baseUrl;
  let stopDemoUpstream: (() => Promise<void>) | undefined;
  let demoControls: DemoControlsPort | undefined;
  if (config.mode === 'demo') {
    // The one place the BFF reaches into the mock, and only in demo mode: the mock serves the
    // same MSW handlers on an internal loopback port, so the upstream client cannot tell it
    // apart from the real service.
    const { startDemoUpstream } = await import('../mocks/demo-upstream');
    const demo = await startDemoUpstream({
      clientId: config.oauth.clientId,
      clientSecret: config.oauth.clientSecret,
      ...(config.demo.eventTypes === undefined ? {} : { eventTypes: config.demo.eventTypes }),
      accountTier: config.upstream.accountTier,
      backgroundRpm: config.demo.backgroundRpm,
    });
    upstreamBaseUrl = demo.url;
    stopDemoUpstream = demo.close;
    demoControls = demo.controls;
  }
  if (!upstreamBaseUrl) throw new Error('no upstream base URL');

  // The incident store under DATA_DIR (SQLite), opened and migrated before anything is served.
  let database: SqlDatabase;
  try {
    database = await openDatabase({ dataDir: config.dataDir });
  } catch (error) {
    if (error instanceof SchemaTooNewError) {
      console.error(`Storage error: ${error.message}`);
    } else {
      console.error(
        `Storage error: could not open the store in DATA_DIR ${config.dataDir}: ${(error as Error).message}`,
      );
    }
    await stopDemoUpstream?.();
    process.exit(1);
  }

  let bff: ReturnType<typeof composeBff>;
  try {
    bff = composeBff({
      config,
      logger,
      upstreamBaseUrl,
      database,
      ...(demoControls ? { demoControls } : {}),
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      await stopDemoUpstream?.();
      await database.close();
      process.exit(1);
    }
    throw error;
  }
  // Blocks of incidents from before a restart still hold: nothing is sent before they end.
  await bff.ready();
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

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Give in-flight requests up to 10 s, then leave regardless.
    setTimeout(() => process.exit(0), 10_000).unref();
    // Live incident streams never end by themselves; end them so the server can close.
    bff.closeStreams();
    server.close(async () => {
      await bff.close();
      await database.close();
      await stopDemoUpstream?.();
      process.exit(0);
    });
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

void main();
