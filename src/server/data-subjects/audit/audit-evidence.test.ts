// The audit trail against an attacker who can write to its database, on both engines: the newest
// entries cut off with the chain's head rewound, or the whole trail wiped, are caught by the
// signed checkpoints kept outside the database; a checkpoint signed with another key is refused;
// an incomplete record (an intent whose outcome never came, e.g. after kill -9) cannot be edited
// unnoticed; and the console's files are owner-only.
import { killAfterLines } from '../../test-support/kill-after-lines';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAuditCli } from '../../cli/audit';
import { createLogger } from '../../observability/logger';
import { AuditEvidenceStore } from './audit-evidence-store';
import { openAuditTrailStores, type AuditTrailStores } from './audit-trail-stores';
import { DATABASE_FILE, openDatabase } from '../../store/database';
import { RESET_AUDIT_TRAIL_SQL, sampleAuditEntry } from '../../test-support/audit-entry';
import { STORE_ENGINES, type TestDatabase } from '../../test-support/store-engines';
import { PROCESS_TEST_TIMEOUT_MS } from '../../test-support/process-deadline';
import { tempDirsPerTest } from '../../test-support/temp-dirs';
import { deriveAuditKey } from './audit-chain';
import { CHECKPOINT_FILE } from './checkpoint-file';
import { createCheckpointer, type Checkpointer } from './checkpoint-job';
import { checkpointSource } from './checkpoint-reader';
import { checkpointLine, signCheckpoint } from './checkpoints';
import { createExportSigner } from './export-signing';
import { verifyAuditChain } from './verify-chain';
import * as z from 'zod';
import { select } from '../../store/typed-rows';
import { utcText } from '../../../shared/utc-text';

