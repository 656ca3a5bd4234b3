// The audit trail's stores on both engines (SQLite always; PostgreSQL when TEST_DATABASE_URL is
// set): one row per lookup, newest first with every filter, keyset paging, lookups that asked for
// or showed an identifier by its keyed hashes, and the hash chain: a record changed, removed or
// added directly in the database is found by the walk, parallel writers (one process, or two
// replicas on one PostgreSQL) keep one chain, and retention continues it from a signed checkpoint.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONNECTION } from '../../../shared/connections';
import { deriveAuditKey } from './audit-chain';
import { verifyAuditChain } from './verify-chain';
import { RESET_AUDIT_TRAIL_SQL } from '../../test-support/audit-entry';
import { STORE_ENGINES, type TestDatabase } from '../../test-support/store-engines';
import type { AuditChainStore } from './audit-chain-store';
import type { AuditEntry, AuditRecordStore } from './audit-record-store';
import type { AuditSearch } from './audit-search';
import { openAuditTrailStores } from './audit-trail-stores';
import { personSearch } from './person-search';
import { openPostgresDatabase } from '../../store/postgres-database';

const CHAIN_KEY = deriveAuditKey('test-audit-key-'.repeat(4), 'chain');
const DAY = 24 * 60 * 60 * 1000;

const T0 = Date.UTC(2026, 0, 6, 9, 0, 0);
const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

