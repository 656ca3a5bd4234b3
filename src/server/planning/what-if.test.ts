// The what-if replay on both engines, against expectations computed by hand: traffic is written
// through the real write paths (an integration's report through the integration store, which adds
// to the account totals in its transaction; the console's own counts through the traffic store),
// then replayed through the use case the route calls.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLATFORM_OPERATIONS } from '../../shared/platform-operations';
import { IntegrationStore } from '../integrations/integration-store';
import { ReportAggregates } from '../integrations/report-aggregates';
import { planningDeps } from '../test-support/planning-deps';
import { at, custom, LAST, MINUTE, NOW } from '../test-support/replay-hour';
import { STORE_ENGINES, type TestDatabase } from '../test-support/store-engines';
import { PolicyRejectedError } from './policies';
import { addToAccountTraffic, type TrafficStore } from './traffic-store';
import { NoRecordedTrafficError, PeriodTooLongError, whatIf, type PlanningDeps } from './what-if';

const V2_LIST = PLATFORM_OPERATIONS.getDataSubjectsUsingGET.path;
const V4_BASIC = PLATFORM_OPERATIONS.getDataSubjectBasicDetailsV4.path;

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`the what-if replay on ${engine.title}`, () => {
    let db: TestDatabase;
    let integrations: IntegrationStore;
    let reports: ReportAggregates;
    let traffic: TrafficStore;
    let deps: PlanningDeps;

    beforeAll(async () => {
      db = await engine.open();
      integrations = new IntegrationStore(db, () => NOW);
      reports = new ReportAggregates(db, () => NOW, addToAccountTraffic);
      deps = planningDeps(db, integrations, NOW);
      traffic = deps.store;
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      await db.exec(
        'DELETE FROM integration_minutes; DELETE FROM integration_throttles; DELETE FROM integrations; DELETE FROM account_minutes; DELETE FROM console_minutes; DELETE FROM source_minutes',
      );
    });

    async function integration(name: string) {
      const { integration: registered } = await integrations.register(
        name,
        'owners',
        DEFAULT_CONNECTION,
      );
      return {
        id: registered.id,
        send: (minute: number, requests: number, template: string = V2_LIST) =>
          reports.storeReport(
            registered.id,
            [{ minute, method: 'GET', template, requests, throttled: 0 }],
            [],
          ),
      };
    }

    it('a minute exactly at the limit passes; one request over is refused and drawn by who sent it', async () => {
      const crm = await integration('CRM connector');
      const sync = await integration('Nightly sync');
      await crm.send(at(10), 100);
      await crm.send(at(20), 60);
      await sync.send(at(20), 41);

      const result = await whatIf(deps, { period: 'hour', policy: custom({ accountMinute: 100 }) });

      expect(result.requests).toBe(201);
      expect(result.activeMinutes).toBe(2);
      expect(result.chosen.refused).toBe(1);
      expect(result.chosen.minutesOver).toBe(1);
      expect(result.chosen.breaches).toEqual([
        expect.objectContaining({
          minute: new Date(at(20)).toISOString(),
          name: 'Account minute limit',
          limit: 100,
          requests: 101,
          refused: 1,
        }),
      ]);
      expect(result.chosen.firstBreach?.minute).toBe(new Date(at(20)).toISOString());
      // 1 × 60/101 = 0.59 and 1 × 41/101 = 0.41: the larger remainder draws the request.
      expect(result.chosen.bySource).toEqual([
        { source: crm.id, name: 'CRM connector', requests: 60, refused: 1 },
      ]);
      // The published limits in force leave room; the tightest at the busiest minute is the v2
      // quota these calls count against (101 of 300), not the account's 20,000.
      expect(result.inForce.refused).toBe(0);
      expect(result.inForce.firstBreach).toBeNull();
      expect(result.inForce.headroom).toMatchObject({
        name: 'v2 data-subjects quota per minute',
        used: 101,
        limit: 300,
        left: 199,
      });
      expect(result.busiestMinute).toEqual({
        minute: new Date(at(20)).toISOString(),
        requests: 101,
      });
    });

    it('an hour limit is crossed by many quiet minutes, and its block refuses the rest of the hour', async () => {
      const sync = await integration('Nightly sync');
      await reports.storeReport(
        sync.id,
        Array.from({ length: 60 }, (_, n) => ({
          minute: at(n),
          method: 'GET',
          template: V2_LIST,
          requests: 10,
          throttled: 0,
        })),
        [],
      );

      const result = await whatIf(deps, { period: 'hour', policy: custom({ accountHour: 500 }) });

      // Minutes 0–49 hold 500; minute 50 finds the hour full (10 refused, the account blocked for
      // an hour), so minutes 51–59 are refused whole: 9 × 10 while the block runs.
      expect(result.requests).toBe(600);
      expect(result.chosen.refused).toBe(100);
      expect(result.chosen.refusedWhileBlocked).toBe(90);
      expect(result.chosen.minutesOver).toBe(1);
      expect(result.chosen.firstBreach).toMatchObject({
        minute: new Date(at(50)).toISOString(),
        name: 'Account hour limit',
        period: 'HOUR',
        limit: 500,
        requests: 510,
        refused: 10,
      });
      expect(result.chosen.bySource).toEqual([
        expect.objectContaining({ name: 'Nightly sync', refused: 100 }),
      ]);
      // No minute was anywhere near 500 on its own: only the hour saw it.
      expect(Math.max(...result.buckets.map((bucket) => bucket.peakMinute))).toBe(10);
      expect(result.buckets.reduce((sum, bucket) => sum + bucket.refusedChosen, 0)).toBe(100);
    });

    it('a per-endpoint limit counts each endpoint on its own; a module rule only its own calls', async () => {
      const sync = await integration('Nightly sync');
      await sync.send(at(5), 30, V2_LIST);
      await sync.send(at(5), 30, V4_BASIC);
      await traffic.addConsoleMinutes([
        { minute: at(5), method: 'GET', template: V4_BASIC, requests: 2, throttled: 0 },
      ]);

      const perEndpoint = await whatIf(deps, {
        period: 'hour',
        policy: custom({ endpointMinute: 31 }),
      });
      // 62 requests in the minute, but only basic-details (30 + 2) is over its 31.
      expect(perEndpoint.chosen.refused).toBe(1);
      expect(perEndpoint.chosen.breaches).toEqual([
        expect.objectContaining({ endpoint: `GET ${V4_BASIC}`, requests: 32, refused: 1 }),
      ]);

      const quota = await whatIf(deps, {
        period: 'hour',
        policy: custom({
          moduleRules: [{ id: 'v2-datasubjects-quota', minute: 25, hour: null }],
        }),
      });
      expect(quota.chosen.refused).toBe(5);
      expect(quota.chosen.breaches).toEqual([
        expect.objectContaining({
          name: 'v2 data-subjects quota per minute',
          requests: 30,
          refused: 5,
        }),
      ]);
      expect(quota.chosen.bySource).toEqual([
        expect.objectContaining({ name: 'Nightly sync', refused: 5 }),
      ]);
    });

    it('shares the refusals of thousands of minutes among the sources, losing none', async () => {
      const sync = await integration('Nightly sync');
      const crm = await integration('CRM connector');
      // 3,000 minutes of 30 + 10 requests each.
      const minutes = Array.from({ length: 3_000 }, (_, n) => LAST - n * MINUTE);
      const rows = (requests: number) =>
        minutes.map((minute) => ({
          minute,
          method: 'GET',
          template: V2_LIST,
          requests,
          throttled: 0,
        }));
      await Promise.all([
        reports.storeReport(sync.id, rows(30), []),
        reports.storeReport(crm.id, rows(10), []),
      ]);

      const result = await whatIf(deps, { period: 'week', policy: custom({ accountMinute: 20 }) });

      // Every minute refuses 20 of its 40: 30 × 20/40 = 15 from the sync, 5 from the CRM.
      expect(result.chosen.refused).toBe(60_000);
      expect(result.chosen.bySource).toEqual([
        { source: sync.id, name: 'Nightly sync', requests: 90_000, refused: 45_000 },
        { source: crm.id, name: 'CRM connector', requests: 30_000, refused: 15_000 },
      ]);
    }, 30_000);

    it('a report no account limit allows is set aside, not replayed', async () => {
      const honest = await integration('CRM connector');
      const broken = await integration('Broken reporter');
      await honest.send(at(30), 50);
      await broken.send(at(30), 25_000);

      const result = await whatIf(deps, { period: 'hour', policy: custom({ accountMinute: 60 }) });

      expect(result.requests).toBe(50);
      expect(result.chosen.refused).toBe(0);
      expect(result.setAside).toEqual([
        {
          source: broken.id,
          name: 'Broken reporter',
          minute: new Date(at(30)).toISOString(),
          reported: 25_000,
        },
      ]);
    });

    it('lists the 429s the platform answered in the period per endpoint, busiest first, and none outside it', async () => {
      const sync = await integration('Nightly sync');
      await reports.storeReport(
        sync.id,
        [
          { minute: at(5), method: 'GET', template: V2_LIST, requests: 40, throttled: 3 },
          { minute: at(6), method: 'GET', template: V2_LIST, requests: 40, throttled: 2 },
          { minute: at(6), method: 'GET', template: V4_BASIC, requests: 30, throttled: 0 },
          { minute: at(7), method: 'GET', template: V4_BASIC, requests: 30, throttled: 1 },
          // Before the hour replayed: not counted.
          {
            minute: at(0) - 2 * MINUTE,
            method: 'GET',
            template: V4_BASIC,
            requests: 9,
            throttled: 9,
          },
        ],
        [],
      );
      await traffic.addConsoleMinutes([
        { minute: at(8), method: 'GET', template: V4_BASIC, requests: 4, throttled: 4 },
      ]);

      const result = await whatIf(deps, { period: 'hour', policy: custom({ accountMinute: 100 }) });

      expect(result.recorded429s).toEqual({
        total: 10,
        byEndpoint: [
          { endpoint: `GET ${V2_LIST}`, throttled: 5 },
          { endpoint: `GET ${V4_BASIC}`, throttled: 5 },
        ],
      });
    });

    it('refuses bad input with a message and never answers an empty replay', async () => {
      await expect(
        whatIf(deps, { period: 'hour', policy: custom({ accountMinute: 100 }) }),
      ).rejects.toThrow(NoRecordedTrafficError);
      const sync = await integration('Nightly sync');
      await sync.send(at(1), 5);
      for (const [policy, parameter] of [
        [custom({ accountMinute: 0 }), 'policy.accountMinute'],
        [custom({ accountHour: -5 }), 'policy.accountHour'],
        [custom({ endpointMinute: 2.5 }), 'policy.endpointMinute'],
        [custom({ accountMinute: 5_000_000_000 }), 'policy.accountMinute'],
        [custom({ accountMinute: 1_000, accountHour: 100 }), 'policy.accountHour'],
        [custom(), 'policy'],
        [
          custom({ moduleRules: [{ id: 'no-such-rule', minute: 5, hour: null }] }),
          'policy.moduleRules[0].id',
        ],
      ] as const) {
        const error = await whatIf(deps, { period: 'hour', policy }).catch(
          (caught: unknown) => caught,
        );
        expect(error, JSON.stringify(policy)).toBeInstanceOf(PolicyRejectedError);
        expect((error as PolicyRejectedError).parameter).toBe(parameter);
      }
      await expect(
        whatIf(
          { ...deps, retentionDays: 1 },
          { period: 'week', policy: custom({ accountMinute: 5 }) },
        ),
      ).rejects.toThrow(PeriodTooLongError);
    });
  });
}
