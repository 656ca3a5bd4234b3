// The demo controls as an admin uses them in demo mode: each scenario provokes its effect in the
// built-in mock, and the probe call shows what the console makes of it.
import { describe, expect, it } from 'vitest';
import { DemoOutcomeSchema } from '../../shared/demo-scenarios';
import { IncidentPageSchema } from '../../shared/incident';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';
import { sharedIncidentDatabase } from '../test-support/incident-database';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let h: BffHarness;
const clock = { now: T0 };
const db = sharedIncidentDatabase(async () => {
  await h?.close();
});

async function start() {
  h = await startBffHarness({
    env: { EVENT_TYPES_CACHE_SECONDS: '0' },
    // The slow scenario waits on the mock's sleep: resolved at once here.
    mock: { now: () => clock.now, sleep: async () => {}, eventTypeCount: 10 },
    mockRateLimits: true,
    demoControls: true,
    now: () => clock.now,
    database: db(),
  });
  return h;
}

async function provoke(scenario: string, as: 'admin' | 'support' = 'admin') {
  return h.request(
    '/api/demo-controls',
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ scenario }),
    },
    { as },
  );
}

async function incidents() {
  return IncidentPageSchema.parse(await (await h.request('/api/rate-limits/incidents')).json())
    .items;
}

describe('POST /api/demo-controls', () => {
  it('account minute block: the probe draws a 429 that becomes an incident and blocks the account', async () => {
    await start();
    expect(await (await h.request('/api/meta')).json()).toMatchObject({ demoControls: true });
    const response = await provoke('account-minute');
    expect(response.status).toBe(200);
    const outcome = DemoOutcomeSchema.parse(await response.json());
    expect(outcome.probe).toMatchObject({ outcome: 'answered', status: 429 });
    expect(outcome.probe.incidentKey).toMatch(UUID);
    expect(await incidents()).toEqual([
      expect.objectContaining({
        key: outcome.probe.incidentKey,
        ruleId: 'account-minute',
        scope: 'account',
      }),
    ]);
    const blocked = await h.request('/api/event-types');
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).incidentId).toBe(outcome.probe.incidentKey);

    // Reset ends the blocks in the mock and in the governor.
    expect((await h.request('/api/demo-controls/reset', { method: 'POST' })).status).toBe(204);
    expect((await h.request('/api/event-types')).status).toBe(200);
  });

  it('account hour block: blocked for an hour', async () => {
    await start();
    const outcome = DemoOutcomeSchema.parse(await (await provoke('account-hour')).json());
    const [incident] = await incidents();
    expect(incident).toMatchObject({
      key: outcome.probe.incidentKey,
      ruleId: 'account-hour',
      period: 'HOUR',
    });
    expect(Date.parse(incident!.blockedUntil) - Date.parse(incident!.lastSeen)).toBe(3_600_000);
  });

  it('a 1,000-a-minute 429 on event types names no other operation’s quota', async () => {
    await start();
    DemoOutcomeSchema.parse(await (await provoke('module-quota')).json());
    const [incident] = await incidents();
    // No limit of the event-types call is 1,000 a minute under the default policy: the rule is
    // unknown, the numbers are kept, and the console blocks the account to be safe.
    expect(incident).toMatchObject({
      ruleId: null,
      scope: 'account',
      period: 'MINUTE',
      requestsAllowed: 1_000,
      operation: 'event-types',
    });
    expect(incident?.flags).toContain('unmatched-rule');
  });

  it('429 without headers: recorded, flagged, under a generated key', async () => {
    await start();
    const outcome = DemoOutcomeSchema.parse(await (await provoke('missing-headers')).json());
    expect(outcome.probe.incidentKey).toMatch(/^unidentified-/);
    const [incident] = await incidents();
    expect(incident?.flags).toContain('missing-event-id');
    expect(incident?.flags).toContain('missing-retry-after');
  });

  it('500 and slow upstream: the probe reports what it met', async () => {
    await start();
    expect(
      DemoOutcomeSchema.parse(await (await provoke('server-error')).json()).probe,
    ).toMatchObject({
      outcome: 'answered',
      status: 500,
    });
    expect(
      DemoOutcomeSchema.parse(await (await provoke('slow-upstream')).json()).probe,
    ).toMatchObject({
      outcome: 'answered',
      status: 200,
    });
    expect(h.mock.stats().faultsServed).toBe(2);
  });

  it('is for admins and support, and refuses an unknown scenario', async () => {
    await start();
    // Support engineers investigate throttling: they may use the controls too.
    expect((await h.request('/api/demo-controls', {}, { as: 'support' })).status).toBe(200);
    const bad = await provoke('meteor-strike');
    expect(bad.status).toBe(400);
    expect((await bad.json()).type).toBe('/problems/invalid-parameter');
    expect(h.mockRateLimits!.snapshot().blocks).toEqual([]);
    expect((await provoke('account-minute', 'support')).status).toBe(200);
    expect(h.mockRateLimits!.snapshot().blocks).toHaveLength(1);
  });

  it('does not exist outside demo mode', async () => {
    h = await startBffHarness({ database: db() });
    expect((await h.request('/api/demo-controls', { method: 'POST' })).status).toBe(404);
  });
});