function entry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    at: T0,
    connection: DEFAULT_CONNECTION,
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
  describe.skipIf(!engine.available)(`the audit trail’s stores on ${engine.title}`, () => {
    let db: TestDatabase;
    let chain: AuditChainStore;
    let records: AuditRecordStore;
    let search: AuditSearch;

    beforeAll(async () => {
      db = await engine.open();
      ({ chain, records, search } = openAuditTrailStores(db, { chainKey: CHAIN_KEY }));
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      await db.exec(RESET_AUDIT_TRAIL_SQL);
    });
    const verify = (over = chain) =>
      verifyAuditChain(over, CHAIN_KEY, { now: () => T0 + 400 * DAY, source: 'test' });

    it('stores a lookup and answers it without the hash', async () => {
      const record = await records.record(entry({ continued: true, detail: 'incident x' }));
      expect(record).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        at: new Date(T0).toISOString(),
        user: 'admin',
        connection: 'default',
        operation: 'v4-details',
        outcome: 'ok',
        status: 200,
        detail: 'incident x',
        identifierHashed: true,
        continued: true,
        completed: true,
        purpose: null,
        recordCount: null,
        subjectCount: 0,
      });
      const { items } = await search.list({ limit: 10 });
      expect(items).toEqual([record]);
      expect(JSON.stringify(items)).not.toContain(HASH_A);
    });

    it('lists newest first with every filter, and pages with a cursor', async () => {
      for (let i = 0; i < 6; i += 1) {
        await records.record(
          entry({
            at: T0 + i * 60_000,
            user: i % 2 === 0 ? 'admin' : 'alice',
            operation: i < 3 ? 'v4-details' : 'v2-datasubjects',
            outcome: i === 5 ? 'rate-limited' : 'ok',
            identifierHash: i === 4 ? null : HASH_A,
          }),
        );
      }
      const minutes = async (query: Parameters<typeof search.list>[0]) =>
        (await search.list(query)).items.map((item) => (Date.parse(item.at) - T0) / 60_000);
      expect(await minutes({ limit: 10 })).toEqual([5, 4, 3, 2, 1, 0]);
      expect(await minutes({ limit: 10, user: 'alice' })).toEqual([5, 3, 1]);
      expect(await minutes({ limit: 10, user: 'al' })).toEqual([5, 3, 1]);
      expect(await minutes({ limit: 10, user: 'AL' })).toEqual([5, 3, 1]);
      expect(await minutes({ limit: 10, user: 'lice' })).toEqual([]);
      expect(await minutes({ limit: 10, operation: 'v2-datasubjects' })).toEqual([5, 4, 3]);
      expect(await minutes({ limit: 10, outcome: 'rate-limited' })).toEqual([5]);
      expect(await minutes({ limit: 10, since: T0 + 60_000, until: T0 + 180_000 })).toEqual([
        3, 2, 1,
      ]);

      const first = await search.list({ limit: 4 });
      expect(first.nextCursor).not.toBeNull();
      const second = await search.list({ limit: 4, cursor: first.nextCursor! });
      expect(second.items.map((item) => (Date.parse(item.at) - T0) / 60_000)).toEqual([1, 0]);
      expect(second.nextCursor).toBeNull();
      await expect(search.list({ limit: 2, cursor: 'bm9wZQ' })).rejects.toThrow(/cursor/);
    });

    it('matches the user filter as a prefix, with % and _ typed taken literally', async () => {
      for (const [i, user] of ['a_b', 'axb', 'a%c', 'abc'].entries()) {
        await records.record(entry({ at: T0 + i * 60_000, user }));
      }
      const users = async (user: string) =>
        (await search.list({ limit: 10, user })).items.map((item) => item.user).sort();
      expect(await users('a_')).toEqual(['a_b']);
      expect(await users('a%')).toEqual(['a%c']);
      expect(await users('a')).toEqual(['a%c', 'a_b', 'abc', 'axb']);
      expect(await users('a!')).toEqual([]);
      expect(await search.count({ user: 'a_' })).toBe(1);
    });

    it('keeps lookups made in the same millisecond apart, in a stable order across pages', async () => {
      for (let i = 0; i < 5; i += 1) await records.record(entry());
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await search.list({ limit: 2, ...(cursor ? { cursor } : {}) });
        seen.push(...page.items.map((item) => item.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(new Set(seen).size).toBe(5);
    });

    it('finds the lookups of one identifier by its hash, newest first', async () => {
      await records.record(entry({ at: T0, identifierHash: HASH_A }));
      await records.record(entry({ at: T0 + 1_000, identifierHash: HASH_B }));
      await records.record(entry({ at: T0 + 2_000, identifierHash: HASH_A, outcome: 'not-found' }));
      await records.record(entry({ at: T0 + 3_000, identifierHash: null }));
      const found = await search.findByIdentifierHashes([HASH_A], { limit: 10 });
      expect(found.items.map((item) => item.outcome)).toEqual(['not-found', 'ok']);
      const first = await search.findByIdentifierHashes([HASH_A], { limit: 1 });
      const rest = await search.findByIdentifierHashes([HASH_A], {
        limit: 1,
        cursor: first.nextCursor!,
      });
      expect(rest.items.map((item) => item.outcome)).toEqual(['ok']);
      expect(rest.nextCursor).toBeNull();
    });

    it('refuses an outcome the trail does not know', async () => {
      await expect(
        records.record(entry({ outcome: 'maybe' as AuditEntry['outcome'] })),
      ).rejects.toThrow();
    });

    it('finds the listings that showed an identifier, and says whether it was asked or shown', async () => {
      await records.record(entry({ at: T0, identifierHash: HASH_A, shownHashes: [HASH_A] }));
      await records.record(
        entry({
          at: T0 + 1_000,
          operation: 'v4-purposes-by-date',
          identifierHash: null,
          params: [{ name: 'updatedSince', value: '2026-01-01T00:00:00Z' }],
          recordCount: 40,
          shownHashes: [HASH_B, HASH_A],
        }),
      );
      await records.record(entry({ at: T0 + 2_000, identifierHash: null, shownHashes: [HASH_B] }));
      const found = await search.findByIdentifierHashes([HASH_A], { limit: 10 });
      expect(found.items.map((item) => [item.operation, item.matchedBy])).toEqual([
        ['v4-purposes-by-date', 'shown'],
        ['v4-details', 'both'],
      ]);
      expect(found.items[0]).toMatchObject({
        recordCount: 40,
        subjectCount: 2,
        params: [{ name: 'updatedSince', value: '2026-01-01T00:00:00Z' }],
      });
      expect(await search.countByIdentifierHashes([HASH_A])).toBe(2);
      // Two spellings' hashes at once (the normalised and the legacy one).
      expect(await search.countByIdentifierHashes([HASH_A, HASH_B])).toBe(3);
    });

    it('writes the intent first and completes it with the outcome', async () => {
      const intent = await records.begin(entry());
      expect(intent).toMatchObject({ completed: false, status: 0 });
      const done = await records.complete(intent.id, {
        outcome: 'ok',
        status: 200,
        detail: null,
        recordCount: 1,
        shownHashes: [HASH_A],
      });
      expect(done).toMatchObject({ id: intent.id, completed: true, status: 200, recordCount: 1 });
      await expect(
        records.complete(intent.id, { outcome: 'ok', status: 200, detail: null }),
      ).rejects.toThrow(/already complete/);
      expect((await verify()).ok).toBe(true);
    });

    it('finds a record changed directly in the database, and where', async () => {
      for (let i = 0; i < 4; i += 1) {
        await records.record(entry({ at: T0 + i * 1_000, shownHashes: [HASH_A] }));
      }
      const clean = await verify();
      expect(clean).toMatchObject({ ok: true, entries: 8, brokenAt: null });
      const [, second] = (await search.list({ limit: 10 })).items.reverse();
      await db.query('UPDATE lookup_audit SET username = $1 WHERE id = $2', [
        'mallory',
        second!.id,
      ]);
      const broken = await verify();
      expect(broken.ok).toBe(false);
      expect(broken.brokenAt).toBe(3);
      expect(broken.detail).toContain(second!.id);
    });

    it('reads a lookup made in UAT back as UAT’s, and a person search finds it beside production’s', async () => {
      const production = await records.record(
        entry({ identifierHash: HASH_A, shownHashes: [HASH_A] }),
      );
      const uat = await records.record(
        entry({ at: T0 + 1_000, connection: 'uat', identifierHash: null, shownHashes: [HASH_A] }),
      );
      await records.record(entry({ at: T0 + 2_000, identifierHash: HASH_B }));
      expect(uat.connection).toBe('uat');

      const person = await personSearch(search, [HASH_A]);
      const found = await person.annotate(
        await search.findByIdentifierHashes(person.hashes, { limit: 10 }),
      );
      expect(found.items.map((record) => [record.id, record.connection, record.matchedBy])).toEqual(
        [
          [uat.id, 'uat', 'shown'],
          [production.id, 'default', 'both'],
        ],
      );
      const onlyUat = await search.list({ limit: 10, connection: 'uat' });
      expect(onlyUat.items.map((record) => record.id)).toEqual([uat.id]);
      expect(await search.count({ connection: 'default' })).toBe(2);
      expect(await verify()).toMatchObject({ ok: true, entries: 6 });
    });

    it('fails the walk at the intent of a lookup moved to another connection in the database', async () => {
      await records.record(entry({ connection: 'uat' }));
      const moved = await records.record(entry({ at: T0 + 1_000, connection: 'uat' }));
      expect(await verify()).toMatchObject({ ok: true, entries: 4 });

      await db.query('UPDATE lookup_audit SET connection = $1 WHERE id = $2', [
        'default',
        moved.id,
      ]);
      const broken = await verify();
      expect(broken).toMatchObject({ ok: false, brokenAt: 3 });
      expect(broken.detail).toContain(`entry 3: record ${moved.id} was changed`);
    });

    it('keeps a lookup’s purpose under the chain: edited, removed or added, the walk finds it', async () => {
      const purpose = { category: 'access request', reference: 'DSAR-2291' };
      const stated = await records.record(entry({ purpose }));
      const none = await records.record(entry({ at: T0 + 1_000 }));
      expect(stated.purpose).toEqual(purpose);
      expect(none.purpose).toBeNull();
      expect((await search.list({ limit: 10, reference: 'dsar-2291' })).items).toHaveLength(1);
      expect(await verify()).toMatchObject({ ok: true, entries: 4 });

      const edits: Array<[string, unknown[]]> = [
        ['UPDATE lookup_audit SET purpose_reference = $1 WHERE id = $2', ['DSAR-9999', stated.id]],
        ['UPDATE lookup_audit SET purpose_category = $1 WHERE id = $2', ['other', stated.id]],
        [
          'UPDATE lookup_audit SET purpose_category = NULL, purpose_reference = NULL WHERE id = $1',
          [stated.id],
        ],
      ];
      for (const [sql, params] of edits) {
        await db.query(sql, params);
        const broken = await verify();
        expect(broken).toMatchObject({ ok: false, brokenAt: 1 });
        expect(broken.detail).toContain(stated.id);
        await db.query(
          'UPDATE lookup_audit SET purpose_category = $1, purpose_reference = $2 WHERE id = $3',
          [purpose.category, purpose.reference, stated.id],
        );
      }
      expect((await verify()).ok).toBe(true);
      await db.query(
        'UPDATE lookup_audit SET purpose_category = $1, purpose_reference = $2 WHERE id = $3',
        [purpose.category, purpose.reference, none.id],
      );
      expect(await verify()).toMatchObject({ ok: false, brokenAt: 3 });
    });

    it('finds an outcome, a shown subject, a chain entry or a record removed or added', async () => {
      for (let i = 0; i < 3; i += 1) {
        await records.record(entry({ at: T0 + i * 1_000, shownHashes: [HASH_A, HASH_B] }));
      }
      const ids = (await search.list({ limit: 10 })).items.map((item) => item.id);
      await db.query('UPDATE lookup_audit SET outcome = $1 WHERE id = $2', ['not-found', ids[0]]);
      expect((await verify()).brokenAt).toBe(6);
      await db.query('UPDATE lookup_audit SET outcome = $1 WHERE id = $2', ['ok', ids[0]]);
      expect((await verify()).ok).toBe(true);

      await db.query(
        'DELETE FROM lookup_audit_subjects WHERE audit_id = $1 AND identifier_hash = $2',
        [ids[1], HASH_B],
      );
      expect((await verify()).brokenAt).toBe(4);
      await db.query(
        'INSERT INTO lookup_audit_subjects (audit_id, identifier_hash, at) VALUES ($1, $2, $3)',
        [ids[1], HASH_B, new Date(T0 + 1_000).toISOString()],
      );

      await db.query('UPDATE audit_chain SET payload = $1 WHERE seq = 2', ['{}']);
      expect((await verify()).detail).toMatch(/entry 2: its hash does not match/);
    });

    it('finds the newest entries cut off, and a record slipped in behind the chain', async () => {
      for (let i = 0; i < 3; i += 1) await records.record(entry({ at: T0 + i * 1_000 }));
      await db.query(
        `INSERT INTO lookup_audit (id, at, username, operation, outcome, status,
          key_id, chained) VALUES ('x', $1, 'mallory', 'v4-details', 'ok', 200, 'k', 1)`,
        [new Date(T0).toISOString()],
      );
      expect((await verify()).detail).toMatch(/1 record not in the chain/);
      await db.query(`DELETE FROM lookup_audit WHERE id = 'x'`);
      await db.query('DELETE FROM audit_chain WHERE seq >= 5');
      expect((await verify()).detail).toMatch(/chain ends at entry 4 but its head says 6/);
    });

    it('keeps one unbroken chain under parallel writes', async () => {
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          records.record(entry({ at: T0 + i, shownHashes: [HASH_A] })),
        ),
      );
      const result = await verify();
      expect(result).toMatchObject({ ok: true, entries: 80 });
      expect((await chain.chainState()).seq).toBe(80);
    });

    it.skipIf(engine.name !== 'PostgreSQL')(
      'keeps one chain when two replicas append to one PostgreSQL at once',
      async () => {
        const replica = await openPostgresDatabase({ url: db.url! });
        try {
          const other = openAuditTrailStores(replica, { chainKey: CHAIN_KEY }).records;
          await Promise.all(
            Array.from({ length: 30 }, (_, i) =>
              (i % 2 === 0 ? records : other).record(entry({ at: T0 + i })),
            ),
          );
          expect(await verify()).toMatchObject({ ok: true, entries: 60 });
        } finally {
          await replica.close();
        }
      },
    );

    it('deletes expired records under a signed checkpoint the walk accepts', async () => {
      for (let day = 0; day < 5; day += 1) {
        await records.record(entry({ at: T0 + day * DAY, shownHashes: [HASH_A] }));
      }
      const cutoff = T0 + 2 * DAY + 1;
      const result = await chain.applyRetention(cutoff, T0 + 10 * DAY);
      expect(result).toEqual({ deleted: 3, checkpointSeq: 6 });
      expect((await search.list({ limit: 10 })).items).toHaveLength(2);
      expect(await search.countByIdentifierHashes([HASH_A])).toBe(2);
      const after = await verify();
      expect(after).toMatchObject({ ok: true, entries: 5 });
      expect(after.detail).toMatch(/from the retention checkpoint after entry 6/);
      expect((await chain.chainState()).lastRetention).toEqual({
        at: new Date(T0 + 10 * DAY).toISOString(),
        deleted: 3,
        cutoff: new Date(cutoff).toISOString(),
      });
      // The retention itself is an entry of the chain; appends continue after it.
      await records.record(entry({ at: T0 + 11 * DAY }));
      expect((await verify()).ok).toBe(true);
      // A second run with nothing to delete changes nothing.
      expect(await chain.applyRetention(cutoff, T0 + 12 * DAY)).toEqual({
        deleted: 0,
        checkpointSeq: 6,
      });

      // A checkpoint edited to hide more deletions no longer carries a valid signature.
      const state = await chain.chainState();
      const forged = JSON.stringify({ ...JSON.parse(state.checkpoint!), seq: 8 });
      await db.query(`UPDATE audit_chain_state SET checkpoint = $1 WHERE name = 'head'`, [forged]);
      expect((await verify()).detail).toMatch(/checkpoint’s signature does not hold/);
    });
  });
}
