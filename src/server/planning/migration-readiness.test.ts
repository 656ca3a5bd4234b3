// The v4 migration readiness report on both engines: calls written through the real write paths
// (an integration's report, the console's own counts), read back per operation, caller and day,
// beside the catalog's replacement, the documented fields it differs in and the limits it moves
// between.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLATFORM_OPERATIONS } from '../../shared/platform-operations';
import { IntegrationStore } from '../integrations/integration-store';
import { ReportAggregates } from '../integrations/report-aggregates';
import { planningDeps } from '../test-support/planning-deps';
import { STORE_ENGINES, type TestDatabase } from '../test-support/store-engines';
import { migrationCsv, migrationMarkdown } from './planning-exports';
import { migrationReadiness, type ReadinessDeps } from './migration-readiness';
import { addToAccountTraffic } from './traffic-store';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 30);
const DAY = 86_400_000;
const V2_LIST = PLATFORM_OPERATIONS.getDataSubjectsUsingGET;
const V4_BASIC = PLATFORM_OPERATIONS.getDataSubjectBasicDetailsV4;
const EVENT_TYPES = PLATFORM_OPERATIONS.getEventTypeFilterOptionsGET;

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`the v4 readiness report on ${engine.title}`, () => {
    let db: TestDatabase;
    let integrations: IntegrationStore;
    let reports: ReportAggregates;
    let deps: ReadinessDeps;

    beforeAll(async () => {
      db = await engine.open();
      integrations = new IntegrationStore(db, () => NOW);
      reports = new ReportAggregates(db, () => NOW, addToAccountTraffic);
      deps = planningDeps(db, integrations, NOW);
    });
    afterAll(() => db?.close());
    beforeEach(() =>
      db.exec(
        'DELETE FROM integration_minutes; DELETE FROM integrations; DELETE FROM account_minutes; DELETE FROM console_minutes; DELETE FROM source_minutes',
      ),
    );

    it('counts legacy and v4 calls per caller and day, with what replaces each legacy call', async () => {
      const { integration: sync } = await integrations.register(
        'Nightly sync',
        'data team',
        DEFAULT_CONNECTION,
      );
      const call = (
        minute: number,
        operation: { method: string; path: string },
        requests: number,
      ) => ({
        minute,
        method: operation.method,
        template: operation.path,
        requests,
        throttled: 0,
      });
      await reports.storeReport(
        sync.id,
        [
          call(NOW - 2 * DAY, V2_LIST, 30),
          call(NOW - DAY, V2_LIST, 10),
          call(NOW - DAY, V4_BASIC, 20),
          // Not a data-subject call: not counted either way.
          call(NOW - DAY, EVENT_TYPES, 500),
        ],
        [],
      );
      await deps.store.addConsoleMinutes([call(NOW - 60_000, V4_BASIC, 5)]);

      const report = await migrationReadiness(deps, 'week');

      expect(report.dataSubjectCalls).toBe(65);
      expect(report.v4Calls).toBe(25);
      expect(report.readiness).toBeCloseTo(25 / 65);
      expect(report.bySource).toEqual([
        { source: sync.id, name: 'Nightly sync', calls: 60, v4Calls: 20, readiness: 20 / 60 },
        { source: 'console', name: 'This console', calls: 5, v4Calls: 5, readiness: 1 },
      ]);
      const day = (offset: number) => new Date(NOW - offset * DAY).toISOString().slice(0, 10);
      expect(report.trend.map((point) => [point.day, point.calls, point.v4Calls])).toEqual(
        expect.arrayContaining([
          [day(2), 30, 0],
          [day(1), 30, 20],
          [day(0), 5, 5],
        ]),
      );
      // Days without a data-subject call have no readiness figure, not 0 %.
      expect(report.trend.find((point) => point.day === day(4))?.readiness).toBeNull();

      const [v2] = report.legacy;
      expect(report.legacy).toHaveLength(1);
      expect(v2).toMatchObject({
        operation: 'v2-datasubjects',
        template: V2_LIST.path,
        calls: 40,
        callers: [{ name: 'Nightly sync', calls: 40 }],
        noReplacement: null,
      });
      const basic = v2?.replacements.find((entry) => entry.operation === 'v4-basic-details');
      // The documents: v2 pages its data subjects and keeps data elements as a name → value map;
      // v4's basic details carry the notices v2 has no field for.
      expect(basic?.v4Adds).toContain('notices[]');
      // v2's data-element metadata list is v4's data elements list under another name: moved,
      // not lost. Only the link token, which basic details do not carry, is left out.
      expect(basic?.v4LeavesOut).toEqual(['linkToken']);
      expect(basic?.v4Reshapes).toEqual([
        { path: 'dataElementsMetaData[]', to: 'dataElements[]', how: 'moved' },
      ]);
      expect(basic?.ruleBefore).toMatchObject({
        id: 'v2-datasubjects-quota',
        limits: '300 per minute and 18,000 per hour',
      });
      expect(basic?.ruleAfter).toMatchObject({
        id: 'v4-basic-details-minute',
        limits: '1,000 per minute',
      });
      expect(report.v4).toEqual([
        expect.objectContaining({ operation: 'v4-basic-details', calls: 25 }),
      ]);

      const csv = migrationCsv(report);
      expect(csv.split('\r\n')[1]).toContain('Nightly sync,40,');
      const markdown = migrationMarkdown(report);
      expect(markdown).toContain('**38 %** of 65 data-subject calls were already on v4');
      expect(markdown).toContain('Counted today by v2 data-subjects quota');
      expect(markdown).toContain(
        '`dataElementsMetaData[]` is not lost: moved to `dataElements[]`, with the same fields.',
      );
      expect(csv).toContain(
        'dataElementsMetaData[]: moved to dataElements[], with the same fields',
      );
    });

    it('leaves out and lists a minute in which one integration claimed a whole account minute', async () => {
      const { integration: sync } = await integrations.register(
        'Nightly sync',
        'data team',
        DEFAULT_CONNECTION,
      );
      const { integration: forger } = await integrations.register(
        'Forger',
        null,
        DEFAULT_CONNECTION,
      );
      const call = (operation: { method: string; path: string }, requests: number) => ({
        minute: NOW - 60_000,
        method: operation.method,
        template: operation.path,
        requests,
        throttled: requests,
      });
      await reports.storeReport(sync.id, [{ ...call(V2_LIST, 30), throttled: 0 }], []);
      // Stored without the intake's cap (no ceiling given to this store): the read must still
      // leave it out, as it does a minute stored before the cap existed.
      await reports.storeReport(forger.id, [call(V4_BASIC, 10_000_000)], []);

      const report = await migrationReadiness(deps, 'hour');

      expect(report.dataSubjectCalls).toBe(30);
      expect(report.v4Calls).toBe(0);
      expect(report.readiness).toBe(0);
      expect(report.setAside).toEqual([
        {
          source: forger.id,
          name: 'Forger',
          minute: new Date(Math.floor((NOW - 60_000) / 60_000) * 60_000).toISOString(),
          reported: 10_000_000,
        },
      ]);
      expect(migrationMarkdown(report)).toContain(
        '1 reported minute set aside as implausible (one integration reported as many requests as the account can send in a minute, or more) and not counted.',
      );
    });

    it('says there were no data-subject calls instead of a readiness of 0 %', async () => {
      const report = await migrationReadiness(deps, 'day');
      expect(report.dataSubjectCalls).toBe(0);
      expect(report.readiness).toBeNull();
      expect(migrationMarkdown(report)).toContain('**no calls**');
    });
  });
}
