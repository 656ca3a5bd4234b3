import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { EventTypesResponseSchema, type EventType } from '../../shared/event-types';
import { GZIP_MIN_BYTES } from '../http/gzip-answer';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';

const DATA: EventType[] = [
  { code: 1, value: 'Assessment Created', objectTypeName: 'Assessment', moduleName: 'Assessments' },
  { code: 2, value: 'Vendor Added', objectTypeName: 'Vendor', moduleName: 'Vendor Risk' },
  { code: 3, value: 'Consent Given', objectTypeName: 'Purpose', moduleName: 'Consent' },
  { code: 4, value: 'Orphan Event' },
  { value: 'No Code', objectTypeName: 'Vendor', moduleName: 'Vendor Risk' },
];

let harness: BffHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(env: Record<string, string> = {}, staticDir?: string) {
  harness = await startBffHarness({
    env,
    mock: { eventTypes: DATA },
    ...(staticDir ? { staticDir } : {}),
  });
  return harness;
}

async function problemOf(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return (await response.json()) as Record<string, unknown>;
}

describe('GET /api/event-types', () => {
  it('answers { items, fetchedAt } and passes records with missing fields through', async () => {
    const h = await start();
    const response = await h.request('/api/event-types');
    expect(response.status).toBe(200);
    const body = EventTypesResponseSchema.parse(await response.json());
    expect(body.items).toHaveLength(5);
    expect(body.items).toContainEqual({ code: 4, value: 'Orphan Event' });
    expect(body.items).toContainEqual({
      value: 'No Code',
      objectTypeName: 'Vendor',
      moduleName: 'Vendor Risk',
    });
    expect(Date.parse(body.fetchedAt)).not.toBeNaN();
  });

  it('forwards repeated filters by default and the upstream narrows the list', async () => {
    const h = await start();
    const response = await h.request(
      '/api/event-types?modules=Vendor%20Risk&modules=Consent&objectTypes=Vendor',
    );
    const body = EventTypesResponseSchema.parse(await response.json());
    expect(body.items.map((item) => item.value)).toEqual(['Vendor Added', 'No Code']);
    const url = h.sent.find((r) => r.url.pathname.endsWith('/event-types'))?.url;
    expect(url?.searchParams.getAll('modules')).toEqual(['Consent', 'Vendor Risk']);
    expect(url?.searchParams.getAll('objectTypes')).toEqual(['Vendor']);
  });

  it('sends comma-separated filters with ARRAY_QUERY_STYLE=comma', async () => {
    const h = await start({ ARRAY_QUERY_STYLE: 'comma' });
    const response = await h.request('/api/event-types?modules=Consent&modules=Assessments');
    const body = EventTypesResponseSchema.parse(await response.json());
    expect(body.items.map((item) => item.code)).toEqual([1, 3]);
    const url = h.sent.find((r) => r.url.pathname.endsWith('/event-types'))?.url;
    expect(url?.search).toBe('?modules=Assessments%2CConsent');
  });

  it.each([
    ['an empty value', 'modules=', 'modules'],
    ['a value over 200 characters', `objectTypes=${'x'.repeat(201)}`, 'objectTypes'],
    ['a control character', 'modules=Consent%0AInjected', 'modules'],
    [
      'more than 100 values',
      Array.from({ length: 101 }, (_, i) => `modules=m${i}`).join('&'),
      'modules',
    ],
    ['an unknown parameter', 'module=Consent', 'module'],
  ])(
    'refuses %s with a 400 naming the parameter, sending nothing upstream',
    async (_, query, parameter) => {
      const h = await start();
      const response = await h.request(`/api/event-types?${query}`);
      expect(response.status).toBe(400);
      const problem = await problemOf(response);
      expect(problem).toMatchObject({
        type: '/problems/invalid-parameter',
        status: 400,
        parameter,
      });
      expect(h.sent).toHaveLength(0);
    },
  );

  it('refuses a comma inside a value when the wire style is comma', async () => {
    const h = await start({ ARRAY_QUERY_STYLE: 'comma' });
    const response = await h.request('/api/event-types?modules=a%2Cb');
    expect(response.status).toBe(400);
    expect(h.sent).toHaveLength(0);
  });

  it('refuses a request without X-CSRF: 1 before fetching any token', async () => {
    const h = await start();
    const response = await h.app.request('/api/event-types');
    expect(response.status).toBe(403);
    expect(await problemOf(response)).toMatchObject({ type: '/problems/csrf-missing' });
    expect(h.sent).toHaveLength(0);
  });

  it.each([
    [400, '/problems/upstream-bad-request'],
    [403, '/problems/upstream-forbidden'],
    [500, '/problems/upstream-error'],
    [503, '/problems/upstream-error'],
  ])('turns an upstream %i into a 502 problem %s', async (status, type) => {
    const h = await start();
    h.mock.injectFault({ operation: 'event-types', status });
    const response = await h.request('/api/event-types');
    expect(response.status).toBe(502);
    const problem = await problemOf(response);
    expect(problem).toMatchObject({ type, upstreamStatus: status });
    expect(typeof problem.title).toBe('string');
    expect(JSON.stringify(problem)).not.toMatch(/stack|Bearer|access_token/i);
  });

  it('renews the token once and retries once after an upstream 401', async () => {
    const h = await start();
    h.mock.injectFault({ operation: 'event-types', status: 401 });
    const response = await h.request('/api/event-types');
    expect(response.status).toBe(200);
    expect(h.mock.stats().tokenRequests).toBe(2);
    expect(h.mock.stats().requests['event-types']).toBe(2);
  });

  it('gives up after the one retry when the upstream keeps answering 401', async () => {
    const h = await start();
    h.mock.injectFault({ operation: 'event-types', status: 401, count: 5 });
    const response = await h.request('/api/event-types');
    expect(response.status).toBe(502);
    expect(await problemOf(response)).toMatchObject({ type: '/problems/upstream-unauthorized' });
    expect(h.mock.stats().requests['event-types']).toBe(2);
    expect(h.mock.stats().tokenRequests).toBe(2);
  });

  it('passes a 429 on with Retry-After, the seconds to wait and the incident id', async () => {
    const h = await start();
    h.mock.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 42 });
    const response = await h.request('/api/event-types');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('42');
    const problem = await problemOf(response);
    expect(problem).toMatchObject({ type: '/problems/rate-limited', retryAfterSeconds: 42 });
    expect(problem.incidentId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports rejected client credentials without revealing them', async () => {
    const h = await start({ OAUTH_CLIENT_SECRET: 'wrong-secret-value' });
    const response = await h.request('/api/event-types');
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(text).toContain('/problems/upstream-unauthorized');
    expect(text).not.toContain('wrong-secret-value');
    expect(h.mock.stats().requests['event-types']).toBe(0);
  });

  it('answers 504 when the upstream is slower than UPSTREAM_TIMEOUT_MS', async () => {
    const h = await start({ UPSTREAM_TIMEOUT_MS: '150' });
    h.mock.injectFault({ operation: 'event-types', status: 200, delayMs: 1_000 });
    const response = await h.request('/api/event-types');
    expect(response.status).toBe(504);
    expect(await problemOf(response)).toMatchObject({ type: '/problems/upstream-timeout' });
  });

  it('answers 503 when the upstream cannot be reached', async () => {
    const h = await start();
    await h.upstream.close();
    const response = await h.request('/api/event-types');
    expect(response.status).toBe(503);
    expect(await problemOf(response)).toMatchObject({ type: '/problems/upstream-unavailable' });
  });

  it('costs the upstream one call for 200 concurrent identical requests and serves the cache after', async () => {
    const h = await start();
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => h.request('/api/event-types?modules=Consent')),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    await h.request('/api/event-types?modules=Consent');
    expect(h.mock.stats().requests['event-types']).toBe(1);
    expect(h.mock.stats().tokenRequests).toBe(1);
  });

  it('does not cache a failure: the next request goes upstream again', async () => {
    const h = await start();
    h.mock.injectFault({ operation: 'event-types', status: 500 });
    expect((await h.request('/api/event-types')).status).toBe(502);
    expect((await h.request('/api/event-types')).status).toBe(200);
  });
});

