// An auditor's check of a real export and a real checkpoint with standard tools alone: the very
// shell blocks docs/audit-trail.md gives ("Verifying with standard tools alone") run with the real
// `openssl`, `jq` and `sha256sum` against what the console produced, and fail when one byte of the
// export, the manifest or the checkpoint changes.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_IDENTIFIERS } from '../../../shared/data-subject-demo';
import { runAuditCli } from '../../cli/audit';
import { startBffHarness, type BffHarness } from '../../test-support/bff-harness';
import { tempDirsPerTest } from '../../test-support/temp-dirs';
import { MISSING_TOOLS, recipe, runRecipe } from '../../test-support/auditor-recipe';
import { CHECKPOINT_FILE } from './checkpoint-file';
import { withPurpose } from '../../test-support/lookup-purpose';

const KEY = 'an-audit-key-for-the-auditor-recipe-0123456789';
const tempDir = tempDirsPerTest('auditor-recipe-');

/** What the operator publishes: the PEM `npm run audit -- public-key` prints. */
async function publishedKey(dir: string): Promise<string> {
  let text = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  const code = await runAuditCli(['public-key'], {
    env: { AUDIT_KEY: KEY },
    stdout: sink,
    stderr: sink,
  });
  expect(code).toBe(0);
  const pem = /-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----\n?/.exec(text)![0];
  const file = join(dir, 'pub.pem');
  writeFileSync(file, pem.endsWith('\n') ? pem : `${pem}\n`);
  return file;
}

let harness: BffHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const tools = MISSING_TOOLS;

