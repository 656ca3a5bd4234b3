// AUDIT_CHECKPOINT_DIR against the account that can write it: a directory owned by another
// account, or a checkpoint file swapped for a link or a FIFO, stops the start with one line naming
// the path and why, and nothing is written through the link; a FIFO swapped in while the console
// runs fails the checkpoint's copy at once (the export and the event loop go on), and readiness,
// the audit page and the log say so.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { AuditIntegritySchema } from '../../../shared/audit-trail';
import { runBff } from '../../test-support/bff-process';
import { freePort } from '../../test-support/free-port';
import { PROCESS_TEST_TIMEOUT_MS } from '../../test-support/process-deadline';
import {
  startBffHarness,
  writeHarnessUsersFile,
  type BffHarness,
} from '../../test-support/bff-harness';
import { tempDirsPerTest } from '../../test-support/temp-dirs';
import { CHECKPOINT_FILE, writeCheckpointLine } from './checkpoint-file';

const tempDir = tempDirsPerTest('checkpoint-place-');
const isRoot = process.getuid?.() === 0;
/** An account other than the console's (nobody), for the tests that need root to chown. */
const OTHER_UID = 65_534;

/** Starts the real entry with AUDIT_CHECKPOINT_DIR; its exit and the lines it printed. */
async function startWith(checkpointDir: string) {
  const users = await writeHarnessUsersFile();
  onTestFinished(() => users.remove());
  const run = runBff({
    OAUTH_CLIENT_ID: 'id',
    OAUTH_CLIENT_SECRET: 'a-client-secret',
    UPSTREAM_BASE_URL: 'https://api.example.com',
    CONSOLE_USERS_FILE: users.path,
    SESSION_SECRET: 's'.repeat(32),
    AUDIT_KEY: 'k'.repeat(32),
    DATA_DIR: tempDir(),
    PORT: String(await freePort()),
    AUDIT_CHECKPOINT_DIR: checkpointDir,
  });
  const exit = await run.exited;
  const lines = run
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '');
  return { code: exit.code, lines };
}

/** A file that is not the console's to write: its mode and content must survive the start. */
function victim() {
  const path = join(tempDir(), 'victim');
  writeFileSync(path, 'precious\n', { mode: 0o644 });
  chmodSync(path, 0o644);
  return path;
}

// Each test starts the console: test-support/process-deadline.ts.
describe(
  'a checkpoint place the console cannot trust stops the start',
  { timeout: PROCESS_TEST_TIMEOUT_MS },
  () => {
    it.skipIf(!isRoot)(
      'a directory owned by another account, its file a link to a root-owned file (needs root to chown)',
      async () => {
        const dir = join(tempDir(), 'checkpoints');
        mkdirSync(dir, { mode: 0o755 });
        const target = victim();
        symlinkSync(target, join(dir, CHECKPOINT_FILE));
        chownSync(dir, OTHER_UID, OTHER_UID);

        const { code, lines } = await startWith(dir);
        expect(code).toBe(1);
        expect(lines).toEqual([
          `Configuration error: AUDIT_CHECKPOINT_DIR ${dir}: it is owned by another account (uid ${OTHER_UID}), not by the console's user (uid 0): another account could replace the checkpoint file; use a directory the console's user owns and no one else can write`,
        ]);
        // Nothing changed through the link, and the directory stays as its owner left it.
        expect(statSync(target).mode & 0o777).toBe(0o644);
        expect(readFileSync(target, 'utf8')).toBe('precious\n');
        expect(statSync(dir).uid).toBe(OTHER_UID);
      },
    );

    it('a checkpoint file that is a link, even in the console’s own directory', async () => {
      const dir = tempDir();
      const target = victim();
      symlinkSync(target, join(dir, CHECKPOINT_FILE));

      const { code, lines } = await startWith(dir);
      expect(code).toBe(1);
      expect(lines).toEqual([
        `Configuration error: AUDIT_CHECKPOINT_DIR ${join(dir, CHECKPOINT_FILE)}: it is a symbolic link, not a regular file; remove it, and the console creates it`,
      ]);
      expect(statSync(target).mode & 0o777).toBe(0o644);
      expect(readFileSync(target, 'utf8')).toBe('precious\n');
    });

    it('a checkpoint file that is a FIFO', async () => {
      const dir = tempDir();
      execFileSync('mkfifo', [join(dir, CHECKPOINT_FILE)]);

      const { code, lines } = await startWith(dir);
      expect(code).toBe(1);
      expect(lines).toEqual([
        `Configuration error: AUDIT_CHECKPOINT_DIR ${join(dir, CHECKPOINT_FILE)}: it is a FIFO (named pipe), not a regular file; remove it, and the console creates it`,
      ]);
    });

    it.skipIf(!isRoot)(
      'a checkpoint file owned by another account (needs root to chown)',
      async () => {
        const dir = tempDir();
        const file = join(dir, CHECKPOINT_FILE);
        writeFileSync(file, '', { mode: 0o600 });
        chownSync(file, OTHER_UID, OTHER_UID);

        const { code, lines } = await startWith(dir);
        expect(code).toBe(1);
        expect(lines).toEqual([
          `Configuration error: AUDIT_CHECKPOINT_DIR ${file}: it is owned by another account (uid ${OTHER_UID}), not by the console's user (uid 0); remove it, and the console creates it`,
        ]);
      },
    );
  },
);

