// A real full disk under the console's SQLite store (a small tmpfs, when this process may mount
// one: root, as in CI): readiness turns 503 with `auditWrites` failing, and the health banner
// says so, before any lookup is tried, because its probe commits a write (a rolled-back one never
// touches the disk and passed on a full one); lookups send nothing; freeing the disk recovers.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConsoleHealthSchema } from '../../../shared/console-health';
import { DEMO_IDENTIFIERS } from '../../../shared/data-subject-demo';
import { AUDIT_PROBE_INTERVAL_MS } from './lookup-audit-writer';
import { openDatabase } from '../../store/database';
import { startBffHarness } from '../../test-support/bff-harness';
import { withPurpose } from '../../test-support/lookup-purpose';

const mountPoint = mkdtempSync(join(tmpdir(), 'audit-full-disk-'));
const mounted =
  spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint]).status === 0;
afterAll(() => {
  if (mounted) spawnSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Writes filler until the filesystem refuses another byte. */
function fillDisk(file: string) {
  const block = Buffer.alloc(16 * 1024);
  try {
    for (;;) appendFileSync(file, block);
  } catch {
    try {
      for (;;) appendFileSync(file, Buffer.alloc(512));
    } catch {
      // full
    }
  }
}

describe.skipIf(!mounted)(
  `a full disk under the store${mounted ? '' : ' (skipped: this process may not mount a tmpfs; run as root)'}`,
  () => {
    it('takes the replica out of rotation and shows the banner before any lookup, and recovers', async () => {
      let offset = 0;
      const now = () => Date.now() + offset;
      const database = await openDatabase({ dataDir: join(mountPoint, 'data') });
      const h = await startBffHarness({
        env: { AUDIT_KEY: 'an-audit-key-of-at-least-32-characters!!' },
        database,
        now,
      });
      try {
        expect((await h.request('/readyz')).status).toBe(200);
        const filler = join(mountPoint, 'filler');
        fillDisk(filler);
        offset += AUDIT_PROBE_INTERVAL_MS;
        const ready = await h.request('/readyz');
        expect(ready.status).toBe(503);
        const body = (await ready.json()) as {
          checks: { auditWrites: { ok: boolean; error: string } };
        };
        expect(body.checks.auditWrites).toMatchObject({
          ok: false,
          error: expect.stringMatching(/full/),
        });
        const health = ConsoleHealthSchema.parse(await (await h.request('/api/health')).json());
        expect(health.audit).toBe('failing');
        const lookup = await h.request(
          '/api/data-subjects/lookups',
          {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(
              withPurpose({ operation: 'v4-details', params: { identifier: DEMO_IDENTIFIERS[0] } }),
            ),
          },
          { as: 'admin' },
        );
        expect(lookup.status).toBe(503);
        expect(h.mock.dataSubjects.received()).toHaveLength(0);

        rmSync(filler);
        offset += AUDIT_PROBE_INTERVAL_MS;
        expect((await h.request('/readyz')).status).toBe(200);
      } finally {
        await h.close();
        await database.close();
      }
    });
  },
);
