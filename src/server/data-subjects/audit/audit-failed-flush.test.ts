// The disk refuses to flush the embedded store's log (an I/O error) while people look people up:
// the lookup whose intent could not be made durable sends nothing and answers 503, the replica
// leaves rotation naming the disk, and it stays out (no later write can be promised durable after
// a failed flush) while reads of the trail keep working.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_IDENTIFIERS } from '../../../shared/data-subject-demo';
import { AUDIT_PROBE_INTERVAL_MS } from './lookup-audit-writer';
import { DATABASE_FILE, openDatabase } from '../../store/database';
import { startBffHarness } from '../../test-support/bff-harness';
import { withPurpose } from '../../test-support/lookup-purpose';
import { tempDirsPerTest } from '../../test-support/temp-dirs';

const tempDir = tempDirsPerTest('audit-failed-flush-');

describe('a disk that refuses to flush the store', () => {
  it('fails the lookup before anything is sent and keeps the replica out of rotation', async () => {
    let offset = 0;
    const now = () => Date.now() + offset;
    let diskFails = false;
    const dataDir = tempDir();
    const database = await openDatabase({
      dataDir,
      flushFile: async (file) => {
        if (diskFails) throw Object.assign(new Error('input/output error'), { code: 'EIO' });
        await file.datasync();
      },
    });
    const h = await startBffHarness({
      env: { AUDIT_KEY: 'an-audit-key-of-at-least-32-characters!!' },
      database,
      now,
    });
    const lookUp = (identifier: string) =>
      h.request(
        '/api/data-subjects/lookups',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(withPurpose({ operation: 'v4-details', params: { identifier } })),
        },
        { as: 'admin' },
      );
    try {
      expect((await lookUp(DEMO_IDENTIFIERS[0]!)).status).toBe(200);
      expect(h.mock.dataSubjects.received()).toHaveLength(1);
      expect((await h.request('/readyz')).status).toBe(200);

      diskFails = true;
      const refused = await lookUp(DEMO_IDENTIFIERS[1]!);
      expect(refused.status).toBe(503);
      expect(h.mock.dataSubjects.received()).toHaveLength(1);

      // The disk answers again, but nothing is written until a restart.
      diskFails = false;
      offset += AUDIT_PROBE_INTERVAL_MS;
      const ready = await h.request('/readyz');
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as { checks: { auditWrites: { error: string } } };
      expect(body.checks.auditWrites.error).toBe(
        `The disk holding ${join(dataDir, DATABASE_FILE)} failed to flush a write (EIO): the console writes nothing more until it is restarted; check the disk, then restart it`,
      );
      expect((await lookUp(DEMO_IDENTIFIERS[2]!)).status).toBe(503);
      expect(h.mock.dataSubjects.received()).toHaveLength(1);
      // The trail still reads: the first lookup is listed.
      const trail = await h.request('/api/audit-trail', {}, { as: 'auditor' });
      expect(trail.status).toBe(200);
      const { items } = (await trail.json()) as { items: Array<{ outcome: string }> };
      expect(items.map((item) => item.outcome)).toContain('ok');
    } finally {
      await h.close();
      await database.close();
    }
  });
});
