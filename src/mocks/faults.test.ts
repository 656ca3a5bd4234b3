// Fault injection as a test or demo control uses it: the next N matching requests fail (or stall)
// the way the real upstream would, then the mock behaves normally again.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PATH } from './handlers/auth';
import { EVENT_TYPES_PATH } from './handlers/event-types';
import { createMockUpstream } from './node';
import { MOCK_OPERATIONS } from './operations';

const BASE = 'https://upstream.example.test';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const sleeps: number[] = [];
const upstream = createMockUpstream({
  sleep: async (ms) => {
    sleeps.push(ms);
  },
});
const { state } = upstream;

beforeAll(() => upstream.listen());
afterEach(() => {
  state.reset();
  sleeps.length = 0;
});
afterAll(() => upstream.close());

async function requestToken(): Promise<Response> {
  return fetch(`${BASE}${TOKEN_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
  });
}

async function listEventTypes(withToken = true): Promise<Response> {
  const headers: Record<string, string> = withToken
    ? { authorization: `Bearer ${state.issueToken(['ACTIVITY_LOG']).accessToken}` }
    : {};
  return fetch(`${BASE}${EVENT_TYPES_PATH}`, { headers });
}

describe('injectFault', () => {
  it('fails the next request with the status, then answers normally', async () => {
    state.injectFault({ operation: 'event-types', status: 500 });
    expect((await listEventTypes()).status).toBe(500);
    expect((await listEventTypes()).status).toBe(200);
    expect(state.stats()).toMatchObject({ faultsServed: 1, pendingFaults: 0 });
  });

  it('hits `count` requests, and only the chosen operation', async () => {
    state.injectFault({ operation: 'event-types', status: 503, count: 2, retryAfterSeconds: 7 });
    expect((await requestToken()).status).toBe(200);
    const first = await listEventTypes();
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('7');
    expect((await listEventTypes()).status).toBe(503);
    expect((await listEventTypes()).status).toBe(200);
  });

  it('matches any operation with *', async () => {
    state.injectFault({ operation: '*', status: 502, count: 2 });
    expect((await requestToken()).status).toBe(502);
    expect((await listEventTypes()).status).toBe(502);
    expect((await requestToken()).status).toBe(200);
  });

  it('applies before authentication, so a request without a token still gets the fault', async () => {
    state.injectFault({ operation: 'event-types', status: 500 });
    expect((await listEventTypes(false)).status).toBe(500);
    expect((await listEventTypes(false)).status).toBe(401);
  });

  it('gives a 429 the upstream rate-limit headers, one event id per injected fault', async () => {
    const fault = state.injectFault({ operation: 'event-types', status: 429, count: 2 });
    const first = await listEventTypes();
    const second = await listEventTypes();
    expect(first.status).toBe(429);
    const eventId = first.headers.get('ot-ratelimit-event-id');
    expect(eventId).toMatch(UUID);
    expect(eventId).toBe(fault.rateLimitEventId);
    expect(second.headers.get('ot-ratelimit-event-id')).toBe(eventId);
    expect(first.headers.get('retry-after')).toBe('60');
    expect(first.headers.get('ot-period')).toBe('MINUTE');
    const allowed = Number(first.headers.get('ot-requests-allowed'));
    expect(allowed).toBe(20_000);
    expect(Number(first.headers.get('ot-request-made'))).toBeGreaterThan(allowed);
    expect(Number(second.headers.get('ot-request-made'))).toBeGreaterThan(
      Number(first.headers.get('ot-request-made')),
    );

    const another = state.injectFault({ operation: 'event-types', status: 429 });
    expect(another.rateLimitEventId).not.toBe(eventId);
  });

  it('lets headers override or remove the 429 defaults', async () => {
    state.injectFault({ operation: 'event-types', status: 429, headers: { 'OT-Period': 'HOUR' } });
    const hourly = await listEventTypes();
    expect(hourly.headers.get('ot-period')).toBe('HOUR');
    expect(hourly.headers.get('ot-requests-allowed')).toBe('200000');
    expect(hourly.headers.get('retry-after')).toBe('3600');

    state.injectFault({
      operation: 'event-types',
      status: 429,
      headers: { 'ot-ratelimit-event-id': '', 'retry-after': 'soon' },
    });
    const malformed = await listEventTypes();
    expect(malformed.status).toBe(429);
    expect(malformed.headers.has('ot-ratelimit-event-id')).toBe(false);
    expect(malformed.headers.get('retry-after')).toBe('soon');
  });

  it('delays the answer by delayMs; a 2xx fault answers normally after the delay', async () => {
    state.injectFault({ operation: 'event-types', status: 200, delayMs: 4_000 });
    state.injectFault({ operation: 'event-types', status: 504, delayMs: 250 });
    const slow = await listEventTypes();
    expect(slow.status).toBe(200);
    expect(Array.isArray(await slow.json())).toBe(true);
    expect((await listEventTypes()).status).toBe(504);
    expect(sleeps).toEqual([4_000, 250]);
  });

  it('can be cleared, and reset() forgets faults and counters', async () => {
    state.injectFault({ operation: 'event-types', status: 500, count: 5 });
    expect(state.pendingFaults()).toHaveLength(1);
    state.clearFaults();
    expect((await listEventTypes()).status).toBe(200);

    state.injectFault({ operation: '*', status: 500 });
    state.reset();
    expect(state.stats()).toEqual({
      tokenRequests: 0,
      tokensIssued: 0,
      requests: Object.fromEntries(MOCK_OPERATIONS.map((operation) => [operation, 0])),
      faultsServed: 0,
      pendingFaults: 0,
    });
  });

  it('rejects an invalid fault', () => {
    expect(() => state.injectFault({ operation: 'event-types', status: 42 })).toThrow();
    // @ts-expect-error an operation the mock does not have
    expect(() => state.injectFault({ operation: 'nope', status: 500 })).toThrow();
    expect(() =>
      state.injectFault({ operation: '*', status: 500, headers: { 'x-a': 'b\r\nc' } }),
    ).toThrow();
  });
});
