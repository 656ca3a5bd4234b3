// Administrative changes in the audit trail, on both engines: each is kept with who, from where,
// before and after, covered by the same chain as lookups, so one edited, deleted or slipped in
// behind the chain's back fails verification; the trail lists them by kind, person and period.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONNECTION } from '../../../shared/connections';
import type { AdministrativeChange } from '../../http/admin-change';
import { RESET_AUDIT_TRAIL_SQL, sampleAuditEntry } from '../../test-support/audit-entry';
import { STORE_ENGINES, type TestDatabase } from '../../test-support/store-engines';
import { deriveAuditKey } from './audit-chain';
import { openAuditTrailStores, type AuditTrailStores } from './audit-trail-stores';
import { verifyAuditChain } from './verify-chain';

const CHAIN_KEY = deriveAuditKey('an-audit-key-for-the-change-tests-0123456789', 'chain');
const T0 = Date.UTC(2026, 10, 3, 9, 0, 0);

const change = (
  at: number,
  overrides: Partial<AdministrativeChange> = {},
): AdministrativeChange => ({
  at,
  connection: DEFAULT_CONNECTION,
  actor: { user: 'alice', token: null },
  address: '203.0.113.7',
  action: 'alert-destination.created',
  target: '0190c0de-0000-7000-8000-000000000001',
  before: null,
  after: { name: 'SIEM', secret: 'sha256:0123456789abcdef' },
  requestId: 'req-1',
  ...overrides,
});

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`administrative changes on ${engine.title}`, () => {
    let db: TestDatabase;
    let trail: AuditTrailStores;
    beforeAll(async () => {
      db = await engine.open();
      trail = openAuditTrailStores(db, { chainKey: CHAIN_KEY });
    });
    afterAll(() => db?.close());
    beforeEach(() => db.exec(RESET_AUDIT_TRAIL_SQL));

    const verify = () =>
      verifyAuditChain(trail.chain, CHAIN_KEY, { now: () => T0, source: 'test' });

    it('keeps an administrative change’s connection, lists by it, and fails the walk when it is moved', async () => {
      const uat = await trail.records.recordChange(change(T0, { connection: 'uat' }));
      await trail.records.recordChange(change(T0 + 1_000));
      const { items } = await trail.search.listChanges({ limit: 10 });
      expect(items.map((stored) => stored.connection)).toEqual(['default', 'uat']);
      const inUat = await trail.search.listChanges({ connection: 'uat', limit: 10 });
      expect(inUat.items.map((stored) => stored.id)).toEqual([uat.id]);
      expect(await trail.search.countChanges({ connection: 'default' })).toBe(1);
      expect(await verify()).toMatchObject({ ok: true, entries: 2 });

      await db.query('UPDATE admin_changes SET connection = $1 WHERE id = $2', ['default', uat.id]);
      const broken = await verify();
      expect(broken).toMatchObject({ ok: false, brokenAt: 1 });
      expect(broken.detail).toContain(`administrative change ${uat.id} was changed`);
    });

    it('keeps a change beside lookups in one chain that verifies', async () => {
      await trail.records.record(sampleAuditEntry(T0));
      await trail.records.recordChange(change(T0 + 1_000));
      await trail.records.record(sampleAuditEntry(T0 + 2_000));
      const result = await verify();
      expect(result).toMatchObject({ ok: true, entries: 5 });
      const { items } = await trail.search.listChanges({ limit: 10 });
      expect(items).toEqual([
        expect.objectContaining({
          username: 'alice',
          address: '203.0.113.7',
          action: 'alert-destination.created',
          before: null,
          after: JSON.stringify({ name: 'SIEM', secret: 'sha256:0123456789abcdef' }),
        }),
      ]);
    });

    it('fails verification when a change is edited, deleted or added behind the chain', async () => {
      const stored = await trail.records.recordChange(change(T0));
      await db.query(`UPDATE admin_changes SET username = 'mallory' WHERE id = $1`, [stored.id]);
      expect(await verify()).toMatchObject({
        ok: false,
        detail: `entry 1: administrative change ${stored.id} was changed after it was written`,
      });
      await db.query(`DELETE FROM admin_changes WHERE id = $1`, [stored.id]);
      expect((await verify()).detail).toContain('was deleted');
      await db.exec(RESET_AUDIT_TRAIL_SQL);
      await db.query(
        `INSERT INTO admin_changes (id, at, username, address, action)
          VALUES ('x', '2026-11-03T09:00:00.000Z', 'mallory', '::1', 'token.created')`,
      );
      expect((await verify()).detail).toContain('not in the chain');
    });

    it('filters changes by kind, person and period, tokens showing their owner', async () => {
      await trail.records.recordChange(change(T0));
      await trail.records.recordChange(
        change(T0 + 60_000, {
          actor: { user: 'bob', token: { id: 't1', name: 'deploy' } },
          action: 'threshold.changed',
        }),
      );
      const kinds = await trail.search.listChanges({ kind: 'threshold', limit: 10 });
      expect(kinds.items.map((item) => [item.username, item.tokenName])).toEqual([
        ['bob', 'deploy'],
      ]);
      expect((await trail.search.listChanges({ user: 'AL', limit: 10 })).items).toHaveLength(1);
      expect((await trail.search.listChanges({ since: T0 + 1, limit: 10 })).items).toHaveLength(1);
      const first = await trail.search.listChanges({ limit: 1 });
      expect(first.nextCursor).not.toBeNull();
      const second = await trail.search.listChanges({ limit: 1, cursor: first.nextCursor! });
      expect(second.items[0]?.action).toBe('alert-destination.created');
    });
  });
}
