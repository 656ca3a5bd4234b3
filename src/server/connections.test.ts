// One console, two platform connections: each connection's routes reach its own platform with its
// own credential and governor, a block in one does not hold the other, the old paths stay
// `default`'s, and a connection nobody configured is a 404 that sends nothing anywhere.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_IDENTIFIERS } from '../shared/data-subject-demo';
import { startBffHarness, type BffHarness } from './test-support/bff-harness';
import { withPurpose } from './test-support/lookup-purpose';

const ADA = DEMO_IDENTIFIERS[0]!;

let h: BffHarness;

beforeAll(async () => {
  h = await startBffHarness({
    // Every list request reaches the platform: what is asked is what each connection sends.
    env: { EVENT_TYPES_CACHE_SECONDS: '0' },
    mock: { eventTypeCount: 30 },
    otherConnections: [{ name: 'uat', label: 'UAT', mock: { eventTypeCount: 7 } }],
  });
});
afterAll(() => h.close());

const countOf = async (path: string) => {
  const response = await h.request(path);
  expect(response.status, path).toBe(200);
  return ((await response.json()) as { items: unknown[] }).items.length;
};

describe('two connections in one console', () => {
  it("serves each connection's event types from its own platform, and `default`'s at the old path too", async () => {
    expect(await countOf('/api/connections/uat/event-types')).toBe(7);
    expect(await countOf('/api/connections/default/event-types')).toBe(30);
    expect(await countOf('/api/event-types')).toBe(30);
    const uat = h.others.get('uat')!;
    // Each platform was asked by its own token request and its own list request.
    expect(uat.server.state.stats().tokensIssued).toBeGreaterThanOrEqual(1);
    expect(
      h.sent.filter((request) => request.url.href.startsWith(uat.server.url)),
    ).not.toHaveLength(0);
  });

  it('answers 404 for a connection nobody configured, and sends nothing upstream', async () => {
    const before = h.sent.length;
    const response = await h.request('/api/connections/staging/event-types');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ title: 'No such connection' });
    expect(h.sent.length).toBe(before);
  });

  it("audits a lookup in UAT as UAT's, asks only UAT's platform, and a person search finds it saying so", async () => {
    const uat = h.others.get('uat')!;
    const toUat = () =>
      h.sent.filter((request) => request.url.href.startsWith(uat.server.url)).length;
    const toDefault = () =>
      h.sent.filter((request) => request.url.href.startsWith(h.upstream.url)).length;
    const [uatBefore, defaultBefore] = [toUat(), toDefault()];
    const response = await h.request('/api/connections/uat/data-subjects/lookups', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(withPurpose({ operation: 'v4-details', params: { identifier: ADA } })),
    });
    expect(response.status).toBe(200);
    await response.body?.cancel();
    expect(toUat()).toBeGreaterThan(uatBefore);
    expect(toDefault()).toBe(defaultBefore);
    // The same person looked up in production too: the search finds both sights, each named.
    const inProduction = await h.request('/api/data-subjects/lookups', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(withPurpose({ operation: 'v4-details', params: { identifier: ADA } })),
    });
    expect(inProduction.status).toBe(200);
    await inProduction.body?.cancel();
    const search = await h.request('/api/audit-trail/search', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier: ADA }),
    });
    expect(search.status).toBe(200);
    const found = (await search.json()) as { items: { connection: string; operation: string }[] };
    expect(found.items.map((item) => [item.operation, item.connection])).toEqual([
      ['v4-details', 'default'],
      ['v4-details', 'uat'],
    ]);
    // The chain covers the connection: the trail verifies with both in it.
    const verify = await h.request('/api/audit-trail/verify', { method: 'POST' });
    expect(((await verify.json()) as { ok: boolean }).ok).toBe(true);
  });

  it('refuses a person in the connections they have no role in, and lists only theirs', async () => {
    // Support in `default` only (the harness's users file), nothing in UAT.
    const cookie = await h.signIn('connection-user');
    const as = async (path: string) => {
      const response = await h.request(path, { headers: { Cookie: cookie } }, { as: null });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const before = h.sent.length;
    expect((await as('/api/connections/uat/event-types')).status).toBe(403);
    expect((await as('/api/connections/uat/rate-limits/rules')).status).toBe(403);
    expect(h.sent.length).toBe(before);
    expect((await as('/api/connections/default/event-types')).status).toBe(200);
    expect((await as('/api/connections')).body).toEqual({
      connections: [expect.objectContaining({ name: 'default', role: 'support' })],
    });
  });

  it("records an administrative change made on UAT's routes as UAT's, and at an old path as the first connection's", async () => {
    const reset = (path: string) => h.request(path, { method: 'DELETE' });
    expect((await reset('/api/connections/uat/rate-limits/reported-limits')).status).toBe(204);
    expect((await reset('/api/rate-limits/reported-limits')).status).toBe(204);
    const { items } = await h.audit.search.listChanges({ limit: 10 });
    expect(
      items
        .filter((item) => item.action === 'learned-limits.reset')
        .map((item) => item.connection)
        .reverse(),
    ).toEqual(['uat', 'default']);
  });

  it('reports each connection on /readyz, named for it', async () => {
    const response = await h.app.request('/readyz');
    const body = (await response.json()) as { checks: Record<string, unknown> };
    expect(Object.keys(body.checks)).toEqual(expect.arrayContaining(['token', 'uat/token']));
  });

  it("keeps a 429 block to the connection that met it: the other's pages are served, and the alert names UAT", async () => {
    const uat = h.others.get('uat')!;
    // An admin's destination for block alerts (at an address the guard refuses to call: what is
    // looked at is what was queued, and for which connection).
    await h.alerting.store.createDestination({
      id: 'ops-blocks',
      name: 'Ops',
      kind: 'webhook',
      url: 'http://127.0.0.1:9/hook',
      secret: null,
      signing: null,
      events: ['block.started'],
      enabled: true,
      holdBackSeconds: 60,
      createdAt: new Date().toISOString(),
    });
    uat.server.state.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 60 });
    await h.request('/api/connections/uat/event-types');
    // UAT's governor now holds UAT back: asked again, nothing more reaches UAT's platform.
    const uatStack = h.connections.find((stack) => stack.connection.name === 'uat')!;
    expect(uatStack.rateLimiting.governor.activeBlocks()).not.toHaveLength(0);
    const toUat = () =>
      h.sent.filter((request) => request.url.href.startsWith(uat.server.url)).length;
    const uatBefore = toUat();
    await h.request('/api/connections/uat/event-types');
    expect(toUat()).toBe(uatBefore);
    // Production's governor holds nothing, and its list is fetched from its platform.
    expect(h.rateLimiting.governor.activeBlocks()).toHaveLength(0);
    const toDefault = () =>
      h.sent.filter((request) => request.url.href.startsWith(h.upstream.url)).length;
    const defaultBefore = toDefault();
    expect((await h.request('/api/event-types')).status).toBe(200);
    expect(toDefault()).toBeGreaterThan(defaultBefore);
    // UAT's monitor raised the block's alert as UAT's; production's raised none.
    await vi.waitFor(async () =>
      expect(
        (await h.alerting.store.listDeliveries('ops-blocks', 10)).map((alert) => [
          alert.connection,
          alert.summary.split(':')[0],
        ]),
      ).toEqual([['uat', 'UAT']]),
    );
  });
});
