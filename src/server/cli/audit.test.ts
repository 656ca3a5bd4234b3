// `npm run audit`: `verify` finds a record changed directly in the database, on SQLite and on
// PostgreSQL (when TEST_DATABASE_URL is set), and names the first broken link; `verify-export`
// accepts an export with its signature and refuses a tampered one or another key's. Files given
// with `verify --checkpoints` are read as streams and only when regular files, and the command
// says how many checkpoints each held; one that held none (empty, garbage, or checkpoints in a
// shape it does not read) fails with exit 2, never "intact".
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { AuditExportSignature } from '../../shared/audit-trail';
import { deriveAuditKey } from '../data-subjects/audit/audit-chain';
import { CHECKPOINT_FILE } from '../data-subjects/audit/checkpoint-file';
import { createCheckpointer } from '../data-subjects/audit/checkpoint-job';
import { CHECKPOINT_LINE_MAX } from '../data-subjects/audit/checkpoint-reader';
import { createLogger } from '../observability/logger';
import { streamAuditExport } from '../data-subjects/audit/audit-export';
import { createExportSigner } from '../data-subjects/audit/export-signing';
import { AuditEvidenceStore } from '../data-subjects/audit/audit-evidence-store';
import { openAuditTrailStores } from '../data-subjects/audit/audit-trail-stores';
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
  const trail = openAuditTrailStores(db, { chainKey: deriveAuditKey(KEY, 'chain') });
  for (let i = 0; i < 3; i += 1) {
    await trail.records.record(
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

const T0 = Date.UTC(2026, 5, 1);

/** A trail of three lookups and one signed checkpoint of it, as its line. */
async function trailWithCheckpoint() {
  const dataDir = tempDir();
  const outside = tempDir();
  const db = await openDatabase({ dataDir });
  try {
    const trail = openAuditTrailStores(db, { chainKey: deriveAuditKey(KEY, 'chain') });
    for (let i = 0; i < 3; i += 1) await trail.records.record(sampleAuditEntry(T0 + i * 1_000));
    await createCheckpointer({
      chain: trail.chain,
      evidence: new AuditEvidenceStore(db),
      signer: createExportSigner(KEY),
      dir: outside,
      intervalMs: 300_000,
      logger: createLogger('silent'),
      now: () => T0,
    }).take('export');
  } finally {
    await db.close();
  }
  const line = readFileSync(join(outside, CHECKPOINT_FILE), 'utf8').trim();
  return { env: { DATA_DIR: dataDir, AUDIT_KEY: KEY }, line };
}

describe('verify --checkpoints FILE', () => {
  it('says how many checkpoints each file held, wherever they are in it', async () => {
    const { env, line } = await trailWithCheckpoint();
    // A shipped log: the checkpoint after more than one read's worth of other lines, and after a
    // line too long to be one.
    const log = join(tempDir(), 'shipped.log');
    writeFileSync(
      log,
      `${'{"level":30,"msg":"request"}\n'.repeat(3_000)}${'x'.repeat(CHECKPOINT_LINE_MAX + 10)}\n` +
        `${JSON.stringify({ level: 30, checkpoint: JSON.parse(line), msg: 'audit checkpoint' })}\n`,
    );
    const file = join(tempDir(), 'copy.jsonl');
    writeFileSync(file, `${line}\n${line}`);

    const result = await run(['verify', '--checkpoints', log, '--checkpoints', file], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${log}: 1 checkpoint\n`);
    expect(result.stdout).toContain(`${file}: 2 checkpoints\n`);
    // The database's own, and the three given.
    expect(result.stdout).toMatch(/audit chain intact \(SQLite\): .*matches 4 signed checkpoints/);
  });

  it.each([
    ['empty', ''],
    ['garbage', 'not json at all\n\u0000\u0001\n{"half":'],
    ['checkpoints in a shape it does not read', `seq,hash\n7,${'a'.repeat(64)}\n`],
  ])('fails on a file that holds none (%s), naming it', async (_, content) => {
    const { env } = await trailWithCheckpoint();
    const file = join(tempDir(), 'given.jsonl');
    writeFileSync(file, content);
    const result = await run(['verify', '--checkpoints', file], env);
    expect(result.code).toBe(2);
    expect(result.stdout).not.toMatch(/intact/);
    expect(result.stderr).toBe(
      `audit: cannot use the checkpoint file ${file}: it holds no checkpoint: it is empty, or no line is a signed checkpoint, a log line carrying one or an alert delivery of one\n`,
    );
  });

  it('refuses what is not a regular file before reading a byte: a device, a FIFO, a directory', async () => {
    const { env } = await trailWithCheckpoint();
    const fifo = join(tempDir(), 'pipe');
    execFileSync('mkfifo', [fifo]);
    const dir = tempDir();
    for (const [path, kind] of [
      ['/dev/zero', 'a character device'],
      [fifo, 'a FIFO (named pipe)'],
      [dir, 'a directory'],
    ] as const) {
      const result = await run(['verify', '--checkpoints', path], env);
      expect(result.code, path).toBe(2);
      expect(result.stderr).toBe(
        `audit: cannot use the checkpoint file ${path}: it is ${kind}, not a regular file\n`,
      );
    }
  });
});
