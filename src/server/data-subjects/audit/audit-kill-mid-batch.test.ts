// kill -9 in the middle of group commits, on both engines: every outcome reported written is in
// the trail, what the kill cut short is only intents without outcomes (never an outcome without
// its intent, never half a batch), and the chain verifies.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deriveAuditKey } from './audit-chain';
import { verifyAuditChain } from './verify-chain';
import type { AuditChainStore, ChainRow } from './audit-chain-store';
import { openAuditTrailStores } from './audit-trail-stores';
import { openDatabase, type SqlDatabase } from '../../store/database';
import { openPostgresDatabase } from '../../store/postgres-database';
import { killAfterLines } from '../../test-support/kill-after-lines';
import { createTestSchema, TEST_DATABASE_URL } from '../../test-support/store-engines';

const KEY = 'kill-mid-batch-key-'.repeat(3);
const CHAIN_KEY = deriveAuditKey(KEY, 'chain');
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Runs the writer on `where` and kills it (-9) once `count` outcomes were reported written. */
async function killAfter(where: string, count: number): Promise<string[]> {
  const lines = await killAfterLines(
    'src/server/data-subjects/audit/fixtures/parallel-lookups-writer.ts',
    [where, KEY],
    count,
  );
  return lines.map((line) => line.replace('outcome ', ''));
}

async function readWholeChain(chain: AuditChainStore): Promise<ChainRow[]> {
  const rows: ChainRow[] = [];
  for (;;) {
    const page = await chain.readChain(rows.at(-1)?.seq ?? 0, 500);
    if (page.length === 0) return rows;
    rows.push(...page);
  }
}

const ENGINES: Array<{
  name: string;
  available: boolean;
  where: () => Promise<string>;
  open: (where: string) => Promise<SqlDatabase>;
}> = [
  {
    name: 'SQLite',
    available: true,
    where: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'audit-kill-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
    open: (dataDir) => openDatabase({ dataDir }),
  },
  {
    name: 'PostgreSQL',
    available: TEST_DATABASE_URL !== undefined,
    where: async () => {
      const schema = await createTestSchema(TEST_DATABASE_URL!);
      cleanups.push(schema.drop);
      return schema.url;
    },
    open: (url) => openPostgresDatabase({ url }),
  },
];

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`kill -9 mid-batch on ${engine.name}`, () => {
    it(
      'loses no reported outcome and leaves only intents without outcomes',
      { timeout: 120_000 },
      async () => {
        const where = await engine.where();
        const reported = await killAfter(where, 300);
        const db = await engine.open(where);
        try {
          const trail = openAuditTrailStores(db, { chainKey: CHAIN_KEY });
          const chain = await readWholeChain(trail.chain);
          const kinds = new Map<string, string[]>();
          for (const row of chain) {
            if (row.recordId)
              kinds.set(row.recordId, [...(kinds.get(row.recordId) ?? []), row.kind]);
          }
          // Every outcome reported written survived, with its intent before it.
          for (const id of reported) expect(kinds.get(id), id).toEqual(['intent', 'outcome']);
          // What the kill cut short: intents alone, their records not complete.
          const cut = [...kinds].filter(([, entries]) => entries.length !== 2);
          for (const [, entries] of cut) expect(entries).toEqual(['intent']);
          for (const row of chain) {
            if (row.kind === 'intent' && kinds.get(row.recordId!)!.length === 1) {
              expect(row.record?.completed).toBe(false);
            }
          }
          // At most the sixteen lookups in flight were cut short.
          expect(cut.length).toBeLessThanOrEqual(16);
          const verification = await verifyAuditChain(trail.chain, CHAIN_KEY, {
            now: Date.now,
            source: 'test',
          });
          expect(verification.ok, verification.detail).toBe(true);
        } finally {
          await db.close();
        }
      },
    );
  });
}
