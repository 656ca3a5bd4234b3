// Removing an integration through the composed BFF: only a revoked one (409 for an active one),
// admins only, recorded as an administrative change, its key refused, its name free again, and
// what it reported kept in the account-wide view under its name marked as removed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountOverviewSchema, IssuedKeySchema } from '../../shared/integrations';
import { startBffHarness } from '../test-support/bff-harness';

type Harness = Awaited<ReturnType<typeof startBffHarness>>;

const NOW = Date.UTC(2026, 2, 10, 9, 30, 20);
const MINUTE = new Date(Math.floor(NOW / 60_000) * 60_000).toISOString();
const NAME = 'Nightly consent sync';

describe('removing an integration', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startBffHarness({ now: () => NOW });
  });
  afterEach(() => h.close());

  async function register(name = NAME) {
    const response = await h.request('/api/integrations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, owner: 'data team' }),
    });
    expect(response.status).toBe(201);
    return IssuedKeySchema.parse(await response.json());
  }

  const report = (key: string) =>
    h.app.request('/api/integrations/reports', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify({
        minutes: [
          {
            minute: MINUTE,
            method: 'GET',
            path: '/rest/api/consent/v4/datasubjects/profiles',
            requests: 40,
          },
        ],
      }),
    });

  const revoke = (id: string) => h.request(`/api/integrations/${id}/revoke`, { method: 'POST' });
  const remove = (id: string, as?: 'support' | 'auditor') =>
    h.request(`/api/integrations/${id}`, { method: 'DELETE' }, as ? { as } : {});
  const listedNames = async () =>
    (
      (await (await h.request('/api/integrations')).json()) as { items: { name: string }[] }
    ).items.map((item) => item.name);

  it('refuses to remove an active integration with a 409 that says to revoke it first', async () => {
    const { integration } = await register();
    const refused = await remove(integration.id);
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(await refused.json()).toMatchObject({
      type: '/problems/conflict',
      title: 'Revoke the integration first',
    });
    expect(await listedNames()).toEqual([NAME]);
    const { items } = await h.audit.search.listChanges({ limit: 50 });
    expect(items.map((item) => item.action)).not.toContain('integration.removed');
  });

  it('lets only admins remove one: support and auditors get 403 and it stays', async () => {
    const { integration } = await register();
    expect((await revoke(integration.id)).status).toBe(200);
    expect((await remove(integration.id, 'support')).status).toBe(403);
    expect((await remove(integration.id, 'auditor')).status).toBe(403);
    expect(await listedNames()).toEqual([NAME]);
  });

  it('removes a revoked one: off the list, recorded, its key refused, its name free, its history kept', async () => {
    const { integration, key } = await register();
    expect((await report(key)).status).toBe(202);
    expect((await revoke(integration.id)).status).toBe(200);

    const removed = await remove(integration.id);
    expect(removed.status).toBe(204);
    expect(await listedNames()).toEqual([]);
    expect((await remove(integration.id)).status).toBe(404);
    expect(
      (await h.request(`/api/integrations/${integration.id}/rotate`, { method: 'POST' })).status,
    ).toBe(404);

    const { items } = await h.audit.search.listChanges({ limit: 50 });
    const entry = items.find((item) => item.action === 'integration.removed');
    expect(entry).toMatchObject({ username: 'admin', target: integration.id, after: null });
    expect(JSON.parse(entry!.before!)).toEqual({ name: NAME, owner: 'data team' });
    expect(JSON.stringify(items)).not.toContain(key);

    const refused = await report(key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ type: '/problems/integration-unauthorized' });

    // Its 40 requests of this minute still count against the account's limits, under its name.
    const overview = AccountOverviewSchema.parse(
      await (await h.request('/api/account-usage')).json(),
    );
    const minute = overview.limits.find((limit) => limit.ruleId === 'account-minute');
    expect(minute?.integrations).toEqual([
      { id: integration.id, name: `${NAME} (removed integration)`, used: 40 },
    ]);
    expect(overview.integrations).toEqual([]);

    const again = await register();
    expect(again.integration.id).not.toBe(integration.id);
    expect(await listedNames()).toEqual([NAME]);
  });
});
