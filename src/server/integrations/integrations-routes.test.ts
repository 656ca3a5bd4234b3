// The integrations routes through the composed BFF: registration by admins only, the key shown
// once, the ingest route's authentication (401 with nothing stored), entry-by-entry validation
// with drops counted by reason, oversize batches (413), the per-key ingest limit (429 with
// Retry-After) and the account-wide view that results.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  IngestAnswerSchema,
  IssuedKeySchema,
  AccountOverviewSchema,
} from '../../shared/integrations';
import { startBffHarness } from '../test-support/bff-harness';
import { expectRateLimitFields } from '../test-support/rate-limit-fields';

type Harness = Awaited<ReturnType<typeof startBffHarness>>;

const NOW = Date.UTC(2026, 2, 10, 9, 30, 20);
const MINUTE = new Date(Math.floor(NOW / 60_000) * 60_000).toISOString();

describe('integration reports', () => {
  let h: Harness;
  let clock = NOW;

  beforeEach(async () => {
    clock = NOW;
    h = await startBffHarness({ now: () => clock, env: { INTEGRATION_INGEST_PER_MINUTE: '5' } });
  });
  afterEach(() => h.close());

  async function register(name = 'Nightly consent sync') {
    const response = await h.request('/api/integrations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, owner: 'data team' }),
    });
    expect(response.status).toBe(201);
    return IssuedKeySchema.parse(await response.json());
  }

  const report = (key: string | undefined, body: unknown) =>
    h.app.request('/api/integrations/reports', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify(body),
    });

  const storedRows = async () =>
    (await h.integrations.reports.minutesSince(NOW - 3_600_000)).length;

  const entry = (overrides: Record<string, unknown> = {}) => ({
    minute: MINUTE,
    method: 'GET',
    path: '/rest/api/consent/v4/datasubjects/profiles',
    requests: 40,
    ...overrides,
  });
  /** A 429 the integration saw on the profiles path, with the platform's headers and `extra`. */
  const throttle = (extra: Record<string, string> = {}) => ({
    at: new Date(NOW).toISOString(),
    method: 'GET',
    path: '/rest/api/consent/v4/datasubjects/profiles',
    headers: {
      ...extra,
      'retry-after': '60',
      'ot-ratelimit-event-id': '0b4f7c1e-8a4d-4c5e-9f1a-2b3c4d5e6f70',
      'ot-requests-allowed': '20000',
      'ot-period': 'MINUTE',
      'ot-request-made': '20001',
    },
  });

  it('refuses a report that is not JSON as an unsupported media type (415), storing nothing', async () => {
    const { key } = await register();
    const response = await h.app.request('/api/integrations/reports', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${key}` },
      body: JSON.stringify({ minutes: [entry()] }),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ type: '/problems/unsupported-media-type' });
    expect(await storedRows()).toBe(0);
  });

  it('registers an integration for admins only, shows the key once and stores only its hash', async () => {
    const issued = await register();
    expect(issued.key).toMatch(/^pacr_/);
    expect(issued.integration).toMatchObject({ name: 'Nightly consent sync', status: 'active' });
    const list = await (await h.request('/api/integrations')).json();
    expect(JSON.stringify(list)).not.toContain(issued.key);
    const support = await h.request('/api/integrations', {}, { as: 'support' });
    expect(support.status).toBe(403);
    const duplicate = await h.request('/api/integrations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'NIGHTLY consent sync' }),
    });
    expect(duplicate.status).toBe(409);
  });

  it('refuses an owner with control or bidi characters and a name that reads like one registered', async () => {
    await register();
    const add = (body: unknown) =>
      h.request('/api/integrations', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const owner of ['data team\nforged\tactive', 'team \u001b[31m', 'team \u202eevil']) {
      const refused = await add({ name: 'Preference centre', owner });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ parameter: 'owner' });
    }
    const alike = await add({ name: 'Nightly \u0441\u043ensent sync' });
    expect(alike.status).toBe(409);
    expect((await alike.json()).detail).toContain(
      'reads like the existing integration "Nightly consent sync"',
    );
    const list = await (await h.request('/api/integrations')).json();
    expect(list.items).toHaveLength(1);
  });

  it('answers 401 to a missing, unknown or revoked key and stores nothing', async () => {
    const issued = await register();
    expect((await report(undefined, { minutes: [entry()] })).status).toBe(401);
    expect((await report(`pacr_${'x'.repeat(43)}`, { minutes: [entry()] })).status).toBe(401);
    const revoked = await h.request(`/api/integrations/${issued.integration.id}/revoke`, {
      method: 'POST',
    });
    expect(revoked.status).toBe(200);
    const answer = await report(issued.key, { minutes: [entry()] });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(await storedRows()).toBe(0);
  });

  it('rotating a key stops the old one at once', async () => {
    const issued = await register();
    const rotated = IssuedKeySchema.parse(
      await (
        await h.request(`/api/integrations/${issued.integration.id}/rotate`, { method: 'POST' })
      ).json(),
    );
    expect(rotated.key).not.toBe(issued.key);
    expect((await report(issued.key, { minutes: [entry()] })).status).toBe(401);
    expect((await report(rotated.key, { minutes: [entry()] })).status).toBe(202);
  });

  it('keeps good entries, reduces paths to templates, drops bad ones and says why', async () => {
    const { key } = await register();
    const response = await report(key, {
      unknownTopLevel: 'ignored',
      minutes: [
        entry({ extra: 'dropped field' }),
        entry({
          path: '/rest/api/consent/v4/datasubjects/profiles/1d3e8f6a-4a51-4f35-9a9e-2d1c5b7a8e90',
          requests: 5,
        }),
        entry({ path: '/api/consentmanager/v1/datasubjects/jane.doe@example.com' }),
        entry({ path: '/rest/api/consent/v4/datasubjects/details?identifier=jane' }),
        entry({ body: { identifier: 'jane.doe@example.com' } }),
        entry({ token: 'eyJhbGciOi' }),
        entry({ minute: new Date(NOW + 10 * 60_000).toISOString() }),
        entry({ minute: new Date(NOW - 8 * 86_400_000).toISOString() }),
        entry({ requests: -1 }),
      ],
      throttles: [throttle({ authorization: 'Bearer secret' })],
    });
    expect(response.status).toBe(202);
    const answer = IngestAnswerSchema.parse(await response.json());
    expect(answer.accepted).toEqual({ minutes: 2, throttles: 0 });
    expect(answer.dropped).toEqual({
      total: 8,
      reasons: {
        identifier: 1,
        'query-string': 1,
        body: 1,
        token: 2,
        'future-timestamp': 1,
        'too-old': 1,
        invalid: 1,
      },
    });
    const rows = await h.integrations.reports.minutesSince(NOW - 3_600_000);
    expect(rows.map((row) => row.template).sort()).toEqual([
      '/rest/api/consent/v4/datasubjects/profiles',
      '/rest/api/consent/v4/datasubjects/profiles/{purposeGuid}',
    ]);
    const everything = JSON.stringify(await h.integrations.reports.minutesSince(0));
    expect(everything).not.toContain('1d3e8f6a');
    expect(everything).not.toContain('example.com');
  });

  it('refuses an over-large batch with 413 and stores nothing', async () => {
    const { key } = await register();
    const minutes = Array.from({ length: 501 }, (_, index) =>
      entry({ path: '/v1/preferences', requests: index }),
    );
    const response = await report(key, { minutes });
    expect(response.status).toBe(413);
    expect(await storedRows()).toBe(0);
  });

  it('holds a flooding key to its ingest limit with 429 and Retry-After', async () => {
    const { key } = await register();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let index = 0; index < 40; index += 1) {
      const response = await report(key, { minutes: [entry({ requests: 1 })] });
      statuses.push(response.status);
      if (response.status === 429 && retryAfter === null) {
        retryAfter = response.headers.get('retry-after');
        // The same RateLimit fields as every other 429 of the console.
        expect(expectRateLimitFields(response).spent).toBe('integration-reports');
      }
    }
    expect(statuses.filter((status) => status === 202)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    const rows = await h.integrations.reports.minutesSince(NOW - 3_600_000);
    expect(rows[0]?.requests).toBe(5);
    // The console still answers its own pages.
    expect((await h.request('/api/rate-limits/usage')).status).toBe(200);
  });

  it('shows the integration in the account-wide view, its share of each limit and its 429s', async () => {
    const { key, integration } = await register();
    await report(key, {
      minutes: [entry({ requests: 600, throttled: 1 })],
      throttles: [throttle()],
    });
    const view = AccountOverviewSchema.parse(
      await (await h.request('/api/account-usage', {}, { as: 'support' })).json(),
    );
    const minute = view.limits.find((limit) => limit.ruleId === 'account-minute');
    expect(minute?.integrations).toEqual([
      { id: integration.id, name: 'Nightly consent sync', used: 600 },
    ]);
    expect(minute?.unreported).toBe(20_001 - (minute?.reported ?? 0));
    const row = view.integrations[0];
    expect(row).toMatchObject({
      requestsLastMinute: 600,
      requestsLastHour: 600,
      throttledLastHour: 1,
      stale: false,
    });
    expect(view.incidents[0]).toMatchObject({
      eventId: '0b4f7c1e-8a4d-4c5e-9f1a-2b3c4d5e6f70',
      ruleId: 'account-minute',
      reporters: [{ id: integration.id, name: 'Nightly consent sync', hits: 1 }],
      topSenders: [{ id: integration.id, requests: 600 }],
    });
    // Three minutes later without a report, it is flagged stale.
    clock = NOW + 3 * 60_000;
    const later = AccountOverviewSchema.parse(await (await h.request('/api/account-usage')).json());
    expect(later.integrations[0]?.stale).toBe(true);
  });
});