describe('writing a checkpoint line', () => {
  it('refuses a FIFO at once, with no reader, instead of waiting for one', async () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, CHECKPOINT_FILE)]);
    await expect(writeCheckpointLine(dir, '{"seq":1}')).rejects.toThrow(
      'it is a FIFO (named pipe), not a regular file',
    );
  });

  it('refuses a link, and writes nothing through it', async () => {
    const dir = tempDir();
    const target = victim();
    symlinkSync(target, join(dir, CHECKPOINT_FILE));
    await expect(writeCheckpointLine(dir, '{"seq":1}')).rejects.toThrow('symbolic link');
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
  });

  it('creates the file owner-only and appends whole lines', async () => {
    const dir = tempDir();
    await writeCheckpointLine(dir, '{"seq":1}');
    await writeCheckpointLine(dir, '{"seq":2}');
    expect(readFileSync(join(dir, CHECKPOINT_FILE), 'utf8')).toBe('{"seq":1}\n{"seq":2}\n');
    expect(statSync(join(dir, CHECKPOINT_FILE)).mode & 0o777).toBe(0o600);
  });
});

describe('a FIFO swapped in while the console runs', () => {
  let harness: BffHarness | undefined;
  let readerFd: number | undefined;
  afterEach(async () => {
    if (readerFd !== undefined) closeSync(readerFd);
    readerFd = undefined;
    await harness?.close();
    harness = undefined;
  });

  it('fails only the directory’s copy: the export finishes, and readiness and the page say why', async () => {
    const dir = tempDir();
    harness = await startBffHarness({ env: { AUDIT_CHECKPOINT_DIR: dir } });
    const h = harness;
    // The other account swaps the file for a FIFO and listens on it.
    rmSync(join(dir, CHECKPOINT_FILE), { force: true });
    execFileSync('mkfifo', [join(dir, CHECKPOINT_FILE)]);
    readerFd = openSync(join(dir, CHECKPOINT_FILE), constants.O_RDONLY | constants.O_NONBLOCK);

    const exported = await h.request('/api/audit-trail/export', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ format: 'json' }),
    });
    expect(exported.status).toBe(200);
    await exported.text();
    const id = exported.headers.get('x-export-id');
    expect((await h.request(`/api/audit-trail/exports/${id}/signature`)).status).toBe(200);
    expect((await h.request('/healthz')).status).toBe(200);

    // Nothing reached the listener.
    const buffer = Buffer.alloc(4_096);
    let read = 0;
    try {
      read = readSync(readerFd, buffer);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('EAGAIN');
    }
    expect(read).toBe(0);

    const why =
      /could not be written to AUDIT_CHECKPOINT_DIR\/audit-checkpoints\.jsonl: it is a FIFO \(named pipe\), not a regular file/;
    const integrity = AuditIntegritySchema.parse(
      await (await h.request('/api/audit-trail/integrity')).json(),
    );
    expect(integrity.checkpoints.outsideFailure?.error).toMatch(why);
    expect(integrity.checkpoints.outsideFailure?.error).not.toContain(dir);
    const ready = (await (await h.request('/readyz')).json()) as {
      status: string;
      checks: { auditCheckpoints?: { ok: boolean; error?: string } };
    };
    expect(ready.status).toBe('degraded');
    expect(ready.checks.auditCheckpoints).toMatchObject({
      ok: false,
      error: expect.stringMatching(why),
    });

    // Put right, the next checkpoint is written there and the failure clears.
    closeSync(readerFd);
    readerFd = undefined;
    rmSync(join(dir, CHECKPOINT_FILE));
    const again = await h.request('/api/audit-trail/export', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ format: 'csv' }),
    });
    await again.text();
    await h.request(`/api/audit-trail/exports/${again.headers.get('x-export-id')}/signature`);
    const healed = AuditIntegritySchema.parse(
      await (await h.request('/api/audit-trail/integrity')).json(),
    );
    expect(healed.checkpoints.outsideFailure).toBeNull();
    expect(readFileSync(join(dir, CHECKPOINT_FILE), 'utf8')).toMatch(/"signature"/);
  });
});
