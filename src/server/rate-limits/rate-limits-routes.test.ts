// The rate-limit API end to end: the BFF against the mock upstream with the published limits, an
// injected clock for both, and the incident store on an in-memory SQLite database.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import {
  IncidentPageSchema,
  IncidentSchema,
  UsageSchema,
  type Incident,
} from '../../shared/incident';
import { sampleIncident } from '../../shared/test-support/incidents';
import { createLogger } from '../observability/logger';
import { Governor } from '../governor/governor';
import { IncidentHub } from './incident-hub';
import { SqlIncidentStore } from './incident-store';
import { failingDatabase } from '../test-support/failing-database';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';
import { sharedIncidentDatabase } from '../test-support/incident-database';
import { expectProblem } from '../test-support/expect-problem';
import { readEvents } from '../test-support/read-sse-events';
import { expectRateLimitFields } from '../test-support/rate-limit-fields';
import { rateLimitsRoutes } from './rate-limits-routes';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let harness: BffHarness | undefined;
const clock = { now: T0 };
const db = sharedIncidentDatabase(async () => {
  await harness?.close();
  harness = undefined;
  clock.now = T0;
});

async function start(options: Parameters<typeof startBffHarness>[0] = {}) {
  harness = await startBffHarness({
    env: { EVENT_TYPES_CACHE_SECONDS: '0' },
    mock: { now: () => clock.now, eventTypeCount: 20 },
    mockRateLimits: true,
    now: () => clock.now,
    database: db(),
    ...options,
  });
  return harness;
}

const eventTypeCalls = (h: BffHarness) =>
  h.sent.filter((request) => request.url.pathname.endsWith('/event-types')).length;

async function incidents(h: BffHarness, query = '') {
  const response = await h.request(`/api/rate-limits/incidents${query}`);
  expect(response.status).toBe(200);
  return IncidentPageSchema.parse(await response.json()).items;
}

