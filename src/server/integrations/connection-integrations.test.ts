// Integrations per platform connection, through a console serving two (production and a UAT on
// the sandbox tier): each connection's registry lists and changes its own integrations only, a
// UAT key's report lands in UAT's account-wide view and is bounded by UAT's ceiling, the change
// record names UAT, a UAT integration's silence is UAT's alert, and a person without a role in UAT
// is refused there.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AccountOverviewSchema,
  IngestAnswerSchema,
  IntegrationListSchema,
  IssuedKeySchema,
} from '../../shared/integrations';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';

const NOW = Date.UTC(2026, 2, 10, 9, 30, 20);
const MINUTE = new Date(Math.floor(NOW / 60_000) * 60_000).toISOString();
const PROFILES = '/rest/api/consent/v4/datasubjects/profiles';
/** The sandbox tier's account minute limit (docs/rate-limit-model.md): UAT's ceiling. */
const UAT_CEILING = 5_000;

describe('integrations per connection', () => {
  let h: BffHarness;
  let clock = NOW;

  beforeEach(async () => {
    clock = NOW;
    h = await startBffHarness({
      now: () => clock,
      otherConnections: [{ name: 'uat', label: 'UAT', tier: 'sandbox' }],
    });
  });
  afterEach(() => h.close());

  const uat = (path: string) => `/api/connections/uat${path}`;

  async function registerIn(prefix: string, name: string) {
    const response = await h.request(`${prefix}/integrations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, owner: 'qa team' }),
    });
    expect(response.status).toBe(201);
    return IssuedKeySchema.parse(await response.json());
  }

  const namesListed = async (path: string) =>
    IntegrationListSchema.parse(await (await h.request(path)).json()).items.map(
      (item) => item.name,
    );

  const report = (key: string, requests: number) =>
    h.app.request('/api/integrations/reports', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify({
        minutes: [{ minute: MINUTE, method: 'GET', path: PROFILES, requests }],
      }),
    });

  /** The integration changes in the audit trail, newest first, with the connection each names. */
  const integrationChanges = async () =>
    (await h.audit.search.listChanges({ limit: 50 })).items
      .filter((item) => item.action.startsWith('integration.'))
      .map((item) => [item.action, item.connection]);

  const overview = async (path: string) =>
    AccountOverviewSchema.parse(await (await h.request(path)).json());

  it("registers in UAT: UAT's list shows it, production's (at either path) does not", async () => {
    const issued = await registerIn(uat(''), 'UAT smoke tests');
    expect(issued.integration.connection).toBe('uat');
    await registerIn('/api/connections/default', 'Nightly consent sync');
    expect(await namesListed(uat('/integrations'))).toEqual(['UAT smoke tests']);
    expect(await namesListed('/api/connections/default/integrations')).toEqual([
      'Nightly consent sync',
    ]);
    expect(await namesListed('/api/integrations')).toEqual(['Nightly consent sync']);
  });

  it("answers 404 to rotating, revoking or removing UAT's integration through production's address, and changes nothing", async () => {
    const { integration, key } = await registerIn(uat(''), 'UAT smoke tests');
    for (const [method, path] of [
      ['POST', `/api/connections/default/integrations/${integration.id}/rotate`],
      ['POST', `/api/integrations/${integration.id}/revoke`],
      ['DELETE', `/api/connections/default/integrations/${integration.id}`],
    ] as const) {
      const response = await h.request(path, { method });
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ title: 'No such integration' });
    }
    // The key still works: nothing was rotated or revoked.
    expect((await report(key, 10)).status).toBe(202);
    expect(await integrationChanges()).toEqual([['integration.added', 'uat']]);
    // Through its own connection's address, it is rotated.
    const rotated = await h.request(uat(`/integrations/${integration.id}/rotate`), {
      method: 'POST',
    });
    expect(rotated.status).toBe(200);
  });

  it("records the registration as UAT's change", async () => {
    const { integration } = await registerIn(uat(''), 'UAT smoke tests');
    await h.request(uat(`/integrations/${integration.id}/revoke`), { method: 'POST' });
    expect(await integrationChanges()).toEqual([
      ['integration.revoked', 'uat'],
      ['integration.added', 'uat'],
    ]);
  });

  it("counts a UAT key's report in UAT's account-wide view only", async () => {
    const { integration, key } = await registerIn(uat(''), 'UAT smoke tests');
    expect((await report(key, 40)).status).toBe(202);

    const inUat = await overview(uat('/account-usage'));
    expect(inUat.integrations.map((item) => [item.name, item.requestsLastMinute])).toEqual([
      ['UAT smoke tests', 40],
    ]);
    const minute = inUat.limits.find((limit) => limit.ruleId === 'account-minute');
    expect(minute).toMatchObject({ limit: UAT_CEILING });
    expect(minute?.integrations).toEqual([
      { id: integration.id, name: 'UAT smoke tests', used: 40 },
    ]);

    for (const path of ['/api/account-usage', '/api/connections/default/account-usage']) {
      const inProduction = await overview(path);
      expect(inProduction.integrations).toEqual([]);
      expect(JSON.stringify(inProduction.limits)).not.toContain(integration.id);
      expect(inProduction.timeline.series.map((series) => series.id)).toEqual(['console']);
    }
    expect(await h.integrations.reports.minutesSince(NOW - 3_600_000, 'default')).toEqual([]);
  });

  it("bounds a UAT key's minute by UAT's account ceiling, not production's", async () => {
    const { key } = await registerIn(uat(''), 'UAT smoke tests');
    const response = await report(key, 8_000);
    expect(response.status).toBe(202);
    expect(IngestAnswerSchema.parse(await response.json()).capped).toEqual({
      minutes: 1,
      requests: 8_000 - UAT_CEILING,
    });
    const stored = await h.integrations.reports.minutesSince(NOW - 3_600_000, 'uat');
    expect(stored.reduce((sum, row) => sum + row.requests, 0)).toBe(UAT_CEILING);
    // Production's key is held to production's ceiling (20,000): 8,000 is stored whole.
    const production = await registerIn('/api/connections/default', 'Nightly consent sync');
    const answer = IngestAnswerSchema.parse(await (await report(production.key, 8_000)).json());
    expect(answer.capped).toBeUndefined();
  });

  it("raises a UAT integration's silence as UAT's alert, not production's", async () => {
    await h.alerting.store.createDestination({
      id: 'ops-silence',
      name: 'Ops',
      kind: 'webhook',
      // An address the guard refuses to call: what is looked at is what was queued.
      url: 'http://127.0.0.1:9/hook',
      secret: null,
      signing: null,
      events: ['reporter.silent'],
      enabled: true,
      holdBackSeconds: 60,
      createdAt: new Date(NOW).toISOString(),
    });
    const { key } = await registerIn(uat(''), 'UAT smoke tests');
    expect((await report(key, 40)).status).toBe(202);
    // Past INTEGRATION_STALE_SECONDS (120 s) without a report, and past the view's cache.
    clock = NOW + 5 * 60_000;
    for (const monitor of h.alerting.monitors) await monitor.evaluate();
    const queued = await h.alerting.store.listDeliveries('ops-silence', 10);
    expect(queued.map((alert) => [alert.connection, alert.summary.split(':')[0]])).toEqual([
      ['uat', 'UAT'],
    ]);
    expect(queued[0]?.summary).toContain('UAT smoke tests');
  });

  it('refuses a person without a role in UAT there, and serves them their own', async () => {
    const cookie = await h.signIn('connection-user');
    const as = (path: string) => h.request(path, { headers: { Cookie: cookie } }, { as: null });
    expect((await as(uat('/account-usage'))).status).toBe(403);
    expect((await as(uat('/integrations'))).status).toBe(403);
    expect((await as('/api/connections/default/account-usage')).status).toBe(200);
  });
});