const KEY = 'an-audit-key-for-the-evidence-tests-0123456789';
const CHAIN_KEY = deriveAuditKey(KEY, 'chain');
const signer = createExportSigner(KEY);
const T0 = Date.UTC(2026, 10, 2, 9, 0, 0);
const ZERO = '0'.repeat(64);
const tempDir = tempDirsPerTest('audit-evidence-');

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`audit evidence on ${engine.title}`, () => {
    let db: TestDatabase;
    let trail: AuditTrailStores;
    let evidence: AuditEvidenceStore;
    let dir: string;
    let checkpointer: Checkpointer;
    let clock = T0;

    beforeAll(async () => {
      db = await engine.open();
      trail = openAuditTrailStores(db, { chainKey: CHAIN_KEY });
      evidence = new AuditEvidenceStore(db);
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      await db.exec(RESET_AUDIT_TRAIL_SQL);
      dir = tempDir();
      clock = T0;
      checkpointer = createCheckpointer({
        chain: trail.chain,
        evidence,
        signer,
        dir,
        intervalMs: 300_000,
        logger: createLogger('silent'),
        now: () => clock,
      });
    });

    const lookups = async (count: number) => {
      for (let i = 0; i < count; i += 1) {
        clock += 1_000;
        await trail.records.record(
          sampleAuditEntry(clock, { shownHashes: [`${i % 10}`.repeat(64)] }),
        );
      }
    };
    const verify = async (outside = true) =>
      verifyAuditChain(trail.chain, CHAIN_KEY, {
        now: () => clock,
        source: 'test',
        checkpoints: {
          publicKeyPem: signer.publicKeyPem,
          sources: outside
            ? await checkpointer.sources()
            : [checkpointSource('the database', await evidence.checkpoints())],
        },
      });
    /** The attacker's rewind: drops entries after `seq` and points the head back at `seq`. */
    const rewindTo = async (seq: number) => {
      const { rows } = await select(
        db,
        z.object({ hash: z.string(), record_id: z.string().nullable() }),
        'SELECT hash, record_id FROM audit_chain WHERE seq = $1',
        [seq],
      );
      const hash = rows[0]?.hash ?? ZERO;
      await db.query(
        `DELETE FROM lookup_audit_subjects WHERE audit_id IN
          (SELECT record_id FROM audit_chain WHERE seq > $1)`,
        [seq],
      );
      await db.query(
        'DELETE FROM lookup_audit WHERE id IN (SELECT record_id FROM audit_chain WHERE seq > $1)',
        [seq],
      );
      await db.query('DELETE FROM audit_chain WHERE seq > $1', [seq]);
      // Everything in the database that says otherwise goes too.
      await db.query('DELETE FROM audit_checkpoints WHERE seq > $1', [seq]);
      await db.query(`UPDATE audit_chain_state SET seq = $1, hash = $2 WHERE name = 'head'`, [
        seq,
        hash,
      ]);
    };

    it('names the newest of the checkpoints of the last entry, in UTC, when the chain is intact', async () => {
      await lookups(10);
      const first = await checkpointer.take('interval');
      clock += 60_000;
      const second = await checkpointer.take('export');
      expect(second?.seq).toBe(first?.seq);
      expect(second?.at).not.toBe(first?.at);
      const found = await verify();
      expect(found.ok).toBe(true);
      expect(found.detail).toMatch(/matches \d+ signed checkpoints, the latest of entry/);
      expect(found.detail).toContain(
        `the latest of entry ${second!.seq}, taken ${utcText(second!.at)}`,
      );
    });

    it('catches the newest entries cut off and the head rewound, naming the checkpoint', async () => {
      await lookups(10);
      await checkpointer.take('interval');
      await lookups(10);
      const latest = await checkpointer.take('interval');
      expect(latest?.seq).toBe(40);
      expect((await verify()).ok).toBe(true);

      await rewindTo(30);
      const found = await verify();
      expect(found.ok).toBe(false);
      expect(found.detail).toContain(`the chain ends at entry 30`);
      expect(found.detail).toContain(`signed entry 40: 10 entries are missing`);
      expect(found.detail).toContain(`AUDIT_CHECKPOINT_DIR/${CHECKPOINT_FILE}`);
      expect(found.detail).toContain(utcText(latest!.at));
      // The database alone no longer holds the evidence: that is what the outside copy is for.
      expect((await verify(false)).ok).toBe(true);
    });

    it('catches a wiped trail', async () => {
      await lookups(5);
      await checkpointer.take('export');
      await db.exec(`DELETE FROM lookup_audit; DELETE FROM lookup_audit_subjects;
        DELETE FROM audit_chain; DELETE FROM audit_checkpoints;
        UPDATE audit_chain_state SET seq = 0, hash = '${ZERO}'`);
      const found = await verify();
      expect(found.ok).toBe(false);
      expect(found.detail).toMatch(/ends at entry 0, .* signed entry 10: 10 entries are missing/);
    });

    it('catches a rewritten chain whose length was kept', async () => {
      await lookups(3);
      await checkpointer.take('interval');
      // Entry 6 replaced by an entry with the same number but other content and hash: the HMAC
      // stops an attacker without the key; a checkpoint stops one who rebuilt the chain with it.
      await db.query(`UPDATE audit_chain SET hash = $1 WHERE seq = 6`, ['f'.repeat(64)]);
      await db.query(`UPDATE audit_chain_state SET hash = $1 WHERE name = 'head'`, [
        'f'.repeat(64),
      ]);
      const found = await verify();
      expect(found.ok).toBe(false);
      expect(found.brokenAt).toBe(6);
    });

    it('refuses a checkpoint signed with another key, or changed after it was signed', async () => {
      await lookups(2);
      await checkpointer.take('interval');
      const other = createExportSigner('another-audit-key-of-at-least-32-characters');
      const forged = checkpointLine(signCheckpoint(other, { seq: 2, hash: ZERO }, clock, 'export'));
      writeFileSync(join(dir, CHECKPOINT_FILE), `${forged}\n`, { flag: 'a' });
      const refused = await verify();
      expect(refused.ok).toBe(false);
      expect(refused.detail).toMatch(/refused: it was signed with another key/);

      const own = readFileSync(join(dir, CHECKPOINT_FILE), 'utf8').split('\n')[0]!;
      writeFileSync(join(dir, CHECKPOINT_FILE), `${own.replace('"seq":4', '"seq":3')}\n`);
      const changed = await verify();
      expect(changed.ok).toBe(false);
      expect(changed.detail).toMatch(/signature does not hold/);
    });

    describe('an incomplete record (intent without outcome)', () => {
      const edits: Array<[string, string]> = [
        ['its outcome set to not-found', `UPDATE lookup_audit SET outcome = 'not-found'`],
        ['its status set', `UPDATE lookup_audit SET status = 404`],
        ['its detail set', `UPDATE lookup_audit SET detail = 'nothing to see'`],
        ['its record count set', `UPDATE lookup_audit SET record_count = 3`],
        ['its subject count set', `UPDATE lookup_audit SET subject_count = 1`],
        [
          'a shown key planted',
          `INSERT INTO lookup_audit_subjects (audit_id, identifier_hash, at)
            SELECT id, '${'c'.repeat(64)}', at FROM lookup_audit`,
        ],
      ];
      for (const [what, sql] of edits) {
        it(`fails verification with ${what}`, async () => {
          await trail.records.begin({
            at: T0,
            connection: 'default',
            user: 'admin',
            operation: 'v4-details',
            identifierHash: 'a'.repeat(64),
            keyId: 'k',
            continued: false,
            requestId: 'r',
          });
          expect((await verify()).ok).toBe(true);
          await db.exec(sql);
          const found = await verify();
          expect(found.ok).toBe(false);
          expect(found.detail).toMatch(/has no outcome in the chain, but shows one/);
        });
      }
    });
  });
}