describe('an upstream 429', () => {
  it('becomes an incident, answers the browser with its id, and blocks the account', async () => {
    const h = await start();
    expect((await h.request('/api/event-types')).status).toBe(200);
    h.mockRateLimits!.exhaust('account-minute');
    // Filtered: no last good list of these filters stands in for the answer.
    const response = await h.request('/api/event-types?modules=Consent');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(response.headers.get('ratelimit')).toBe('"account-minute";r=0;t=60');
    expect(response.headers.get('ratelimit-policy')).toBe(
      '"account-minute";q=20000;w=60, "account-hour";q=200000;w=3600',
    );
    expect(expectRateLimitFields(response).spent).toBe('account-minute');
    const problem = await response.json();
    const eventId = h.mockRateLimits!.snapshot().blocks[0]?.eventId;
    expect(eventId).toMatch(UUID);
    expect(problem).toMatchObject({
      type: '/problems/rate-limited',
      status: 429,
      upstreamStatus: 429,
      retryAfterSeconds: 60,
      incidentId: eventId,
      ruleId: 'account-minute',
    });

    const [incident] = await incidents(h);
    // The account-minute block of the event-types list, under the platform's event id.
    const {
      seq: _seq,
      headers: _headers,
      ...expected
    } = sampleIncident({
      key: eventId!,
      eventId: eventId!,
    });
    expect(incident).toMatchObject(expected);

    const usage = UsageSchema.parse(await (await h.request('/api/rate-limits/usage')).json());
    const block = {
      scope: 'account',
      ruleId: 'account-minute',
      ruleName: 'Account minute limit',
      cause: 'platform',
      reason:
        'The platform blocked the account: the Account minute limit was used up, and every request of the account is refused until the block ends.',
      until: new Date(T0 + 60_000).toISOString(),
      incidentKey: eventId,
    };
    expect(usage.blocks).toEqual([block]);
    // Every limit says so, in the same words: the hour limit is stopped by the account's block.
    expect(usage.rules.find((rule) => rule.ruleId === 'account-hour')?.block).toEqual(block);
    expect(usage.rules.find((rule) => rule.ruleId === 'account-minute')).toMatchObject({
      used: 3, // the token request and two calls
      limit: 20_000,
      blockedUntil: new Date(T0 + 60_000).toISOString(),
    });
  });

  it('is respected to the second: nothing is sent before Retry-After has passed', async () => {
    const h = await start();
    h.mockRateLimits!.exhaust('account-minute');
    expect((await h.request('/api/event-types')).status).toBe(429);
    const sentAfter429 = eventTypeCalls(h);

    clock.now = T0 + 59_999;
    const early = await h.request('/api/event-types');
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('1');
    expect(await early.json()).toMatchObject({ limitedBy: 'upstream-block' });
    expect(eventTypeCalls(h)).toBe(sentAfter429);

    clock.now = T0 + 60_000;
    expect((await h.request('/api/event-types')).status).toBe(200);
    expect(eventTypeCalls(h)).toBe(sentAfter429 + 1);
    expect(h.mockRateLimits!.snapshot().refused).toBe(1);
  });

  it('counts concurrent 429s of one occurrence as hits of one incident', async () => {
    const h = await start({
      mockRateLimits: undefined,
      mock: { now: () => clock.now, sleep: () => new Promise((r) => setTimeout(r, 30)) },
    });
    h.mock.injectFault({ operation: 'event-types', status: 429, count: 3, delayMs: 1 });
    const responses = await Promise.all(
      ['Assessments', 'Consent', 'Vendor Risk'].map((module) =>
        h.request(`/api/event-types?modules=${encodeURIComponent(module)}`),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual([429, 429, 429]);
    const ids = await Promise.all(responses.map(async (r) => (await r.json()).incidentId));
    expect(new Set(ids).size).toBe(1);
    const list = await incidents(h);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ key: ids[0], hits: 3 });
  });

  it('with garbage headers is recorded, flagged, under a generated key, and blocks at most an hour', async () => {
    const h = await start({ mockRateLimits: undefined });
    h.mock.injectFault({
      operation: 'event-types',
      status: 429,
      retryAfterSeconds: 86_400,
      headers: {
        'ot-ratelimit-event-id': 'not-a-uuid',
        'ot-period': 'DAY',
        'ot-requests-allowed': '-3',
      },
    });
    const response = await h.request('/api/event-types');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3600');
    const [incident] = await incidents(h);
    expect(incident?.key).toMatch(/^unidentified-/);
    expect(incident).toMatchObject({
      eventId: null,
      period: null,
      ruleId: null,
      scope: 'account',
      retryAfterSeconds: 86_400,
      blockedUntil: new Date(T0 + 3_600_000).toISOString(),
      headers: {
        'ot-ratelimit-event-id': 'not-a-uuid',
        'ot-period': 'DAY',
        'retry-after': '86400',
      },
    });
    expect(incident?.flags).toEqual(
      expect.arrayContaining([
        'malformed-event-id',
        'unknown-period',
        'malformed-requests-allowed',
        'retry-after-capped',
      ]),
    );
  });

  it('from the token endpoint is an incident too, and the browser sees the rate limit', async () => {
    const h = await start({ mockRateLimits: undefined });
    h.mock.injectFault({ operation: 'token', status: 429 });
    const response = await h.request('/api/event-types');
    expect(response.status).toBe(429);
    const problem = await response.json();
    expect(problem).toMatchObject({
      type: '/problems/rate-limited',
      incidentId: expect.stringMatching(UUID),
    });
    const [incident] = await incidents(h);
    expect(incident).toMatchObject({ operation: 'token', key: problem.incidentId });
  });

  it('keeps blocking after a restart until its Retry-After has passed', async () => {
    const first = await start();
    first.mockRateLimits!.exhaust('account-minute');
    const eventId = (await (await first.request('/api/event-types')).json()).incidentId;
    await first.close();
    harness = undefined;

    clock.now = T0 + 30_000;
    const second = await start();
    const response = await second.request('/api/event-types');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(await response.json()).toMatchObject({ incidentId: eventId });
    expect(eventTypeCalls(second)).toBe(0);
  });

  it('reaches the browser even when the store cannot write it, and /readyz says so', async () => {
    const failing = failingDatabase('No space left on device');
    const h = await start({ database: failing });
    expect((await h.app.request('/readyz')).status).toBe(503);
    h.mockRateLimits!.exhaust('account-minute');
    const response = await h.request('/api/event-types');
    expect(response.status).toBe(429);
    expect((await response.json()).incidentId).toMatch(UUID);
    const ready = await h.app.request('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: 'degraded',
      checks: {
        store: { ok: false },
        incidentWrites: { ok: false, error: 'No space left on device' },
      },
    });
  });
});

