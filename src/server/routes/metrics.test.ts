// GET /metrics and GET /readyz as an operator meets them: Prometheus text with the upstream calls,
// token requests, governor refusals and request durations; readable from loopback or with the
// METRICS_TOKEN bearer only; and a readiness answer that names what is wrong and goes 503 while
// the process shuts down.
import { afterEach, describe, expect, it } from 'vitest';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';

let harness: BffHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(env: Record<string, string> = {}) {
  harness = await startBffHarness({ env: { EVENT_TYPES_CACHE_SECONDS: '0', ...env } });
  return harness;
}

/** What Node tells the app about a request that arrived on a socket from `address`. */
const from = (address: string) => ({
  incoming: {
    socket: { remoteAddress: address },
    httpVersion: '1.1',
    url: '/metrics',
    headers: { host: 'localhost' },
  },
});

/** The value of one sample line of the exposition text, or undefined. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('GET /metrics', () => {
  it('reports upstream calls, token requests, refusals and request durations', async () => {
    const h = await start({ ACCOUNT_MINUTE_LIMIT: '3' });
    expect((await h.request('/api/event-types')).status).toBe(200);
    expect((await h.request('/api/event-types')).status).toBe(200);
    // The token request took one of the three: the third call is held back (filtered, so no
    // last good list of the same filters can stand in).
    expect((await h.request('/api/event-types?modules=Consent')).status).toBe(429);

    const response = await h.app.request('/metrics', {}, from('127.0.0.1'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(
      sample(
        text,
        'console_upstream_requests_total{connection="default",operation="event-types",status="200"}',
      ),
    ).toBe(2);
    expect(
      sample(
        text,
        'console_upstream_requests_total{connection="default",operation="token",status="200"}',
      ),
    ).toBe(1);
    expect(
      sample(text, 'console_token_requests_total{connection="default",outcome="success"}'),
    ).toBe(1);
    expect(
      sample(
        text,
        'console_governor_rejections_total{connection="default",rule="account-minute",reason="limit"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'console_http_request_duration_seconds_count{method="GET",route="/api/event-types",status="429"}',
      ),
    ).toBe(1);
    expect(sample(text, 'console_sse_clients{connection="default"}')).toBe(0);
    expect(sample(text, 'console_governor_fallback{connection="default"}')).toBe(0);
  });

  it('counts stored incidents', async () => {
    const h = await start();
    h.mock.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 30 });
    expect((await h.request('/api/event-types')).status).toBe(429);
    const text = await (await h.app.request('/metrics', {}, from('::1'))).text();
    expect(
      sample(text, 'console_incidents_recorded_total{connection="default",scope="account"}'),
    ).toBe(1);
    expect(
      sample(
        text,
        'console_upstream_requests_total{connection="default",operation="event-types",status="429"}',
      ),
    ).toBe(1);
  });

  it('without METRICS_TOKEN, answers loopback only, and not through a proxy', async () => {
    const h = await start();
    expect((await h.app.request('/metrics', {}, from('127.0.0.1'))).status).toBe(200);
    expect((await h.app.request('/metrics', {}, from('::ffff:127.0.0.1'))).status).toBe(200);
    const remote = await h.app.request('/metrics', {}, from('10.1.2.3'));
    expect(remote.status).toBe(403);
    expect(remote.headers.get('content-type')).toBe('application/problem+json');
    expect(await remote.json()).toMatchObject({ type: '/problems/metrics-forbidden' });
    // A reverse proxy on the same host relays outside visitors from loopback.
    const relayed = await h.app.request(
      '/metrics',
      { headers: { 'X-Forwarded-For': '203.0.113.9' } },
      from('127.0.0.1'),
    );
    expect(relayed.status).toBe(403);
    // No address at all (not a socket): refused.
    expect((await h.app.request('/metrics')).status).toBe(403);
  });

  it('with METRICS_TOKEN, answers the bearer of that token only, from anywhere', async () => {
    const token = 'scrape-token-'.padEnd(40, 'x');
    const h = await start({ METRICS_TOKEN: token });
    const without = await h.app.request('/metrics', {}, from('127.0.0.1'));
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    const wrong = await h.app.request(
      '/metrics',
      { headers: { Authorization: `Bearer ${token}y` } },
      from('10.1.2.3'),
    );
    expect(wrong.status).toBe(401);
    const right = await h.app.request(
      '/metrics',
      { headers: { Authorization: `Bearer ${token}` } },
      from('10.1.2.3'),
    );
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('console_upstream_requests_total');
  });
});

describe('GET /readyz', () => {
  it('checks the store, a token and the governor; 503 once shutdown begins', async () => {
    const h = await start();
    const ready = await h.app.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ok',
      ok: true,
      checks: {
        store: { ok: true },
        incidentWrites: { ok: true },
        token: { ok: true },
        governor: { ok: true, mode: 'single' },
      },
    });
    h.drain();
    const draining = await h.app.request('/readyz');
    expect(draining.status).toBe(503);
    expect(await draining.json()).toMatchObject({
      status: 'degraded',
      checks: { shutdown: { ok: false } },
    });
  });

  it('stays in rotation, degraded and saying why, when no token can be had; asks once per probe period', async () => {
    const h = await start({ OAUTH_CLIENT_SECRET: 'not-the-secret' });
    const first = await h.app.request('/readyz');
    // An OAuth outage hits every replica alike: taking them all out would serve nobody, while
    // cached event types can still be served and incidents still recorded.
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({
      status: 'degraded',
      ok: true,
      degraded: true,
      checks: {
        token: {
          ok: false,
          cause: 'credentials-refused',
          error: expect.stringMatching(/refused the console’s client credentials.*invalid_client/),
        },
      },
    });
    const tokenRequests = h.mock.stats().tokenRequests;
    expect((await h.app.request('/readyz')).status).toBe(200);
    expect(h.mock.stats().tokenRequests).toBe(tokenRequests);
  });

  it('is live (/healthz) whatever readiness says', async () => {
    const h = await start({ OAUTH_CLIENT_SECRET: 'not-the-secret' });
    h.drain();
    expect((await h.app.request('/readyz')).status).toBe(503);
    expect(await (await h.app.request('/healthz')).json()).toEqual({ status: 'ok' });
  });

  it('stays ready while an upstream block holds the token request back', async () => {
    const h = await start();
    h.mock.injectFault({ operation: 'token', status: 429, retryAfterSeconds: 120 });
    expect((await h.request('/api/event-types')).status).toBe(429);
    const ready = await h.app.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      checks: { token: { ok: true, detail: expect.stringMatching(/held back/) } },
    });
  });

  it('with REPLICAS above 1 and no Redis, shows each replica keeping its share', async () => {
    const h = await start({ REPLICAS: '4', ACCOUNT_MINUTE_LIMIT: '8' });
    expect(await (await h.app.request('/readyz')).json()).toMatchObject({
      status: 'ok',
      checks: { governor: { ok: true, mode: 'fallback', detail: expect.stringMatching(/1\/4/) } },
    });
    // 8 ÷ 4 = 2 per minute, and the token request is one of them.
    expect((await h.request('/api/event-types')).status).toBe(200);
    expect((await h.request('/api/event-types?modules=Consent')).status).toBe(429);
  });
});
