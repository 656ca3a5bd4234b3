// A BFF wired to a real mock upstream on an ephemeral loopback port, for route tests. The BFF
// itself is exercised through app.request (no port). The upstream client uses undici's request
// API, which MSW cannot intercept in-process, so the same MSW handlers answer over HTTP instead.
import { startMockUpstreamServer, type MockUpstreamServer } from '../../mocks/server';
import { createMockState, type MockStateOptions } from '../../mocks/state';
import { parseConfig } from '../config';
import { composeBff } from '../compose';
import { createLogger } from '../logger';
import { createHttpTransport, type TransportRequest } from '../upstream/http-transport';

export interface HarnessOptions {
  env?: Record<string, string>;
  mock?: MockStateOptions;
  staticDir?: string;
}

/** Starts a mock upstream and composes a BFF against it; call `close()` after the test. */
export async function startBffHarness({ env = {}, mock = {}, staticDir }: HarnessOptions = {}) {
  const upstream: MockUpstreamServer = await startMockUpstreamServer({
    port: 0,
    state: createMockState(mock),
  });
  const config = parseConfig({
    LOG_LEVEL: 'silent',
    STATIC_DIR: staticDir ?? 'does-not-exist',
    UPSTREAM_BASE_URL: upstream.url,
    OAUTH_CLIENT_ID: upstream.state.clientId,
    OAUTH_CLIENT_SECRET: upstream.state.clientSecret,
    ...env,
  });
  const http = createHttpTransport({ timeoutMs: config.upstream.timeoutMs });
  /** Every request the BFF sent upstream, as the upstream received it. */
  const sent: TransportRequest[] = [];
  const bff = composeBff({
    config,
    logger: createLogger('silent'),
    upstreamBaseUrl: config.upstream.baseUrl ?? upstream.url,
    transport: (request) => {
      sent.push(request);
      return http(request);
    },
  });
  const request = (path: string, init: RequestInit = {}) =>
    bff.app.request(path, {
      ...init,
      headers: { 'X-CSRF': '1', ...(init.headers as Record<string, string> | undefined) },
    });
  return {
    app: bff.app,
    upstream,
    mock: upstream.state,
    sent,
    request,
    async close() {
      await bff.close();
      await http.close();
      await upstream.close();
    },
  };
}

export type BffHarness = Awaited<ReturnType<typeof startBffHarness>>;
