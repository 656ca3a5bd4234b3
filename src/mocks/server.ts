// The mock upstream as a real HTTP server (`npm run mock-upstream`): the MSW handlers answer real
// sockets, for a live-mode BFF, end-to-end tests and the "direct upstream" benchmark baseline.
import { existsSync, realpathSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import { getResponse } from 'msw';
import { MockConfigError, readMockConfig } from './config';
import { CONTROL_PREFIX, createControlApp } from './control-app';
import { createHandlers } from './handlers/create-handlers';
import { errorResponse } from './handlers/responses';
import { createMockRateLimits, type MockRateLimits } from './rate-limits/mock-rate-limits';
import { createMockState, type MockState } from './state';

/** Options of {@link startMockUpstreamServer}. */
export interface MockUpstreamServerOptions {
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** Port to listen on (default 8788; 0 picks a free one). */
  readonly port?: number;
  /** The state to serve (default a fresh one with default options). */
  readonly state?: MockState;
  /** The rate-limit model plugged into `state` (as its admission), exposed on `/__mock/rate-limits`. */
  readonly rateLimits?: MockRateLimits;
}

/** A running standalone mock upstream. */
export interface MockUpstreamServer {
  /** Base URL to give a client, e.g. `http://127.0.0.1:8788`. */
  readonly url: string;
  readonly port: number;
  readonly state: MockState;
  /** The rate-limit model, when the server was given one. */
  readonly rateLimits: MockRateLimits | undefined;
  /** Stops listening and ends open connections; resolves once the server is closed. */
  close(): Promise<void>;
}

// Idle keep-alive connections are kept for a minute so benchmark clients reuse their sockets;
// headersTimeout must exceed it (Node's rule).
const KEEP_ALIVE_TIMEOUT_MS = 60_000;
// How long close() lets in-flight requests (e.g. an injected delay) finish before cutting them.
const CLOSE_GRACE_MS = 1_000;

function notFound(): Response {
  return errorResponse(404, 'No such upstream operation');
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Starts the standalone mock upstream: each Node request becomes a Fetch `Request` answered by
 * MSW's `getResponse` over the same handlers as the in-process mock; `/__mock/*` goes to the
 * control routes; anything else is a 404 JSON.
 */
export async function startMockUpstreamServer(
  options: MockUpstreamServerOptions = {},
): Promise<MockUpstreamServer> {
  const host = options.host ?? '127.0.0.1';
  const state = options.state ?? createMockState();
  const handlers = createHandlers(state);
  const control = createControlApp(state, options.rateLimits);

  const server = createAdaptorServer({
    hostname: host,
    // Leave the process's global Request/Response alone: MSW's HttpResponse subclasses the global
    // Response, and tests or demo mode may share this process with other code.
    overrideGlobalObjects: false,
    fetch: async (request: Request) => {
      const { pathname } = new URL(request.url);
      if (pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`)) {
        return control.fetch(request);
      }
      try {
        return (await getResponse(handlers, request)) ?? notFound();
      } catch {
        return errorResponse(500, 'The mock upstream failed to answer');
      }
    },
  }) as Server;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8788, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${port}`,
    port,
    state,
    rateLimits: options.rateLimits,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
      });
      return closing;
    },
  };
}

// True when this file is the process entry (`tsx src/mocks/server.ts`), not an import.
function isProcessEntry(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(fileURLToPath(import.meta.url)) === realpathSync(entry);
  } catch {
    return import.meta.url === pathToFileURL(entry).href;
  }
}

async function main(): Promise<void> {
  let config;
  try {
    // The same optional .env as the console's (real environment variables win).
    if (existsSync('.env')) process.loadEnvFile('.env');
    config = readMockConfig();
  } catch (error) {
    if (!(error instanceof MockConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const rateLimits = config.rateLimits
    ? createMockRateLimits({ tier: config.accountTier, backgroundRpm: config.backgroundRpm })
    : undefined;
  const state = createMockState({
    eventTypeCount: config.eventTypeCount,
    tokenTtlSeconds: config.tokenTtlSeconds,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    ...(rateLimits ? { admission: rateLimits.admission } : {}),
  });
  let server: MockUpstreamServer;
  try {
    server = await startMockUpstreamServer({
      host: config.host,
      port: config.port,
      state,
      rateLimits,
    });
  } catch (error) {
    console.error(
      `Mock upstream could not listen on ${config.host}:${config.port}: ${(error as Error).message}`,
    );
    process.exit(1);
  }
  console.log(`Mock upstream listening on ${server.url}`);
  const shutdown = (): void => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (isProcessEntry()) void main();
