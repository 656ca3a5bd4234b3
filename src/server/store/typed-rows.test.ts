// Rows are checked where they are read: a value planted in a table by hand (or a column an engine
// answers with another type) fails loudly, naming the table and the column, on both engines,
// instead of flowing on as a silently wrong answer.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertStore } from '../alerts/alert-store';
import { SqlIncidentStore } from '../rate-limits/incident-store';
import { sampleObservation } from '../test-support/incident-observation';
import { STORE_ENGINES, type TestDatabase } from '../test-support/store-engines';
import { StoredRowError } from './typed-rows';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`typed rows on ${engine.title}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await engine.open();
    });
    afterAll(() => db?.close());

    it('reads the incidents the store wrote', async () => {
      const store = new SqlIncidentStore(db, { connection: DEFAULT_CONNECTION });
      await store.record(sampleObservation({}, T0));
      const { items } = await store.list({ limit: 10 });
      expect(items).toMatchObject([{ hits: 1, scope: 'account' }]);
      expect(typeof items[0]?.seq).toBe('number');
    });

    it('refuses a row whose column holds what the console never writes, naming both', async () => {
      // `enabled` is 0 or 1 (or a boolean): a 7 planted by hand is no answer to "is it on?".
      await db.query(
        `INSERT INTO alert_destinations
           (id, name, kind, url, secret, events, enabled, hold_back_seconds, created_at, updated_at)
         VALUES ('d1', 'Ops', 'webhook', 'https://hooks.example.com/x', NULL, '[]', 7, 0, $1, $1)`,
        [new Date(T0).toISOString()],
      );
      const read = new AlertStore(() => Promise.resolve(db)).listDestinations();
      await expect(read).rejects.toBeInstanceOf(StoredRowError);
      await expect(read).rejects.toThrow(/alert_destinations .*column enabled/);
    });
  });
}