describe('the rest of the BFF surface', () => {
  it('answers unknown API routes with a problem+json 404, not the SPA', async () => {
    const h = await start();
    const response = await h.request('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(await problemOf(response)).toMatchObject({ type: '/problems/not-found' });
  });

  it('serves index.html for client routes and sets the security headers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spa-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    const h = await start({}, dir);
    const response = await h.app.request('/event-types?modules=Consent');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>console</title>');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers /healthz', async () => {
    const h = await start();
    const response = await h.app.request('/healthz');
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});

describe('GET /api/event-types when the platform cannot be asked', () => {
  it('answers the last good list, marked with why, during a failure and a rate-limit block', async () => {
    const h = await start({ EVENT_TYPES_CACHE_SECONDS: '0' });
    const fresh = EventTypesResponseSchema.parse(
      await (await h.request('/api/event-types')).json(),
    );
    expect(fresh.stale).toBeUndefined();

    h.mock.injectFault({ operation: 'event-types', status: 500 });
    const failed = await h.request('/api/event-types');
    expect(failed.status).toBe(200);
    const duringFailure = EventTypesResponseSchema.parse(await failed.json());
    expect(duringFailure.items).toEqual(fresh.items);
    expect(duringFailure.fetchedAt).toBe(fresh.fetchedAt);
    expect(duringFailure.stale).toMatchObject({ status: 502 });

    h.mock.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 600 });
    const blocked = EventTypesResponseSchema.parse(
      await (await h.request('/api/event-types')).json(),
    );
    expect(blocked.items).toHaveLength(DATA.length);
    expect(blocked.stale).toMatchObject({ status: 429, retryAfterSeconds: 600 });
    expect(blocked.stale?.incidentId).toMatch(/^[0-9a-f-]{36}$/);
    // While the block runs nothing is sent, and the list is still there.
    const sentBefore = h.mock.stats().requests['event-types'];
    const again = EventTypesResponseSchema.parse(
      await (await h.request('/api/event-types')).json(),
    );
    expect(again.stale?.status).toBe(429);
    expect(h.mock.stats().requests['event-types']).toBe(sentBefore);
  });

  it('still fails plainly when no good list was ever fetched', async () => {
    const h = await start();
    h.mock.injectFault({ operation: 'event-types', status: 500 });
    expect((await h.request('/api/event-types')).status).toBe(502);
  });

  it('keeps the last good list across a restart (a reload of the page after it)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'console-last-good-')), 'event-types.json');
    harness = await startBffHarness({ mock: { eventTypes: DATA }, lastGoodEventTypesFile: file });
    expect((await harness.request('/api/event-types')).status).toBe(200);
    await harness.close();
    // Written through a temporary file in the background: wait until it is there.
    await expect.poll(() => existsSync(file)).toBe(true);
    harness = await startBffHarness({ mock: { eventTypes: DATA }, lastGoodEventTypesFile: file });
    harness.mock.injectFault({ operation: 'event-types', status: 503 });
    const body = EventTypesResponseSchema.parse(
      await (await harness.request('/api/event-types')).json(),
    );
    expect(body.items).toHaveLength(DATA.length);
    expect(body.stale?.status).toBe(502);
  });

  it('does not serve a tampered file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'console-last-good-')), 'event-types.json');
    writeFileSync(file, '{"items":[{"code":"<script>"}],"fetchedAt":"yesterday"}');
    harness = await startBffHarness({ mock: { eventTypes: DATA }, lastGoodEventTypesFile: file });
    harness.mock.injectFault({ operation: 'event-types', status: 503 });
    expect((await harness.request('/api/event-types')).status).toBe(502);
  });
});

