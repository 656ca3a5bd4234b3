// The mock's rate-limit model as a client meets it: fixed windows on the mock's clock, the documented block
// durations for each kind of rule, one event id per blocking occurrence, soft limits that slow
// down, and other clients' traffic computed from the clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PATH } from '../handlers/auth';
import { EVENT_TYPES_PATH } from '../handlers/event-types';
import { startMockUpstreamServer, type MockUpstreamServer } from '../server';
import { createMockState } from '../state';
import { createMockRateLimits, type MockRateLimitsOptions } from './mock-rate-limits';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A minute boundary, so windows line up with the arithmetic below. */
const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);

const ROUTES = {
  'event-types': { method: 'GET', path: '/api/audit/v4/audits/event-types' },
  token: { method: 'POST', path: '/api/access/v1/oauth/token' },
  webhook: { method: 'POST', path: '/integrationmanager/api/v1/webhook/orders' },
  'v1-profiles': { method: 'GET', path: '/api/consentmanager/v1/datasubjects/profiles' },
  preferences: { method: 'GET', path: '/v1/preferences' },
};

function model(options: MockRateLimitsOptions = {}) {
  const clock = { now: T0 };
  const limits = createMockRateLimits({ now: () => clock.now, routes: ROUTES, ...options });
  const send = (operation: keyof typeof ROUTES = 'event-types') =>
    limits.admission(operation, clock.now);
  /** Sends `n` requests, returning how many got through untouched. */
  const sendMany = (n: number, operation: keyof typeof ROUTES = 'event-types') => {
    let passed = 0;
    for (let i = 0; i < n; i += 1) if (!send(operation)) passed += 1;
    return passed;
  };
  return { clock, limits, send, sendMany };
}

describe('account limits', () => {
  it('production minute: 20,000 pass, the next is a 429 with the five headers, blocked 1 minute', () => {
    const { clock, send, sendMany } = model();
    expect(sendMany(20_000)).toBe(20_000);
    const refused = send();
    expect(refused?.status).toBe(429);
    expect(refused?.headers).toEqual({
      'retry-after': '60',
      'ot-ratelimit-event-id': expect.stringMatching(UUID),
      'ot-requests-allowed': '20000',
      'ot-period': 'MINUTE',
      'ot-request-made': '20001',
    });

    clock.now += 30_000;
    const again = send();
    expect(again?.headers['ot-ratelimit-event-id']).toBe(refused?.headers['ot-ratelimit-event-id']);
    expect(again?.headers['retry-after']).toBe('30');
    expect(Number(again?.headers['ot-request-made'])).toBe(20_002);
    // The token endpoint belongs to the account too.
    expect(send('token')?.status).toBe(429);

    clock.now = T0 + 60_000 + 1;
    expect(send()).toBeUndefined();
  });

  it('gives each blocking occurrence a new id', () => {
    const { clock, limits, send } = model();
    limits.exhaust('account-minute');
    const first = send()?.headers['ot-ratelimit-event-id'];
    clock.now += 60_000;
    limits.exhaust('account-minute');
    const second = send()?.headers['ot-ratelimit-event-id'];
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(second).not.toBe(first);
  });

  it('production hour: blocked for 1 hour, to the second', () => {
    const { clock, limits, send } = model();
    clock.now += 10 * 60_000;
    limits.exhaust('account-hour');
    const refused = send();
    expect(refused?.headers).toMatchObject({
      'retry-after': '3600',
      'ot-period': 'HOUR',
      'ot-requests-allowed': '200000',
    });
    clock.now += 3_599_000;
    expect(send()?.status).toBe(429);
    clock.now += 1_000;
    expect(send()).toBeUndefined();
  });

  it('sandbox: 5,000 per minute blocks 1 minute; 50,000 per hour blocks 2 minutes', () => {
    const minute = model({ tier: 'sandbox' });
    expect(minute.sendMany(5_000)).toBe(5_000);
    expect(minute.send()?.headers).toMatchObject({
      'retry-after': '60',
      'ot-requests-allowed': '5000',
    });

    const hour = model({ tier: 'sandbox' });
    hour.limits.exhaust('account-hour');
    const refused = hour.send();
    expect(refused?.headers).toMatchObject({
      'retry-after': '120',
      'ot-period': 'HOUR',
      'ot-requests-allowed': '50000',
    });
    hour.clock.now += 119_000;
    expect(hour.send()?.headers['ot-ratelimit-event-id']).toBe(
      refused?.headers['ot-ratelimit-event-id'],
    );
    // After two minutes the block ends, but the hour is still over its limit: a new block.
    hour.clock.now += 1_000;
    const next = hour.send();
    expect(next?.status).toBe(429);
    expect(next?.headers['ot-ratelimit-event-id']).not.toBe(
      refused?.headers['ot-ratelimit-event-id'],
    );
  });

  it('counts in fixed windows: a new minute starts from zero', () => {
    const { clock, sendMany, send } = model({ tier: 'sandbox' });
    clock.now = T0 + 59_000;
    expect(sendMany(5_000)).toBe(5_000);
    clock.now = T0 + 60_000;
    expect(sendMany(5_000)).toBe(5_000);
    expect(send()?.status).toBe(429);
  });
});

