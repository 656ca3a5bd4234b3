// Wires the BFF's parts from its configuration: transport, token manager, upstream client,
// event-types source and the Hono app. Tests and benchmarks use it as the process entry does.
import type { RateLimitRule } from '../shared/rate-limits';
import type { Config } from './config';
import { createApp } from './app';
import { createConsoleAuth } from './auth/console-auth';
import { createRateLimiting } from './governor/rate-limiting';
import { guardTokenTransport } from './governor/upstream-guard';
import type { Logger } from './logger';
import type { DemoControlsPort } from './routes/demo-controls';
import type { SqlDatabase } from './store/database';
import { filterUpstreamAnswers } from './security/upstream-answer-filter';
import { EventTypesSource } from './upstream/event-types-source';
import { createHttpTransport, type Transport } from './upstream/http-transport';
import { TokenManager } from './upstream/token-manager';
import { UpstreamClient } from './upstream/upstream-client';

export interface ComposeOptions {
  config: Config;
  logger: Logger;
  /** The upstream base URL; in demo mode, the address the built-in mock listens on. */
  upstreamBaseUrl: string;
  /** Replaces the HTTP transport (tests); defaults to the keep-alive undici transport. */
  transport?: Transport;
  now?: () => number;
  /** The open database (incidents); without one they are kept in memory (tests, benchmarks). */
  database?: SqlDatabase;
  /** Demo mode: the built-in mock's controls, driven in-process by the demo panel. */
  demoControls?: DemoControlsPort;
  /** Module rate-limit rules instead of upstream-api.md §8's (tests). */
  moduleRules?: readonly RateLimitRule[];
}

/** The composed BFF: its app and a way to release its connections. */
export function composeBff({
  config,
  logger,
  upstreamBaseUrl,
  transport,
  now,
  database,
  demoControls,
  moduleRules,
}: ComposeOptions) {
  // First, so a live mode without usable console users stops before anything else is built.
  const auth = createConsoleAuth({ config, logger, ...(now ? { now } : {}) });
  const httpTransport = transport ?? createHttpTransport({ timeoutMs: config.upstream.timeoutMs });
  const baseUrl = new URL(upstreamBaseUrl);
  const tokenUrl = new URL(config.oauth.tokenUrl ?? `${upstreamBaseUrl}/api/access/v1/oauth/token`);
  // The rate-limit governor: every upstream call, token requests included, passes through it.
  const rateLimiting = createRateLimiting({
    config,
    logger,
    now: now ?? Date.now,
    tokenUrl,
    ...(database ? { database } : {}),
    ...(moduleRules ? { moduleRules } : {}),
  });
  const tokens = new TokenManager({
    tokenUrl,
    clientId: config.oauth.clientId,
    clientSecret: config.oauth.clientSecret,
    scope: config.oauth.scope,
    clientAuth: config.oauth.clientAuth,
    defaultTtlSeconds: config.oauth.defaultTokenTtlSeconds,
    transport: guardTokenTransport(httpTransport, rateLimiting.guard, rateLimiting.tokenOperation),
    ...(now ? { now } : {}),
    onTokenRequest: (outcome) => logger.info({ outcome }, 'token request'),
  });
  const upstream = new UpstreamClient({
    baseUrl,
    transport: filterUpstreamAnswers(httpTransport, logger),
    tokens,
    guard: rateLimiting.guard,
  });
  const eventTypes = new EventTypesSource({
    upstream,
    arrayQueryStyle: config.upstream.arrayQueryStyle,
    cacheTtlMs: config.eventTypesCacheSeconds * 1000,
    ...(now ? { now } : {}),
  });
  const app = createApp({
    logger,
    eventTypes,
    arrayQueryStyle: config.upstream.arrayQueryStyle,
    staticDir: config.staticDir,
    auth,
    meta: {
      mode: config.mode,
      accountTier: config.upstream.accountTier,
      demoControls: demoControls !== undefined,
    },
    readiness: rateLimiting.readiness,
    rateLimits: {
      governor: rateLimiting.governor,
      store: rateLimiting.store,
      hub: rateLimiting.hub,
      logger,
      now: now ?? Date.now,
    },
    ...(demoControls
      ? {
          demoControls: {
            controls: demoControls,
            upstream,
            governor: rateLimiting.governor,
            prepare: () => tokens.getToken(),
          },
        }
      : {}),
  });
  return {
    app,
    tokens,
    auth,
    rateLimiting,
    /** Restores the blocks of stored incidents; await before serving. */
    ready: () => rateLimiting.restoreBlocks(),
    /** Ends the live incident streams so a graceful shutdown is not held up by them. */
    closeStreams: () => rateLimiting.hub.closeAll(),
    async close() {
      await rateLimiting.close();
      if ('close' in httpTransport && typeof httpTransport.close === 'function') {
        await httpTransport.close();
      }
    },
  };
}