describe('GET /api/rate-limits/*', () => {
  it('rules: the table for the tier, with what the console keeps', async () => {
    const h = await start({
      env: {
        EVENT_TYPES_CACHE_SECONDS: '0',
        ACCOUNT_TIER: 'sandbox',
        RATE_LIMIT_SOFT_LIMITS: 'ignore',
      },
    });
    const body = await (await h.request('/api/rate-limits/rules')).json();
    expect(body.accountTier).toBe('sandbox');
    expect(body.rules[0]).toMatchObject({
      id: 'account-minute',
      limits: [{ limit: 5_000 }],
      enforced: true,
    });
    expect(body.rules.find((r: { id: string }) => r.id === 'v4-details-minute')).toMatchObject({
      kind: 'soft',
      enforced: false,
    });
  });

  it('incidents: validated filters', async () => {
    const h = await start();
    for (const query of [
      '?period=DAY',
      '?since=yesterday',
      '?since=2025-01-06T10:00:00Z&until=2025-01-06T09:00:00Z',
      '?rule=no-such-rule',
      '?limit=0',
      '?limit=201',
      '?cursor=bm9wZQ',
      '?order=asc',
      '?period=MINUTE&period=HOUR',
    ]) {
      const response = await h.request(`/api/rate-limits/incidents${query}`);
      expect(response.status, query).toBe(400);
      expect((await response.json()).type).toBe('/problems/invalid-parameter');
    }
    expect(
      (
        await h.request(
          '/api/rate-limits/incidents?since=2025-01-06T09:00:00Z&period=MINUTE&rule=unmatched&limit=5',
        )
      ).status,
    ).toBe(200);
  });

  it('incidents: an empty filter means no filter, and a bad one is a problem+json 400', async () => {
    const h = await start();
    h.mockRateLimits!.exhaust('account-minute');
    expect((await h.request('/api/event-types')).status).toBe(429);
    const all = await incidents(h);
    expect(all).toHaveLength(1);
    // What a filter form sends when its fields are cleared.
    expect(await incidents(h, '?since=&until=&period=&rule=')).toEqual(all);
    expect(await incidents(h, '?since=2025-01-06T09:01:00Z')).toEqual([]);

    const refused = await h.request('/api/rate-limits/incidents?period=DAY&order=asc');
    await expectProblem(refused, 400, {
      type: '/problems/invalid-parameter',
      title: 'Invalid query parameter',
      parameter: 'order',
      detail: 'order: unknown parameter; use since, until, period, rule, limit, cursor',
    });
    for (const query of ['?limit=', '?cursor=']) {
      const paging = await h.request(`/api/rate-limits/incidents${query}`);
      expect(paging.status, query).toBe(400);
    }
  });

  it('are open to the support role, and the stream needs no X-CSRF header', async () => {
    const h = await start();
    expect((await h.request('/api/rate-limits/usage', {}, { as: 'support' })).status).toBe(200);
    expect((await h.request('/api/rate-limits/incidents', {}, { as: null })).status).toBe(401);
    const cookie = await h.signIn('support');
    const stream = await h.app.request('/api/rate-limits/stream', { headers: { Cookie: cookie } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    await stream.body?.cancel();
  });

  it('meta: mode and tier for the SPA', async () => {
    const h = await start();
    const meta = await (await h.request('/api/meta')).json();
    expect(meta).toMatchObject({
      mode: 'live',
      accountTier: 'production',
      demoControls: false,
      oauthClientId: expect.any(String),
      operations: { 'event-types': 'GET /api/audit/v4/audits/event-types' },
    });
    // What support is told never includes the secret.
    expect(JSON.stringify(meta)).not.toMatch(/secret/i);
  });
});

describe('GET /api/rate-limits/stream', () => {
  it('pushes incidents live and replays what a dropped connection missed', async () => {
    const h = await start({ mockRateLimits: undefined });
    const first = await h.request('/api/rate-limits/stream');
    const readFirst = readEvents(first, (events) => events.some((e) => e.event === 'incident'));
    // The stream has subscribed to the hub before the 429 arrives.
    await expect.poll(() => h.rateLimiting.hub.size).toBe(1);
    h.mock.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 1 });
    await h.request('/api/event-types');
    const seen = await readFirst;
    expect(seen[0]).toMatchObject({ event: 'ready', id: '0' });
    const live = seen.find((e) => e.event === 'incident')!;
    const liveIncident: Incident = IncidentSchema.parse(JSON.parse(live.data));
    expect(live.id).toBe(String(liveIncident.seq));

    // Disconnected: two more incidents happen (one new, one update of the first).
    clock.now += 2_000;
    h.mock.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 1 });
    await h.request('/api/event-types');
    const missed = (await incidents(h))[0]!;
    expect(missed.key).not.toBe(liveIncident.key);

    const again = await h.request('/api/rate-limits/stream', {
      headers: { 'Last-Event-ID': live.id! },
    });
    const replayed = await readEvents(again, (events) => events.some((e) => e.event === 'ready'));
    expect(replayed.map((e) => [e.event, e.id])).toEqual([
      ['incident', String(missed.seq)],
      ['ready', String(missed.seq)],
    ]);
    expect(JSON.parse(replayed[0]!.data)).toMatchObject({ key: missed.key, hits: 1 });

    // A reconnect by query parameter (a fresh EventSource cannot set the header) works the same.
    const byQuery = await h.request(`/api/rate-limits/stream?lastEventId=${live.id}`);
    expect(
      (await readEvents(byQuery, (events) => events.some((e) => e.event === 'ready')))[0]?.id,
    ).toBe(String(missed.seq));
    expect((await h.request('/api/rate-limits/stream?lastEventId=abc')).status).toBe(400);
  });

  it('sends a heartbeat while nothing happens', async () => {
    const database = db();
    const governor = new Governor({ tier: 'production' });
    const app = new Hono().route(
      '/s',
      rateLimitsRoutes({
        governor,
        store: new SqlIncidentStore(database, { connection: DEFAULT_CONNECTION }),
        hub: new IncidentHub(),
        logger: createLogger('silent'),
        // The stream records no administrative change.
        recordChange: () => Promise.resolve(),
        now: () => clock.now,
        heartbeatMs: 10,
      }),
    );
    const response = await app.request('/s/stream');
    const events = await readEvents(
      response,
      (list) => list.filter((e) => e.event === 'heartbeat').length >= 2,
    );
    expect(events.filter((e) => e.event === 'heartbeat')).toHaveLength(2);
    expect(JSON.parse(events.find((e) => e.event === 'heartbeat')!.data)).toEqual({
      at: new Date(clock.now).toISOString(),
    });
  });
});

describe("the rate-limits and planning pages' first answers", () => {
  // What the pages ask for on a first visit, each a few KB of JSON without a secret or an echo.
  const PAGE_ANSWERS = [
    '/api/rate-limits/rules',
    '/api/rate-limits/usage',
    '/api/alerts/forecast',
    '/api/account-usage',
    '/api/planning/policies',
  ];

  it.each(PAGE_ANSWERS)(
    'sends %s gzipped to a browser, the same JSON as sent uncompressed',
    async (path) => {
      const h = await start();
      const plain = await h.request(path);
      expect(plain.headers.get('content-encoding')).toBeNull();
      const plainJson: unknown = await plain.json();

      const zipped = await h.request(path, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
      expect(zipped.status).toBe(200);
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
      expect(zipped.headers.get('cache-control')).toBe('no-store');
      expect(zipped.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const unpacked = gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString('utf8');
      // The clock stands still, so both answers describe the same moment.
      expect(JSON.parse(unpacked)).toEqual(plainJson);
    },
  );
});