describe('an auditor with openssl, jq and sha256sum alone', () => {
  it(`verifies a real export and checkpoint by the documented recipe, and refuses a changed byte${tools.length ? ` (missing: ${tools.join(', ')})` : ''}`, async () => {
    expect(tools, 'the standard tools the recipe needs').toEqual([]);
    const checkpoints = tempDir();
    const work = tempDir();
    harness = await startBffHarness({
      env: { AUDIT_KEY: KEY, AUDIT_CHECKPOINT_DIR: checkpoints },
    });
    const post = (path: string, body: unknown) =>
      harness!.request(
        path,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        },
        { as: 'admin' },
      );
    for (const identifier of DEMO_IDENTIFIERS.slice(0, 3)) {
      const found = await post(
        '/api/data-subjects/lookups',
        withPurpose({ operation: 'v4-details', params: { identifier } }),
      );
      expect(found.status).toBe(200);
    }
    const exported = await post('/api/audit-trail/export', { format: 'csv' });
    expect(exported.status).toBe(200);
    const id = exported.headers.get('x-export-id')!;
    const bytes = Buffer.from(await exported.arrayBuffer());
    const signature = await harness.request(
      `/api/audit-trail/exports/${id}/signature`,
      {},
      { as: 'admin' },
    );
    expect(signature.status).toBe(200);

    const EXPORT = join(work, 'audit-trail.csv');
    const SIG = join(work, 'audit-trail.csv.sig.json');
    const PUB = await publishedKey(work);
    writeFileSync(EXPORT, bytes);
    writeFileSync(SIG, await signature.text());
    // The checkpoint the export took, as the outside file holds it.
    const lines = readFileSync(join(checkpoints, CHECKPOINT_FILE), 'utf8').trim().split('\n');
    const CHECKPOINT = join(work, 'checkpoint.json');
    writeFileSync(CHECKPOINT, lines.at(-1)!);
    // Three lookups (intent and outcome each), the admin's sign-in and the export itself.
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ reason: 'export', seq: 8 });

    const exportRecipe = recipe('verify-export');
    const checkpointRecipe = recipe('verify-checkpoint');
    const good = runRecipe(exportRecipe, work, { EXPORT, SIG, PUB });
    expect(good.code, good.output).toBe(0);
    expect(good.output).toContain('Signature Verified Successfully');
    const goodCheckpoint = runRecipe(checkpointRecipe, work, { CHECKPOINT, PUB });
    expect(goodCheckpoint.code, goodCheckpoint.output).toBe(0);
    expect(goodCheckpoint.output).toContain('Signature Verified Successfully');

    // One byte changed anywhere: the recipe fails.
    const flip = (file: string, at: number, from: string, to: string) => {
      const original = readFileSync(file);
      const changed = Buffer.from(original);
      const index = original.indexOf(from, at);
      expect(index).toBeGreaterThanOrEqual(0);
      changed.write(to, index);
      writeFileSync(file, changed);
      return () => writeFileSync(file, original);
    };
    const cases: Array<[string, () => () => void, string, Record<string, string>]> = [
      [
        'a byte of the export',
        () => flip(EXPORT, 200, 'v4', 'v5'),
        exportRecipe,
        { EXPORT, SIG, PUB },
      ],
      [
        'the manifest’s record count',
        () => flip(SIG, 0, '"records":3', '"records":2'),
        exportRecipe,
        { EXPORT, SIG, PUB },
      ],
      [
        'the checkpoint’s entry',
        () => flip(CHECKPOINT, 0, '"seq":8', '"seq":7'),
        checkpointRecipe,
        { CHECKPOINT, PUB },
      ],
    ];
    for (const [what, change, script, env] of cases) {
      const restore = change();
      const bad = runRecipe(script, work, env);
      expect(bad.code, `${what} changed: ${bad.output}`).not.toBe(0);
      restore();
    }
    // Another key than the published one.
    const other = join(work, 'other.pem');
    const made = spawnSync('sh', [
      '-c',
      `openssl genpkey -algorithm ed25519 | openssl pkey -pubout > ${other}`,
    ]);
    expect(made.status).toBe(0);
    expect(runRecipe(checkpointRecipe, work, { CHECKPOINT, PUB: other }).code).not.toBe(0);
    expect(runRecipe(exportRecipe, work, { EXPORT, SIG, PUB: other }).code).not.toBe(0);
  }, 60_000);

  it(`verifies a real export of administrative changes by the same recipe and verify-export, and refuses a changed byte${tools.length ? ` (missing: ${tools.join(', ')})` : ''}`, async () => {
    expect(tools, 'the standard tools the recipe needs').toEqual([]);
    const work = tempDir();
    harness = await startBffHarness({ env: { AUDIT_KEY: KEY } });
    const set = await harness.request('/api/alerts/thresholds/account-minute/MINUTE', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ percent: 55 }),
    });
    expect(set.status).toBe(204);
    const exported = await harness.request(
      '/api/audit-trail/changes/export',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ format: 'csv', filters: { kind: 'threshold' } }),
      },
      { as: 'auditor' },
    );
    expect(exported.status).toBe(200);
    const id = exported.headers.get('x-export-id')!;
    const EXPORT = join(work, 'audit-changes.csv');
    const SIG = join(work, 'audit-changes.csv.sig.json');
    const PUB = await publishedKey(work);
    writeFileSync(EXPORT, Buffer.from(await exported.arrayBuffer()));
    const signature = await harness.request(
      `/api/audit-trail/exports/${id}/signature`,
      {},
      { as: 'auditor' },
    );
    expect(signature.status).toBe(200);
    writeFileSync(SIG, await signature.text());

    const exportRecipe = recipe('verify-export');
    const good = runRecipe(exportRecipe, work, { EXPORT, SIG, PUB });
    expect(good.code, good.output).toBe(0);
    expect(good.output).toContain('Signature Verified Successfully');
    const cli = async () => {
      let text = '';
      const sink = new Writable({
        write(chunk, _encoding, done) {
          text += String(chunk);
          done();
        },
      });
      const code = await runAuditCli(['verify-export', EXPORT, SIG], {
        env: { AUDIT_KEY: KEY },
        stdout: sink,
        stderr: sink,
      });
      return { code, text };
    };
    const verified = await cli();
    expect(verified.code, verified.text).toBe(0);
    expect(verified.text).toContain('administrative changes, filters: kind threshold');

    // The state after, edited from 55 to 56: both refuse it.
    const original = readFileSync(EXPORT);
    const index = original.indexOf('""percent"":55');
    expect(index).toBeGreaterThan(0);
    const changed = Buffer.from(original);
    changed.write('""percent"":56', index);
    writeFileSync(EXPORT, changed);
    expect(runRecipe(exportRecipe, work, { EXPORT, SIG, PUB }).code).not.toBe(0);
    const refused = await cli();
    expect(refused.code).toBe(1);
    expect(refused.text).toContain('the export was changed');
  }, 60_000);
});
