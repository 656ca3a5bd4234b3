// `npm run audit -- verify --checkpoints FILE` with files an operator may pass by mistake, or an
// attacker may leave: each is read as a stream and only when it is a regular file, and the command
// says how many checkpoints each held. A file that held none (empty, garbage, or checkpoints in a
// shape it does not read) fails with exit 2, never "intact".
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { deriveAuditKey } from '../data-subjects/audit/audit-chain';
import { SqlAuditStore } from '../data-subjects/audit/audit-store';
import { CHECKPOINT_FILE } from '../data-subjects/audit/checkpoint-file';
import { CHECKPOINT_LINE_MAX } from '../data-subjects/audit/checkpoint-reader';
import { createCheckpointer } from '../data-subjects/audit/checkpoint-job';
import { createExportSigner } from '../data-subjects/audit/export-signing';
import { openDatabase } from '../store/database';
import { sampleAuditEntry } from '../test-support/audit-entry';
import { tempDirsPerTest } from '../test-support/temp-dirs';
import { runAuditCli } from './audit';

const KEY = 'the-audit-key-of-the-checkpoint-file-tests-01234';
const T0 = Date.UTC(2026, 5, 1);
const tempDir = tempDirsPerTest('audit-verify-checkpoints-');

async function run(argv: string[], env: Record<string, string>) {
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
    now: () => T0,
  });
  return { code, stdout, stderr };
}

/** A trail of three lookups and one signed checkpoint of it, as its line. */
async function trailWithCheckpoint() {
  const dataDir = tempDir();
  const outside = tempDir();
  const db = await openDatabase({ dataDir });
  try {
    const store = new SqlAuditStore(db, { chainKey: deriveAuditKey(KEY, 'chain') });
    for (let i = 0; i < 3; i += 1) await store.record(sampleAuditEntry(T0 + i * 1_000));
    await createCheckpointer({
      store,
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
