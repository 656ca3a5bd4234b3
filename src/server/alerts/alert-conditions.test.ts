// Which limit conditions are firing, on both engines (SQLite always; PostgreSQL when
// TEST_DATABASE_URL is set): one episode however many replicas see it, reminders only after the
// repeat interval, one "resolved" when it ends.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STORE_ENGINES, type TestDatabase } from '../test-support/store-engines';
import { AlertConditions } from './alert-conditions';

const T0 = Date.UTC(2026, 10, 25, 15, 0, 0);
const HOUR = 3_600_000;

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`limit conditions on ${engine.title}`, () => {
    let db: TestDatabase;
    let conditions: AlertConditions;

    beforeAll(async () => {
      db = await engine.open();
      conditions = new AlertConditions(() => Promise.resolve(db));
    });
    afterAll(() => db?.close());
    beforeEach(() => db.exec('DELETE FROM alert_conditions'));

    it('starts one episode for two replicas, then stays quiet until the repeat interval', async () => {
      const both = await Promise.all([
        conditions.firing('limit.near:account-minute:MINUTE', T0, HOUR),
        conditions.firing('limit.near:account-minute:MINUTE', T0 + 1, HOUR),
      ]);
      expect(both.filter((change) => change.kind === 'firing')).toHaveLength(1);
      expect(
        await conditions.firing('limit.near:account-minute:MINUTE', T0 + HOUR - 1, HOUR),
      ).toEqual({ kind: 'none' });
      expect(
        await conditions.firing('limit.near:account-minute:MINUTE', T0 + HOUR + 1, HOUR),
      ).toEqual({ kind: 'firing', since: expect.any(Number), repeat: true });
      expect(
        await conditions.firing('limit.near:account-minute:MINUTE', T0 + HOUR + 2, null),
      ).toEqual({ kind: 'none' });
    });

    it('resolves a firing condition once, and nothing that was not firing', async () => {
      expect(await conditions.calm('limit.near:account-hour:HOUR')).toEqual({ kind: 'none' });
      await conditions.firing('limit.near:account-hour:HOUR', T0, null);
      expect(await conditions.calm('limit.near:account-hour:HOUR')).toEqual({
        kind: 'resolved',
        since: T0,
      });
      expect(await conditions.calm('limit.near:account-hour:HOUR')).toEqual({ kind: 'none' });
    });
  });
}
