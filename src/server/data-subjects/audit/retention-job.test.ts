// The daily retention on an injected clock: records older than the retention are deleted, the
// chain continues from a signed checkpoint that the walk accepts, the run is recorded, and the
// walk's result is what the audit page shows as "last verified".
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../observability/logger';
import { AuditEvidenceStore } from './audit-evidence-store';
import { openAuditTrailStores } from './audit-trail-stores';
import { openDatabase } from '../../store/database';
import { sampleAuditEntry } from '../../test-support/audit-entry';
import { deriveAuditKey } from './audit-chain';
import { runAuditMaintenance } from './retention-job';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2024, 0, 1);
const chainKey = deriveAuditKey('test-audit-key-of-at-least-32-characters', 'chain');

describe('runAuditMaintenance', () => {
  it('deletes what is older than the retention, keeps the chain whole, and says when it ran', async () => {
    const db = await openDatabase();
    try {
      const trail = openAuditTrailStores(db, { chainKey });
      const evidence = new AuditEvidenceStore(db);
      // One lookup a month for 30 months.
      for (let month = 0; month < 30; month += 1) {
        await trail.records.record(sampleAuditEntry(T0 + month * 30 * DAY));
      }
      let now = T0 + 30 * 30 * DAY;
      const options = {
        chain: trail.chain,
        evidence,
        chainKey,
        retentionDays: 730,
        logger: createLogger('silent'),
        now: () => now,
      };
      const first = await runAuditMaintenance(options);
      // 900 days of records, 730 kept: the oldest 6 (days 0..150) go.
      expect(first.retention.deleted).toBe(6);
      expect(first.verification).toMatchObject({ ok: true, source: 'the daily retention job' });
      expect((await trail.search.list({ limit: 100 })).items).toHaveLength(24);
      expect(await evidence.lastVerification()).toMatchObject({
        ok: true,
        at: new Date(now).toISOString(),
      });
      expect((await trail.chain.chainState()).lastRetention).toMatchObject({ deleted: 6 });

      // A day later, nothing new has expired: the run changes nothing but says it ran.
      now += DAY;
      const second = await runAuditMaintenance(options);
      expect(second.retention.deleted).toBe(0);
      expect(second.verification.ok).toBe(true);
      expect((await trail.chain.chainState()).lastRetention).toMatchObject({
        at: new Date(now).toISOString(),
        deleted: 0,
      });
      // A month later the next one goes, and the chain still holds from the new checkpoint.
      now += 30 * DAY;
      const third = await runAuditMaintenance(options);
      expect(third.retention.deleted).toBe(1);
      expect(third.verification.ok).toBe(true);
    } finally {
      await db.close();
    }
  });
});
