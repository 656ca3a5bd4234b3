// `npm run audit`: `verify` finds a record changed directly in the database, on SQLite and on
// PostgreSQL (when TEST_DATABASE_URL is set), and names the first broken link; `verify-export`
// accepts an export with its signature and refuses a tampered one or another key's.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { AuditExportSignature } from '../../shared/audit-trail';
import { deriveAuditKey } from '../data-subjects/audit/audit-chain';
import { streamAuditExport } from '../data-subjects/audit/audit-export';
import { createExportSigner } from '../data-subjects/audit/export-signing';
import { SqlAuditStore } from '../data-subjects/audit/audit-store';
import { openDatabase, type SqlDatabase } from '../store/database';
import { openPostgresDatabase } from '../store/postgres-database';
import { sampleAuditEntry } from '../test-support/audit-entry';
import { createTestSchema, NEEDS_SERVICES, TEST_DATABASE_URL } from '../test-support/store-engines';
import { runAuditCli } from './audit';
import { tempDirsPerTest } from '../test-support/temp-dirs';

const KEY = 'the-audit-key-of-this-test-0123456789';
const tempDir = tempDirsPerTest('console-audit-cli-');

async function run(argv: string[], env: Record<string, string | undefined>) {
  let stdout = '';
  let stderr = '';
  const sink = (add: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        add(String(chunk));
        done();
      },
    });
  const code = await runAuditCli(argv, {
    env,
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
    now: () => Date.UTC(2026, 5, 1),
  });
  return { code, stdout, stderr };
}

async function fill(db: SqlDatabase) {
  const store = new SqlAuditStore(db, { chainKey: deriveAuditKey(KEY, 'chain') });
  for (let i = 0; i < 3; i += 1) {
    await store.record(
      sampleAuditEntry(Date.UTC(2026, 0, 1) + i * 1_000, { shownHashes: ['a'.repeat(64)] }),
    );
  }
}

describe('npm run audit -- verify', () => {
  it('walks the SQLite store, then finds a record changed directly in it', async () => {
    const dataDir = tempDir();
    const db = await openDatabase({ dataDir });
    await fill(db);
    const env = { DATA_DIR: dataDir, AUDIT_KEY: KEY };
    const intact = await run(['verify'], env);
    expect(intact).toMatchObject({ code: 0 });
    expect(intact.stdout).toMatch(/^audit chain intact \(SQLite\): 6 entries intact/);

    await db.query(`UPDATE lookup_audit SET outcome = 'not-found' WHERE at = $1`, [
      new Date(Date.UTC(2026, 0, 1) + 1_000).toISOString(),
    ]);
    await db.close();
    const broken = await run(['verify'], env);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(
      /^AUDIT CHAIN BROKEN \(SQLite\) at entry 4: entry 4: record .* was changed/,
    );
    // A wrong key cannot vouch for the chain either.
    expect((await run(['verify'], { ...env, AUDIT_KEY: 'x'.repeat(40) })).stdout).toMatch(
      /entry 1: its hash does not match/,
    );
  });

  it('says what is missing when there is no store or no key', async () => {
    const empty = await run(['verify'], { DATA_DIR: tempDir(), AUDIT_KEY: KEY });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/no console store in DATA_DIR/);
    expect((await run(['verify'], { DATA_DIR: tempDir() })).stderr).toMatch(/no audit key/);
  });

  it.skipIf(!TEST_DATABASE_URL)(
    `walks the PostgreSQL store, then finds a record changed directly in it${TEST_DATABASE_URL ? '' : ` (skipped: ${NEEDS_SERVICES})`}`,
    async () => {
      const schema = await createTestSchema(TEST_DATABASE_URL!);
      const db = await openPostgresDatabase({ url: schema.url });
      try {
        await fill(db);
        const env = { DATABASE_URL: schema.url, AUDIT_KEY: KEY };
        expect((await run(['verify'], env)).stdout).toMatch(/^audit chain intact \(PostgreSQL\)/);
        await db.query(`UPDATE lookup_audit SET username = 'mallory' WHERE at = $1`, [
          new Date(Date.UTC(2026, 0, 1)).toISOString(),
        ]);
        const broken = await run(['verify'], env);
        expect(broken.code).toBe(1);
        expect(broken.stdout).toMatch(/^AUDIT CHAIN BROKEN \(PostgreSQL\) at entry 1/);
      } finally {
        await db.close();
        await schema.drop();
      }
    },
  );
});

describe('npm run audit -- verify-export', () => {
  async function exportTo(dir: string) {
    let signature: AuditExportSignature | undefined;
    const stream = streamAuditExport({
      id: '11111111-1111-4111-8111-111111111111',
      format: 'csv',
      scope: 'the whole trail',
      pages: async () => ({ items: [], nextCursor: null }),
      signer: createExportSigner(KEY),
      now: () => Date.UTC(2026, 5, 1),
      signed: async (value) => {
        signature = value;
      },
    });
    const file = join(dir, 'audit.csv');
    writeFileSync(file, Buffer.from(await new Response(stream).arrayBuffer()));
    const sig = join(dir, 'audit.csv.sig.json');
    writeFileSync(sig, JSON.stringify(signature));
    return { file, sig };
  }

  it('verifies an untouched export and refuses a tampered one or another key', async () => {
    const dir = tempDir();
    const { file, sig } = await exportTo(dir);
    const ok = await run(['verify-export', file, sig], { AUDIT_KEY: KEY });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^verified: .*audit\.csv\n {2}0 records, CSV/);
    expect(ok.stdout).toContain('(the trusted key)');

    const pem = join(dir, 'other.pem');
    writeFileSync(pem, createExportSigner('y'.repeat(40)).publicKeyPem);
    const otherKey = await run(['verify-export', file, sig, '--public-key', pem], {});
    expect(otherKey.code).toBe(1);
    expect(otherKey.stdout).toContain('another key than the trusted one');

    writeFileSync(file, 'id,at\r\nforged,2026\r\n');
    const tampered = await run(['verify-export', file, sig], { AUDIT_KEY: KEY });
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toMatch(/^NOT VERIFIED/);
    expect(tampered.stdout).toContain('the export was changed');
  });
});
