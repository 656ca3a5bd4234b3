// Wires the BFF's parts from its configuration: transport, token manager, upstream client,
// event-types source and the Hono app. Tests and benchmarks use it as the process entry does.
import type { Config } from './config';
import { createApp } from './app';
import type { Logger } from './logger';
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
}

/** The composed BFF: its app and a way to release its connections. */
export function composeBff({ config, logger, upstreamBaseUrl, transport, now }: ComposeOptions) {
  const httpTransport = transport ?? createHttpTransport({ timeoutMs: config.upstream.timeoutMs });
  const baseUrl = new URL(upstreamBaseUrl);
  const tokens = new TokenManager({
    tokenUrl: new URL(config.oauth.tokenUrl ?? `${upstreamBaseUrl}/api/access/v1/oauth/token`),
    clientId: config.oauth.clientId,
    clientSecret: config.oauth.clientSecret,
    scope: config.oauth.scope,
    clientAuth: config.oauth.clientAuth,
    defaultTtlSeconds: config.oauth.defaultTokenTtlSeconds,
    transport: httpTransport,
    ...(now ? { now } : {}),
    onTokenRequest: (outcome) => logger.info({ outcome }, 'token request'),
  });
  const upstream = new UpstreamClient({ baseUrl, transport: httpTransport, tokens });
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
  });
  return {
    app,
    tokens,
    async close() {
      if ('close' in httpTransport && typeof httpTransport.close === 'function') {
        await httpTransport.close();
      }
    },
  };
}
