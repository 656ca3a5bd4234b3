// The planning area reads the integrations' reports only through the port the composition root
// fills in (ReportedMinutes): here a double holds each integration's minutes, the integrations'
// own table stays empty, and the account's totals are written as a report writes them. What the
// replay and the readiness report say of the integrations is then what those minutes give by hand.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_OPERATIONS } from '../../shared/platform-operations';
import { openDatabase, type SqlDatabase } from '../store/database';
import { planningDeps } from '../test-support/planning-deps';
import { STORE_ENGINES, type TestDatabase } from '../test-support/store-engines';
import { at, custom, NOW } from '../test-support/replay-hour';
import { migrationReadiness, type ReadinessDeps } from './migration-readiness';
import {
  addToAccountTraffic,
  TrafficStore,
  type ReportedMinutes,
  type SourceRow,
} from './traffic-store';
import { whatIf } from './what-if';

const V2_LIST = PLATFORM_OPERATIONS.getDataSubjectsUsingGET.path;
const V4_BASIC = PLATFORM_OPERATIONS.getDataSubjectBasicDetailsV4.path;
/** The account minute limit of a production account on the published policy: the ceiling. */
const CEILING = 20_000;

const row = (source: string, minute: number, template: string, requests: number): SourceRow => ({
  source,
  minute,
  method: 'GET',
  template,
  requests,
  throttled: 0,
});

const REPORTED: readonly SourceRow[] = [
  // An endpoint minute of 150 requests: 120 from the CRM connector, 30 from the nightly sync.
  row('crm', at(10), V2_LIST, 120),
  row('sync', at(10), V2_LIST, 30),
  // A minute the CRM connector claims the whole account minute in: set aside.
  row('crm', at(20), V4_BASIC, CEILING),
  row('sync', at(20), V2_LIST, 30),
  // Plausible v4 calls of the CRM connector.
  row('crm', at(30), V4_BASIC, 40),
];

const matches = (
  entry: SourceRow,
  endpoints: ReadonlyArray<{ method: string; template: string }>,
) => endpoints.some((e) => e.method === entry.method && e.template === entry.template);

/**
 * The port, answering from the minutes above as the integrations area's reader would (each of
 * them one row a source and minute, so a row is a minute's whole count).
 */
const reportedDouble: ReportedMinutes = {
  rowsIn: async (minutes) => REPORTED.filter((entry) => minutes.includes(entry.minute)),
  weightedSums: async (weights, endpoints) => {
    const sums = new Map<string, { source: string; weighted: number; requests: number }>();
    for (const [minute, weight] of weights) {
      for (const entry of REPORTED) {
        if (entry.minute !== minute || !matches(entry, endpoints)) continue;
        const sum = sums.get(entry.source) ?? { source: entry.source, weighted: 0, requests: 0 };
        sum.weighted += entry.requests * weight;
        sum.requests += entry.requests;
        sums.set(entry.source, sum);
      }
    }
    return [...sums.values()];
  },
  minutesAtCeiling: async (from, to, ceiling) =>
    REPORTED.filter(
      (entry) => entry.minute >= from && entry.minute <= to && entry.requests >= ceiling,
    ).map((entry) => ({ source: entry.source, minute: entry.minute, reported: entry.requests })),
  dailyCalls: async (from, to, endpoints, ceiling) =>
    REPORTED.filter(
      (entry) =>
        entry.minute >= from &&
        entry.minute <= to &&
        entry.requests < ceiling &&
        matches(entry, endpoints),
    ).map((entry) => ({
      source: entry.source,
      day: new Date(entry.minute).toISOString().slice(0, 10),
      method: entry.method,
      template: entry.template,
      calls: entry.requests,
    })),
};

