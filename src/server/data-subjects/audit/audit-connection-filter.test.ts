// The audit trail filtered by platform connection, as an auditor reads it through the API: the
// lookups and the administrative changes of one connection only, their exports holding the same
// records and saying so in their scope, and a name that cannot be a connection refused with a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminChangePageSchema } from '../../../shared/admin-changes';
import { AuditExportSignatureSchema, AuditPageSchema } from '../../../shared/audit-trail';
import { DEMO_IDENTIFIERS } from '../../../shared/data-subject-demo';
import { startBffHarness, type BffHarness } from '../../test-support/bff-harness';
import { expectProblem } from '../../test-support/expect-problem';
import { withPurpose } from '../../test-support/lookup-purpose';

const [ADA, GRACE] = DEMO_IDENTIFIERS;
const T0 = Date.UTC(2026, 10, 3, 9, 0, 0);

let h: BffHarness;
let now = T0;

/** A lookup of `identifier` at `path` (one connection's, or the old one), a minute after the last. */
async function lookUp(path: string, identifier: string) {
  now += 60_000;
  const response = await h.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(withPurpose({ operation: 'v4-details', params: { identifier } })),
  });
  expect(response.status).toBe(200);
  await response.body?.cancel();
}

beforeAll(async () => {
  h = await startBffHarness({
    now: () => now,
    otherConnections: [{ name: 'uat', label: 'UAT' }],
  });
  await lookUp('/api/connections/default/data-subjects/lookups', ADA!);
  await lookUp('/api/connections/uat/data-subjects/lookups', GRACE!);
  // A change made in UAT, as a connection's route records it.
  now += 60_000;
  await h.audit.records.recordChange({
    at: now,
    connection: 'uat',
    actor: { user: 'admin', token: null },
    address: '203.0.113.7',
    action: 'learned-limits.reset',
    target: null,
    before: { learned: [] },
    after: { learned: [] },
    requestId: null,
  });
});
afterAll(() => h.close());

async function list(path: string) {
  const response = await h.request(path, {}, { as: 'auditor' });
  expect(response.status, path).toBe(200);
  return (await response.json()) as unknown;
}

describe('the audit trail by connection', () => {
  it('lists the lookups of the connection asked for, and every connection’s without the filter', async () => {
    const all = AuditPageSchema.parse(await list('/api/audit-trail'));
    expect(all.items.map((item) => item.connection)).toEqual(['uat', 'default']);
    const uat = AuditPageSchema.parse(await list('/api/audit-trail?connection=uat'));
    expect(uat.items.map((item) => item.connection)).toEqual(['uat']);
    const production = AuditPageSchema.parse(await list('/api/audit-trail?connection=default'));
    expect(production.items.map((item) => item.connection)).toEqual(['default']);
    // A connection no longer configured is a valid filter: its records are kept all the same.
    const gone = AuditPageSchema.parse(await list('/api/audit-trail?connection=emea-old'));
    expect(gone.items).toEqual([]);
  });

  it('lists the administrative changes of the connection asked for', async () => {
    const uat = AdminChangePageSchema.parse(await list('/api/audit-trail/changes?connection=uat'));
    expect(uat.items.map((item) => [item.action, item.connection])).toEqual([
      ['learned-limits.reset', 'uat'],
    ]);
    const production = AdminChangePageSchema.parse(
      await list('/api/audit-trail/changes?connection=default'),
    );
    expect(production.items.length).toBeGreaterThan(0);
    expect(production.items.every((item) => item.connection === 'default')).toBe(true);
  });

  it.each([
    ['/api/audit-trail?connection=UAT'],
    ['/api/audit-trail?connection=uat%2F..'],
    ['/api/audit-trail/changes?connection=-uat'],
    ['/api/audit-trail/changes?connection=uat&connection=default'],
  ])('refuses %s with a 400 problem naming the connection', async (path) => {
    await expectProblem(await h.request(path, {}, { as: 'auditor' }), 400, {
      type: '/problems/invalid-parameter',
      parameter: 'connection',
      detail: expect.stringMatching(/connection name|at most once/),
    });
  });

  it('exports the lookups and the changes of one connection, the scope naming it', async () => {
    for (const [path, filters, action] of [
      ['/api/audit-trail/export', { connection: 'uat' }, 'lookups'],
      ['/api/audit-trail/changes/export', { connection: 'uat' }, 'changes'],
    ] as const) {
      const exported = await h.request(
        path,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ format: 'json', filters }),
        },
        { as: 'auditor' },
      );
      expect(exported.status, action).toBe(200);
      const file = (await exported.json()) as { records: { connection: string }[] };
      expect(file.records.map((record) => record.connection)).toEqual(['uat']);
      const signature = AuditExportSignatureSchema.parse(
        await (
          await h.request(
            `/api/audit-trail/exports/${exported.headers.get('x-export-id')}/signature`,
            {},
            { as: 'auditor' },
          )
        ).json(),
      );
      expect(signature.scope).toContain('connection uat');
    }
  });

  it('refuses an export filtered by a name that cannot be a connection', async () => {
    const response = await h.request(
      '/api/audit-trail/export',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ format: 'csv', filters: { connection: 'Production EU' } }),
      },
      { as: 'auditor' },
    );
    await expectProblem(response, 400, {
      parameter: 'connection',
      detail: expect.stringContaining('must be a connection name'),
    });
  });
});
