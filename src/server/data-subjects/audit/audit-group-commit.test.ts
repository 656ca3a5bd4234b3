// Audited lookups in parallel, on both engines: intents and outcomes arriving together share one
// commit, the chain stays one sequence that verifies, a write that fails by itself fails alone,
// and a commit that fails fails every write waiting in it, with the same reason and nothing kept.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deriveAuditKey } from './audit-chain';
import { verifyAuditChain } from './verify-chain';
import { RESET_AUDIT_TRAIL_SQL, sampleAuditEntry } from '../../test-support/audit-entry';
import { STORE_ENGINES, type TestDatabase } from '../../test-support/store-engines';
import { openAuditTrailStores, type AuditTrailStores } from './audit-trail-stores';
import type { SqlDatabase } from '../../store/database';
import type { AppendedEntry } from './audit-record-store';

const CHAIN_KEY = deriveAuditKey('test-audit-key-'.repeat(4), 'chain');
const T0 = Date.UTC(2026, 0, 6, 9, 0, 0);

/** `db` with its transactions counted, and a switch that makes the next commits fail. */
function observed(db: SqlDatabase) {
  const seen = { transactions: 0, failCommits: false };
  const wrapped: SqlDatabase = {
    ...db,
    query: (sql, params) => db.query(sql, params),
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
    transaction: (work) => {
      seen.transactions += 1;
      return db.transaction(async (tx) => {
        const result = await work(tx);
        // What a full disk or a lost server does at COMMIT: the whole transaction is undone.
        if (seen.failCommits) throw new Error('database or disk is full');
        return result;
      });
    },
  };
  return { db: wrapped, seen };
}

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`audit writes in parallel on ${engine.title}`, () => {
    let db: TestDatabase;
    let trail: AuditTrailStores;
    let seen: ReturnType<typeof observed>['seen'];

    beforeAll(async () => {
      db = await engine.open();
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      await db.exec(RESET_AUDIT_TRAIL_SQL);
      const watched = observed(db);
      seen = watched.seen;
      trail = openAuditTrailStores(watched.db, { chainKey: CHAIN_KEY });
    });
    const verify = () =>
      verifyAuditChain(trail.chain, CHAIN_KEY, { now: () => T0 + 60_000, source: 'test' });

    it('sixteen lookups at once share a few commits and keep one chain that verifies', async () => {
      const intents = await Promise.all(
        Array.from({ length: 16 }, (_, i) => trail.records.begin(sampleAuditEntry(T0 + i))),
      );
      const intentCommits = seen.transactions;
      await Promise.all(
        intents.map((intent) =>
          trail.records.complete(intent.id, { outcome: 'ok', status: 200, detail: null }, T0 + 100),
        ),
      );
      // The first goes alone and at once; the fifteen arriving meanwhile commit together.
      expect(intentCommits).toBeLessThanOrEqual(2);
      expect(seen.transactions - intentCommits).toBeLessThanOrEqual(2);

      const state = await trail.chain.chainState();
      expect(state.seq).toBe(32);
      const chain = await trail.chain.readChain(0, 100);
      expect(chain.map((row) => row.seq)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
      // Each lookup's intent comes before its outcome.
      for (const intent of intents) {
        const rows = chain.filter((row) => row.recordId === intent.id);
        expect(rows.map((row) => row.kind)).toEqual(['intent', 'outcome']);
      }
      const verification = await verify();
      expect(verification.ok, verification.detail).toBe(true);
    });

    it('a write that fails by itself fails alone; the others in its commit are kept', async () => {
      const [first, second] = await Promise.all([
        trail.records.begin(sampleAuditEntry(T0)),
        trail.records.begin(sampleAuditEntry(T0 + 1)),
      ]);
      await trail.records.complete(
        first!.id,
        { outcome: 'ok', status: 200, detail: null },
        T0 + 10,
      );
      const results = await Promise.allSettled([
        trail.records.begin(sampleAuditEntry(T0 + 2)),
        // Already complete: refused, and nothing of it is kept.
        trail.records.complete(first!.id, { outcome: 'ok', status: 200, detail: null }, T0 + 20),
        trail.records.complete(second!.id, { outcome: 'ok', status: 200, detail: null }, T0 + 20),
      ]);
      expect(results.map((result) => result.status)).toEqual([
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      expect(String((results[1] as PromiseRejectedResult).reason)).toContain('already complete');
      const chain = await trail.chain.readChain(0, 100);
      expect(chain.map((row) => row.kind)).toEqual([
        'intent',
        'intent',
        'outcome',
        'intent',
        'outcome',
      ]);
      expect((await verify()).ok).toBe(true);
    });

    it('a write failing mid-batch: those before and after it are kept, in arrival order', async () => {
      const done = await trail.records.begin(sampleAuditEntry(T0));
      await trail.records.complete(done.id, { outcome: 'ok', status: 200, detail: null }, T0 + 1);
      const before = seen.transactions;
      // The first goes alone; the four arriving while it commits wait and share one batch.
      const results = await Promise.allSettled([
        trail.records.begin(sampleAuditEntry(T0 + 2)),
        trail.records.begin(sampleAuditEntry(T0 + 3)),
        trail.records.complete(done.id, { outcome: 'ok', status: 200, detail: null }, T0 + 4),
        trail.records.begin(sampleAuditEntry(T0 + 5)),
        trail.records.begin(sampleAuditEntry(T0 + 6)),
      ]);
      expect(results.map((result) => result.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      expect(String((results[2] as PromiseRejectedResult).reason)).toContain('already complete');
      // Alone, the batch, then the three others again one by one.
      expect(seen.transactions - before).toBe(5);
      const chain = await trail.chain.readChain(0, 100);
      const begun = results.flatMap((result) =>
        result.status === 'fulfilled' && result.value ? [result.value.id] : [],
      );
      expect(chain.slice(2).map((row) => row.recordId)).toEqual(begun);
      expect(chain.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect((await verify()).ok).toBe(true);
    });

    it('two replicas appending in turn and at once keep one chain that verifies', async () => {
      // Each store appends after the head it last wrote without reading it first; the other
      // replica's appends in between must make it read the head instead, never fork the chain.
      const told: AppendedEntry[] = [];
      const other = openAuditTrailStores(db, {
        chainKey: CHAIN_KEY,
        onEntry: (entry) => told.push(entry),
      });
      const ok = { outcome: 'ok', status: 200, detail: null } as const;
      const a1 = await trail.records.begin(sampleAuditEntry(T0));
      const b1 = await other.records.begin(sampleAuditEntry(T0 + 1));
      await trail.records.complete(a1.id, ok, T0 + 2);
      await other.records.complete(b1.id, ok, T0 + 3);
      // An intent one replica wrote, completed by the other: it reads the intent's entry.
      const a2 = await trail.records.begin(sampleAuditEntry(T0 + 4));
      await other.records.complete(a2.id, ok, T0 + 5);
      const both = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 ? other : trail).records.begin(sampleAuditEntry(T0 + 10 + i)),
        ),
      );
      await Promise.all(
        both.map((intent, i) => (i % 3 ? trail : other).records.complete(intent.id, ok, T0 + 30)),
      );

      const chain = await trail.chain.readChain(0, 100);
      expect(chain.map((row) => row.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      const verification = await verify();
      expect(verification.ok, verification.detail).toBe(true);
      // What the other replica told of a2's completion names a2's intent entry as stored.
      const a2Intent = chain.find((row) => row.recordId === a2.id && row.kind === 'intent');
      const a2Told = told.find((entry) => entry.kind === 'lookup' && entry.record.id === a2.id);
      expect(a2Told?.kind === 'lookup' && a2Told.intent).toEqual({
        seq: a2Intent?.seq,
        hash: a2Intent?.hash,
      });
    });

    it('a commit that fails fails every write in it with the reason, and keeps none', async () => {
      const before = await trail.records.begin(sampleAuditEntry(T0));
      seen.failCommits = true;
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => trail.records.begin(sampleAuditEntry(T0 + 1 + i))),
      );
      expect(results.every((result) => result.status === 'rejected')).toBe(true);
      for (const result of results) {
        expect(String((result as PromiseRejectedResult).reason)).toContain(
          'database or disk is full',
        );
      }
      seen.failCommits = false;
      const chain = await trail.chain.readChain(0, 100);
      expect(chain.map((row) => row.recordId)).toEqual([before.id]);
      // The store goes on: the next write continues the same chain.
      await trail.records.complete(
        before.id,
        { outcome: 'ok', status: 200, detail: null },
        T0 + 50,
      );
      expect((await trail.chain.chainState()).seq).toBe(2);
      expect((await verify()).ok).toBe(true);
    });
  });
}