describe('GET /api/event-types compressed', () => {
  /** Enough event types for an answer over GZIP_MIN_BYTES. */
  const MANY: EventType[] = Array.from({ length: 40 }, (_, index) => ({
    code: index,
    value: `Vendor Event ${index}`,
    objectTypeName: 'Vendor',
    moduleName: 'Vendor Risk',
  }));
  const BROWSER = { 'Accept-Encoding': 'gzip, deflate, br, zstd' };

  it('sends a list of GZIP_MIN_BYTES or more gzipped to a client that takes gzip: the same bytes, smaller', async () => {
    harness = await startBffHarness({ mock: { eventTypes: MANY } });
    const plain = await harness.request('/api/event-types');
    const plainBytes = Buffer.from(await plain.arrayBuffer());
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(plainBytes.byteLength).toBeGreaterThanOrEqual(GZIP_MIN_BYTES);

    const zipped = await harness.request('/api/event-types', { headers: BROWSER });
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
    expect(zipped.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const zippedBytes = Buffer.from(await zipped.arrayBuffer());
    expect(zippedBytes.byteLength).toBeLessThan(plainBytes.byteLength / 4);
    // The gzip tool itself unpacks it, to the very answer sent uncompressed (one cached list).
    const unpacked = spawnSync('gzip', ['-d', '-c'], { input: zippedBytes });
    expect(unpacked.status).toBe(0);
    expect(unpacked.stdout.equals(plainBytes)).toBe(true);
  });

  it.each(['gzip;q=0', 'identity', 'br', 'deflate, zstd'])(
    'sends the list as it is to a client whose Accept-Encoding is %s',
    async (acceptEncoding) => {
      harness = await startBffHarness({ mock: { eventTypes: MANY } });
      const response = await harness.request('/api/event-types', {
        headers: { 'Accept-Encoding': acceptEncoding },
      });
      expect(response.headers.get('content-encoding')).toBeNull();
      expect(EventTypesResponseSchema.parse(await response.json()).items).toHaveLength(MANY.length);
    },
  );

  it('sends a list under GZIP_MIN_BYTES as it is', async () => {
    const h = await start();
    const response = await h.request('/api/event-types', { headers: BROWSER });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(EventTypesResponseSchema.parse(await response.json()).items).toHaveLength(DATA.length);
  });

  it('compresses each list fetched anew, never answering with an earlier list’s copy', async () => {
    let clock = Date.parse('2026-03-01T10:00:00.000Z');
    harness = await startBffHarness({
      mock: { eventTypes: MANY },
      env: { EVENT_TYPES_CACHE_SECONDS: '0' },
      now: () => clock,
    });
    const fetchedAt: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const response = await harness.request('/api/event-types', { headers: BROWSER });
      expect(response.headers.get('content-encoding')).toBe('gzip');
      const body = JSON.parse(gunzipSync(Buffer.from(await response.arrayBuffer())).toString());
      fetchedAt.push(EventTypesResponseSchema.parse(body).fetchedAt);
      clock += 5_000;
    }
    expect(fetchedAt).toEqual(['2026-03-01T10:00:00.000Z', '2026-03-01T10:00:05.000Z']);
  });
});
