// Readiness as a load balancer and an operator meet it: out of rotation while the store refuses
// writes, back within seconds of the store recovering (not at the next upstream 429), and extra
// named checks (the audit trail's writes) that take the replica out or only mark it degraded.
import { describe, expect, it } from 'vitest';
import type { AreaModule } from '../runtime/area-module';
import { openDatabase, type SqlDatabase } from '../store/database';
import type { BffHarness } from '../test-support/bff-harness';
import { harnessPerTest } from '../test-support/harness-per-test';

const start = harnessPerTest();

/** An in-memory database whose writes fail while `full` is set, as on a full disk. */
async function fillableDatabase() {
  const inner = await openDatabase();
  const state = { full: false };
  const refuse = () => Promise.reject(new Error('database or disk is full'));
  const db: SqlDatabase = {
    query: (sql, params) => inner.query(sql, params),
    exec: (sql) => inner.exec(sql),
    transaction: (work) => (state.full ? refuse() : inner.transaction(work)),
    close: () => inner.close(),
  };
  return { db, state };
}

/** /readyz answers 503 with `checks`, and the health banner says the store is unavailable. */
async function expectOutOfRotation(harness: BffHarness, checks: Record<string, unknown>) {
  const out = await harness.app.request('/readyz');
  expect(out.status).toBe(503);
  expect(await out.json()).toMatchObject({ checks });
  const health = await harness.request('/api/health');
  expect(await health.json()).toMatchObject({ store: 'unavailable' });
}

describe('GET /readyz and the store', () => {
  it('goes back into rotation by itself within seconds of the disk being freed', async () => {
    const { db, state } = await fillableDatabase();
    const clock = { now: Date.parse('2030-01-01T10:00:00Z') };
    const harness = await start({
      database: db,
      mockRateLimits: true,
      now: () => clock.now,
      mock: { now: () => clock.now },
    });
    state.full = true;
    harness.mockRateLimits!.exhaust('account-minute');
    expect((await harness.request('/api/event-types')).status).toBe(429);
    await expectOutOfRotation(harness, {
      incidentWrites: { ok: false, error: 'database or disk is full' },
    });

    state.full = false;
    clock.now += 2_000;
    // No further 429 happens: the probe write alone brings the replica back.
    const back = await harness.app.request('/readyz');
    expect(back.status).toBe(200);
    expect(await back.json()).toMatchObject({ checks: { incidentWrites: { ok: true } } });
    expect(await (await harness.request('/api/health')).json()).toMatchObject({ store: 'ok' });
  });

  it('takes the replica out when a required extra check fails, and only degrades for others', async () => {
    const audit = { ok: false, error: 'audit record could not be written' };
    const harness = await start({
      readinessChecks: [
        { name: 'auditWrites', required: true, check: async () => audit },
        { name: 'optional', required: false, check: async () => ({ ok: false }) },
      ],
    });
    await expectOutOfRotation(harness, {
      auditWrites: { ok: false, error: 'audit record could not be written' },
    });
    audit.ok = true;
    const back = await harness.app.request('/readyz');
    expect(back.status).toBe(200);
    expect(await back.json()).toMatchObject({
      status: 'degraded',
      checks: { optional: { ok: false } },
    });
  });

  it('runs the checks an area declares on its module, for /readyz and /api/health alike', async () => {
    const ledger = { ok: false, error: 'the ledger does not answer' };
    const ledgerArea: AreaModule = {
      routes: [],
      start() {},
      stop() {},
      readiness: [{ name: 'ledger', required: true, check: async () => ledger }],
    };
    const harness = await start({ areas: [ledgerArea] });
    await expectOutOfRotation(harness, { ledger, store: { ok: true } });
    ledger.ok = true;
    expect((await harness.app.request('/readyz')).status).toBe(200);
    expect(await (await harness.request('/api/health')).json()).toMatchObject({ store: 'ok' });
  });
});
