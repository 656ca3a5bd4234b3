// The accountability figures counted by the database, on both engines (SQLite always; PostgreSQL
// when TEST_DATABASE_URL is set): exact on a trail with and without purposes, two people, a token
// and changes, with entries just outside the period left out.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  SEEDED_FIGURES,
  SEEDED_PERIOD,
  seedAccountabilityTrail,
} from '../../test-support/accountability-trail';
import { RESET_AUDIT_TRAIL_SQL } from '../../test-support/audit-entry';
import { STORE_ENGINES, type TestDatabase } from '../../test-support/store-engines';
import { AccountabilityStore } from './accountability-store';
import { deriveAuditKey } from './audit-chain';
import { openAuditTrailStores } from './audit-trail-stores';

const CHAIN_KEY = deriveAuditKey('an-audit-key-for-the-accountability-tests-0123', 'chain');

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`accountability figures on ${engine.title}`, () => {
    let db: TestDatabase;
    let figures: AccountabilityStore;
    beforeAll(async () => {
      db = await engine.open();
      figures = new AccountabilityStore(() => Promise.resolve(db));
    });
    afterAll(() => db?.close());
    beforeEach(() => db.exec(RESET_AUDIT_TRAIL_SQL));

    it('counts people, lookups, actors, purposes and changes of the period exactly', async () => {
      await seedAccountabilityTrail(openAuditTrailStores(db, { chainKey: CHAIN_KEY }).records);
      expect(await figures.figures(SEEDED_PERIOD.since, SEEDED_PERIOD.until)).toEqual(
        SEEDED_FIGURES,
      );
    });

    it('answers zeros, not nulls, for a period with nothing in it', async () => {
      expect(await figures.figures(SEEDED_PERIOD.since, SEEDED_PERIOD.until)).toEqual({
        lookups: { total: 0, people: 0, withoutPerson: 0 },
        actors: [],
        purposes: [],
        withoutPurpose: { lookups: 0, people: 0 },
        changes: { total: 0, byAction: [] },
      });
    });
  });
}
