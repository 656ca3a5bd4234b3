// The audit store on both engines (SQLite always; PostgreSQL when TEST_DATABASE_URL is set): one
// row per lookup, newest first with every filter, keyset paging, and lookups of one identifier by
// its keyed hash.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STORE_ENGINES, type TestDatabase } from '../test-support/store-engines';
import { SqlAuditStore, type AuditEntry } from './audit-store';

const T0 = Date.UTC(2026, 0, 6, 9, 0, 0);
const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

function entry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    at: T0,
    user: 'admin',
    operation: 'v4-details',
    outcome: 'ok',
    status: 200,
    detail: null,
    identifierHash: HASH_A,
    keyId: 'key-1',
    continued: false,
    requestId: 'req-1',
    ...overrides,
  };
}

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`the audit store on ${engine.title}`, () => {
    let db: TestDatabase;
    let store: SqlAuditStore;

    beforeAll(async () => {
      db = await engine.open();
      store = new SqlAuditStore(db);
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      await db.exec('DELETE FROM lookup_audit');
    });

    it('stores a lookup and answers it without the hash', async () => {
      const record = await store.record(entry({ continued: true, detail: 'incident x' }));
      expect(record).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        at: new Date(T0).toISOString(),
        user: 'admin',
        operation: 'v4-details',
        outcome: 'ok',
        status: 200,
        detail: 'incident x',
        identifierHashed: true,
        continued: true,
      });
      const { items } = await store.list({ limit: 10 });
      expect(items).toEqual([record]);
      expect(JSON.stringify(items)).not.toContain(HASH_A);
    });

    it('lists newest first with every filter, and pages with a cursor', async () => {
      for (let i = 0; i < 6; i += 1) {
        await store.record(
          entry({
            at: T0 + i * 60_000,
            user: i % 2 === 0 ? 'admin' : 'alice',
            operation: i < 3 ? 'v4-details' : 'v2-datasubjects',
            outcome: i === 5 ? 'rate-limited' : 'ok',
            identifierHash: i === 4 ? null : HASH_A,
          }),
        );
      }
      const minutes = async (query: Parameters<typeof store.list>[0]) =>
        (await store.list(query)).items.map((item) => (Date.parse(item.at) - T0) / 60_000);
      expect(await minutes({ limit: 10 })).toEqual([5, 4, 3, 2, 1, 0]);
      expect(await minutes({ limit: 10, user: 'alice' })).toEqual([5, 3, 1]);
      expect(await minutes({ limit: 10, operation: 'v2-datasubjects' })).toEqual([5, 4, 3]);
      expect(await minutes({ limit: 10, outcome: 'rate-limited' })).toEqual([5]);
      expect(await minutes({ limit: 10, since: T0 + 60_000, until: T0 + 180_000 })).toEqual([
        3, 2, 1,
      ]);

      const first = await store.list({ limit: 4 });
      expect(first.nextCursor).not.toBeNull();
      const second = await store.list({ limit: 4, cursor: first.nextCursor! });
      expect(second.items.map((item) => (Date.parse(item.at) - T0) / 60_000)).toEqual([1, 0]);
      expect(second.nextCursor).toBeNull();
      await expect(store.list({ limit: 2, cursor: 'bm9wZQ' })).rejects.toThrow(/cursor/);
    });

    it('keeps lookups made in the same millisecond apart, in a stable order across pages', async () => {
      for (let i = 0; i < 5; i += 1) await store.record(entry());
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.list({ limit: 2, ...(cursor ? { cursor } : {}) });
        seen.push(...page.items.map((item) => item.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(new Set(seen).size).toBe(5);
    });

    it('finds the lookups of one identifier by its hash, newest first', async () => {
      await store.record(entry({ at: T0, identifierHash: HASH_A }));
      await store.record(entry({ at: T0 + 1_000, identifierHash: HASH_B }));
      await store.record(entry({ at: T0 + 2_000, identifierHash: HASH_A, outcome: 'not-found' }));
      await store.record(entry({ at: T0 + 3_000, identifierHash: null }));
      const found = await store.findByIdentifierHash(HASH_A, { limit: 10 });
      expect(found.items.map((item) => item.outcome)).toEqual(['not-found', 'ok']);
      const first = await store.findByIdentifierHash(HASH_A, { limit: 1 });
      const rest = await store.findByIdentifierHash(HASH_A, {
        limit: 1,
        cursor: first.nextCursor!,
      });
      expect(rest.items.map((item) => item.outcome)).toEqual(['ok']);
      expect(rest.nextCursor).toBeNull();
    });

    it('refuses an outcome the trail does not know', async () => {
      await expect(
        store.record(entry({ outcome: 'maybe' as AuditEntry['outcome'] })),
      ).rejects.toThrow();
    });
  });
}
