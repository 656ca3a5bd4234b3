// Process entry: configuration, the demo upstream when no real one is configured, the HTTP
// listener, and a graceful shutdown on SIGINT/SIGTERM.
import { serve } from '@hono/node-server';
import { ConfigError, loadConfig, type Config } from './config';
import { composeBff } from './compose';
import { createLogger } from './logger';

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
  if (config.mode === 'demo') {
    // The one place the BFF reaches into the mock, and only in demo mode: the mock serves the
    // same MSW handlers on an internal loopback port, so the upstream client cannot tell it
    // apart from the real service.
    const { startDemoUpstream } = await import('../mocks/demo-upstream');
    const demo = await startDemoUpstream({
      clientId: config.oauth.clientId,
      clientSecret: config.oauth.clientSecret,
      ...(config.demo.eventTypes === undefined ? {} : { eventTypes: config.demo.eventTypes }),
    });
    upstreamBaseUrl = demo.url;
    stopDemoUpstream = demo.close;
  }
  if (!upstreamBaseUrl) throw new Error('no upstream base URL');

  const bff = composeBff({ config, logger, upstreamBaseUrl });
  const server = serve({ fetch: bff.app.fetch, hostname: config.host, port: config.port });
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
    console.log(lines.join('\n'));
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Give in-flight requests up to 10 s, then leave regardless.
    setTimeout(() => process.exit(0), 10_000).unref();
    server.close(async () => {
      await bff.close();
      await stopDemoUpstream?.();
      process.exit(0);
    });
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

void main();