describe('the integrations’ reports, read through the port', () => {
  let db: SqlDatabase;
  let deps: ReadinessDeps;

  beforeAll(async () => {
    db = await openDatabase();
    // The account's totals, as a stored report adds them; the reports themselves are the port's.
    await db.transaction((tx) =>
      addToAccountTraffic(
        tx,
        REPORTED.map((row) => ({ ...row, connection: DEFAULT_CONNECTION })),
      ),
    );
    const names = async () =>
      new Map([
        ['crm', 'CRM connector'],
        ['sync', 'Nightly sync'],
      ]);
    deps = planningDeps(db, { names }, NOW, reportedDouble);
  });
  afterAll(() => db?.close());

  it('sets aside the minute an integration reported at the ceiling, and shares refusals by what each reported', async () => {
    const result = await whatIf(deps, {
      period: 'hour',
      policy: custom({ endpointMinute: 100 }),
    });

    // 150 at minute 10, 30 kept of minute 20 (the CRM connector's 20,000 set aside), 40 at 30.
    expect(result.requests).toBe(220);
    expect(result.setAside).toEqual([
      {
        source: 'crm',
        name: 'CRM connector',
        minute: new Date(at(20)).toISOString(),
        reported: CEILING,
      },
    ]);
    // 50 of minute 10's 150 list calls refused: a third of each source's, 40 and 10.
    expect(result.chosen.refused).toBe(50);
    expect(result.chosen.bySource).toEqual([
      { source: 'crm', name: 'CRM connector', requests: 120, refused: 40 },
      { source: 'sync', name: 'Nightly sync', requests: 30, refused: 10 },
    ]);
  });

  it('counts each integration’s data-subject calls per day, its minute at the ceiling left out and listed', async () => {
    const report = await migrationReadiness(deps, 'day');

    // The sync's 30 + 30 v2 list calls, the CRM connector's 120 of them and its 40 v4 calls.
    expect(report.dataSubjectCalls).toBe(220);
    expect(report.v4Calls).toBe(40);
    expect(report.bySource).toEqual([
      { source: 'crm', name: 'CRM connector', calls: 160, v4Calls: 40, readiness: 0.25 },
      { source: 'sync', name: 'Nightly sync', calls: 60, v4Calls: 0, readiness: 0 },
    ]);
    expect(report.setAside).toEqual([
      expect.objectContaining({ source: 'crm', reported: CEILING }),
    ]);
  });
});

/** A port with no integration reports: only the console's own traffic is read. */
const NO_REPORTS: ReportedMinutes = {
  rowsIn: async () => [],
  weightedSums: async () => [],
  minutesAtCeiling: async () => [],
  dailyCalls: async () => [],
};

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(
    `each connection’s recorded traffic on ${engine.title}`,
    () => {
      let db: TestDatabase;
      beforeAll(async () => {
        db = await engine.open();
      });
      afterAll(() => db?.close());
      const traffic = (connection: string) =>
        new TrafficStore(() => Promise.resolve(db), NO_REPORTS, { connection });

      it('sums and reads two connections’ minutes apart, and prunes one without the other', async () => {
        const minute = at(0);
        const row = { minute, method: 'GET', template: '/v4/details', throttled: 0 };
        await traffic(DEFAULT_CONNECTION).addConsoleMinutes([{ ...row, requests: 30 }]);
        await traffic('uat').addConsoleMinutes([{ ...row, requests: 5 }]);
        await traffic('uat').addConsoleMinutes([{ ...row, requests: 2 }]);

        expect(await traffic(DEFAULT_CONNECTION).minuteTotals(minute, minute, [])).toMatchObject([
          { minute, total: 30 },
        ]);
        expect(await traffic('uat').minuteTotals(minute, minute, [])).toMatchObject([
          { minute, total: 7 },
        ]);
        expect(await traffic('uat').sourcesIn([minute])).toMatchObject([
          { source: 'console', requests: 7 },
        ]);
        expect([...(await traffic('uat').weightedBySource([[minute, 1]]))]).toEqual([
          ['console', { weighted: 7, requests: 7 }],
        ]);

        expect(await traffic('uat').prune(minute + 60_000)).toBe(3);
        expect(await traffic('uat').minuteTotals(minute, minute, [])).toEqual([]);
        expect(await traffic(DEFAULT_CONNECTION).minuteTotals(minute, minute, [])).toMatchObject([
          { total: 30 },
        ]);
      });
    },
  );
}