describe('the operator’s verify command', () => {
  const run = async (argv: string[], env: Record<string, string>) => {
    let text = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    });
    const code = await runAuditCli(argv, { env, stdout: sink, stderr: sink, now: () => T0 });
    return { code, text };
  };

  it('reports a rewound trail as broken from the checkpoint file, and a missing file by its path', async () => {
    const dataDir = tempDir();
    const outside = tempDir();
    const db = await openDatabase({ dataDir });
    const trail = openAuditTrailStores(db, { chainKey: CHAIN_KEY });
    const evidence = new AuditEvidenceStore(db);
    const checkpointer = createCheckpointer({
      chain: trail.chain,
      evidence,
      signer,
      dir: outside,
      intervalMs: 300_000,
      logger: createLogger('silent'),
      now: () => T0,
    });
    for (let i = 0; i < 4; i += 1) await trail.records.record(sampleAuditEntry(T0 + i * 1_000));
    await checkpointer.take('interval');
    // The console's files are the owner's alone.
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, DATABASE_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(join(outside, CHECKPOINT_FILE)).mode & 0o777).toBe(0o600);
    await db.exec(`DELETE FROM audit_chain WHERE seq > 4; DELETE FROM audit_checkpoints;
      DELETE FROM lookup_audit WHERE id NOT IN (SELECT record_id FROM audit_chain);
      UPDATE audit_chain_state SET seq = 4,
        hash = (SELECT hash FROM audit_chain WHERE seq = 4) WHERE name = 'head'`);
    await db.close();

    const env = { DATA_DIR: dataDir, AUDIT_KEY: KEY };
    // Without the outside copy the cut cannot be seen; with it, it is.
    expect((await run(['verify'], env)).code).toBe(0);
    const copy = join(tempDir(), 'saved.jsonl');
    mkdirSync(join(copy, '..'), { recursive: true });
    // A saved log: the checkpoint is one line among others.
    writeFileSync(
      copy,
      `{"level":30,"msg":"request"}\n${JSON.stringify({ level: 30, checkpoint: JSON.parse(readFileSync(join(outside, CHECKPOINT_FILE), 'utf8')), msg: 'audit checkpoint' })}\n`,
    );
    for (const argv of [['verify', '--checkpoints', copy], ['verify']]) {
      const broken = await run(
        argv,
        argv.length > 1 ? env : { ...env, AUDIT_CHECKPOINT_DIR: outside },
      );
      expect(broken.code, broken.text).toBe(1);
      expect(broken.text).toMatch(
        /AUDIT CHAIN BROKEN \(SQLite\) at entry 5: .*signed entry 8: 4 entries are missing/,
      );
    }
    const missing = await run(['verify', '--checkpoints', join(outside, 'nope.jsonl')], env);
    expect(missing.code).toBe(2);
    expect(missing.text).toContain(
      `cannot use the checkpoint file ${join(outside, 'nope.jsonl')}: it does not exist`,
    );
  });
});

// The test starts a writer as a process: test-support/process-deadline.ts.
describe('kill -9 while checkpoints are being taken', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('loses no checkpoint that was reported written', async () => {
    const dataDir = tempDir();
    const outside = tempDir();
    const reported = (
      await killAfterLines(
        'src/server/data-subjects/audit/fixtures/checkpoint-writer.ts',
        [dataDir, outside, KEY],
        25,
      )
    ).map((line) => Number(line.replace('written ', '')));
    const kept = readFileSync(join(outside, CHECKPOINT_FILE), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { seq: number });
    const keptSeqs = new Set(kept.map((checkpoint) => checkpoint.seq));
    expect(reported.filter((seq) => !keptSeqs.has(seq))).toEqual([]);
    // And the trail written so far verifies against every checkpoint that survived.
    const db = await openDatabase({ dataDir });
    try {
      const trail = openAuditTrailStores(db, { chainKey: CHAIN_KEY });
      const evidence = new AuditEvidenceStore(db);
      const verification = await verifyAuditChain(trail.chain, CHAIN_KEY, {
        now: Date.now,
        source: 'test',
        checkpoints: {
          publicKeyPem: signer.publicKeyPem,
          sources: [
            checkpointSource('the database', await evidence.checkpoints()),
            checkpointSource(
              'the file',
              readFileSync(join(outside, CHECKPOINT_FILE), 'utf8').split('\n'),
            ),
          ],
        },
      });
      expect(verification.ok, verification.detail).toBe(true);
    } finally {
      await db.close();
    }
  });
});
