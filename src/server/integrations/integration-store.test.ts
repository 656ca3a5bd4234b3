// The integration store on both engines (SQLite always; PostgreSQL when TEST_DATABASE_URL is
// set): keys stored only hashed, rotation and revocation, per-minute aggregation of reports, and
// the retention on an injected clock.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STORE_ENGINES, type TestDatabase } from '../test-support/store-engines';
import { hashReportingKey } from './integration-keys';
import { IntegrationStore } from './integration-store';
import { ReportedMinutesReader } from './reported-minutes-reader';
import { ReportAggregates } from './report-aggregates';
import * as z from 'zod';
import { select } from '../store/typed-rows';

const T0 = Date.UTC(2026, 2, 10, 9, 30, 0);

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`the integration store on ${engine.title}`, () => {
    let db: TestDatabase;
    let clock = T0;
    let store: IntegrationStore;
    let reports: ReportAggregates;

    beforeAll(async () => {
      db = await engine.open();
      store = new IntegrationStore(db, () => clock);
      reports = new ReportAggregates(db, () => clock);
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      clock = T0;
      await db.exec(
        'DELETE FROM integration_minutes; DELETE FROM integration_throttles; DELETE FROM integrations',
      );
    });

    it('keeps only the hash of a key; rotation and revocation take effect at once', async () => {
      const { integration, key } = await store.register(
        'Nightly sync',
        'data team',
        DEFAULT_CONNECTION,
      );
      const { rows } = await select(
        db,
        z.record(z.string(), z.unknown()),
        'SELECT * FROM integrations',
      );
      expect(JSON.stringify(rows)).not.toContain(key);
      expect(rows[0]?.key_hash).toBe(hashReportingKey(key));
      expect((await store.authenticate(key))?.id).toBe(integration.id);
      const rotated = await store.rotate(integration.id);
      expect(await store.authenticate(key)).toBeUndefined();
      expect((await store.authenticate(rotated!.key))?.id).toBe(integration.id);
      await store.revoke(integration.id);
      expect(await store.authenticate(rotated!.key)).toBeUndefined();
      expect((await store.findById(integration.id))?.status).toBe('revoked');
      await expect(store.register('NIGHTLY SYNC', null, DEFAULT_CONNECTION)).rejects.toThrow(
        /exists/,
      );
    });

    it('removes only a revoked integration, keeping its name for its history and freeing it', async () => {
      const { integration, key } = await store.register(
        'Nightly sync',
        'data team',
        DEFAULT_CONNECTION,
      );
      expect(await store.remove(integration.id)).toBe('active');
      await store.revoke(integration.id);
      expect(await store.remove(integration.id)).toMatchObject({ id: integration.id });
      expect(await store.list()).toEqual([]);
      expect(await store.findById(integration.id)).toBeUndefined();
      expect(await store.remove(integration.id)).toBeUndefined();
      // A rotation cannot bring a removed integration back with a working key.
      expect(await store.rotate(integration.id)).toBeUndefined();
      expect(await store.authenticate(key)).toBeUndefined();
      const again = await store.register('nightly SYNC', null, DEFAULT_CONNECTION);
      expect(await store.names()).toEqual(
        new Map([
          [again.integration.id, 'nightly SYNC'],
          [integration.id, 'Nightly sync (removed integration)'],
        ]),
      );
    });

    it('stores a source at most the ceiling a minute, across reports written together or apart', async () => {
      const capped = new ReportAggregates(
        db,
        () => clock,
        undefined,
        () => 1_000,
      );
      const { integration } = await store.register('Made-up reporter', null, DEFAULT_CONNECTION);
      const entry = (template: string, requests: number) => ({
        minute: T0,
        method: 'GET',
        template,
        requests,
        throttled: requests,
      });
      // Two reports in one write, then a third on its own: 600 + 600 + 600 claimed.
      const [first, second] = await Promise.all([
        capped.storeReport(integration.id, [entry('/a', 600)], []),
        capped.storeReport(integration.id, [entry('/b', 600)], []),
      ]);
      const third = await capped.storeReport(integration.id, [entry('/a', 600)], []);
      expect([first.capped, second.capped, third.capped]).toEqual([
        { minutes: 0, requests: 0 },
        { minutes: 1, requests: 200 },
        { minutes: 1, requests: 600 },
      ]);
      const rows = await capped.minutesSince(T0);
      expect(rows.reduce((sum, row) => sum + row.requests, 0)).toBe(1_000);
      // A 429 count never exceeds the requests kept.
      for (const row of rows) expect(row.throttled).toBeLessThanOrEqual(row.requests);
    });

    it('adds reports of the same minute and operation into one row', async () => {
      const { integration } = await store.register('Sync', null, DEFAULT_CONNECTION);
      const entry = {
        minute: T0 + 5_000,
        method: 'GET',
        template: '/v1/preferences',
        requests: 10,
        throttled: 1,
      };
      await reports.storeReport(integration.id, [entry], []);
      await reports.storeReport(
        integration.id,
        [{ ...entry, minute: T0 + 40_000, requests: 5, throttled: 0 }],
        [],
      );
      const rows = await reports.minutesSince(T0 - 60_000);
      expect(rows).toEqual([
        {
          integrationId: integration.id,
          connection: DEFAULT_CONNECTION,
          minute: T0,
          method: 'GET',
          template: '/v1/preferences',
          requests: 15,
          throttled: 1,
        },
      ]);
      expect((await store.findById(integration.id))?.lastReportAt).toBe(new Date(T0).toISOString());
    });

    it('keeps an integration’s reports in the connection it was registered to', async () => {
      const { integration: uat } = await store.register('UAT sync', null, 'uat');
      const { integration: production } = await store.register('Sync', null, DEFAULT_CONNECTION);
      const entry = { minute: T0, method: 'GET', template: '/v1/preferences', throttled: 0 };
      const throttle = {
        at: T0,
        incidentKey: '3f2b8c1e-9a4d-4e6b-8f7a-1c2d3e4f5a6b',
        eventId: null,
        method: 'GET',
        template: '/v1/preferences',
        period: null,
        requestsAllowed: null,
        requestsMade: null,
        retryAfterSeconds: null,
      };
      await reports.storeReport(uat.id, [{ ...entry, requests: 7 }], [throttle]);
      await reports.storeReport(production.id, [{ ...entry, requests: 3 }], []);

      expect(uat.connection).toBe('uat');
      expect((await store.list({ connection: 'uat' })).map((item) => item.name)).toEqual([
        'UAT sync',
      ]);
      expect((await store.list()).map((item) => item.connection)).toEqual(['default', 'uat']);
      expect(await reports.minutesSince(T0, 'uat')).toMatchObject([
        { integrationId: uat.id, connection: 'uat', requests: 7 },
      ]);
      expect(await reports.throttlesSince(T0, 10, DEFAULT_CONNECTION)).toEqual([]);
      expect(await reports.throttlesSince(T0, 10, 'uat')).toMatchObject([
        { integrationId: uat.id, connection: 'uat' },
      ]);
      const readUat = new ReportedMinutesReader(db, { connection: 'uat' });
      expect((await readUat.rowsIn([T0])).map((row) => [row.source, row.requests])).toEqual([
        [uat.id, 7],
      ]);
    });

    it('deletes aggregates and 429s older than the retention, and keeps the rest', async () => {
      const { integration } = await store.register('Sync', null, DEFAULT_CONNECTION);
      const day = 86_400_000;
      const throttle = {
        at: T0 - 8 * day,
        incidentKey: 'old',
        eventId: null,
        method: 'GET',
        template: '/v1/preferences',
        period: 'MINUTE' as const,
        requestsAllowed: 3000,
        requestsMade: 3001,
        retryAfterSeconds: 60,
      };
      await reports.storeReport(
        integration.id,
        [
          {
            minute: T0 - 8 * day,
            method: 'GET',
            template: '/v1/preferences',
            requests: 1,
            throttled: 0,
          },
          {
            minute: T0 - 6 * day,
            method: 'GET',
            template: '/v1/preferences',
            requests: 2,
            throttled: 0,
          },
        ],
        [throttle, { ...throttle, at: T0 - day, incidentKey: 'recent' }],
      );
      expect(await reports.prune(T0 - 7 * day)).toBe(2);
      expect((await reports.minutesSince(0)).map((row) => row.requests)).toEqual([2]);
      expect((await reports.throttlesSince(0)).map((row) => row.incidentKey)).toEqual(['recent']);
    });
  });
}