describe('module rules', () => {
  it('a hard quota blocks only its own requests, for the rest of the period', () => {
    const { clock, send, sendMany } = model();
    expect(sendMany(300, 'v1-profiles')).toBe(300);
    const refused = send('v1-profiles');
    expect(refused?.headers).toMatchObject({
      'retry-after': '60',
      'ot-requests-allowed': '300',
      'ot-period': 'MINUTE',
      'ot-request-made': '301',
    });
    expect(send('event-types')).toBeUndefined();
    clock.now += 60_000;
    expect(send('v1-profiles')).toBeUndefined();
  });

  it('a quota has an hour limit too', () => {
    const { limits, send } = model();
    limits.exhaust('v1-datasubject-profiles-quota', 'HOUR');
    expect(send('v1-profiles')?.headers).toMatchObject({
      'retry-after': '3600',
      'ot-period': 'HOUR',
      'ot-requests-allowed': '18000',
    });
  });

  it('the webhook rule blocks the whole account for a minute', () => {
    const { send, sendMany } = model();
    expect(sendMany(3_000, 'webhook')).toBe(3_000);
    expect(send('webhook')?.headers['retry-after']).toBe('60');
    expect(send('event-types')?.status).toBe(429);
  });

  it('a soft limit slows requests down instead of refusing them', () => {
    const { limits, send, sendMany } = model({ softLimitDelayMs: 750 });
    expect(sendMany(3_000, 'preferences')).toBe(3_000);
    expect(send('preferences')).toEqual({ status: 200, delayMs: 750, headers: {} });
    expect(limits.snapshot()).toMatchObject({ slowed: 1, refused: 0 });
  });
});

describe('other clients of the account (background traffic)', () => {
  it('uses up the shared quota at the configured rate, computed from the clock', () => {
    const { clock, send, sendMany, limits } = model({ backgroundRpm: 12_000 });
    clock.now = T0 + 30_000; // other clients have made 6,000 requests this minute
    expect(sendMany(14_000)).toBe(14_000);
    expect(send()?.status).toBe(429);
    expect(limits.snapshot().windows).toContainEqual(
      expect.objectContaining({ ruleId: 'account-minute', count: 20_001 }),
    );
  });

  it('alone can block the account', () => {
    const { clock, send } = model({ backgroundRpm: 25_000 });
    clock.now = T0 + 50_000; // 20,833 requests by others already
    expect(send()?.status).toBe(429);
  });
});

describe('over HTTP', () => {
  const clock = { now: T0 };
  const rateLimits = createMockRateLimits({ now: () => clock.now });
  let server: MockUpstreamServer;

  beforeAll(async () => {
    server = await startMockUpstreamServer({
      port: 0,
      state: createMockState({ now: () => clock.now, admission: rateLimits.admission }),
      rateLimits,
    });
  });
  afterAll(() => server.close());

  /** Asks the mock's control endpoint to exhaust `rule`. */
  const exhaust = (rule: string) =>
    fetch(`${server.url}/__mock/rate-limits/exhaust`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rule }),
    });

  it('answers a 429 with the headers, and reports windows and blocks on /__mock/rate-limits', async () => {
    const exhausted = await exhaust('account-minute');
    expect(exhausted.status).toBe(204);
    const refused = await fetch(`${server.url}${EVENT_TYPES_PATH}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('ot-ratelimit-event-id')).toMatch(UUID);
    const token = await fetch(`${server.url}${TOKEN_PATH}`, { method: 'POST' });
    expect(token.status).toBe(429);

    const snapshot = await (await fetch(`${server.url}/__mock/rate-limits`)).json();
    expect(snapshot.blocks).toEqual([
      expect.objectContaining({ scope: 'account', ruleId: 'account-minute', hits: 2 }),
    ]);

    expect((await fetch(`${server.url}/__mock/rate-limits`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await fetch(`${server.url}${EVENT_TYPES_PATH}`)).status).toBe(401);
  });

  it('refuses an unknown rule', async () => {
    const response = await exhaust('nope');
    expect(response.status).toBe(400);
  });
});
