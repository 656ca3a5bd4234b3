// Planning per connection through the composed BFF: each connection records and replays its own
// traffic, one connection's week can be replayed under another connection's policy in force (a
// hand-computed case, both ways), and a person without a role in a connection neither sees its
// policy nor replays under it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES_OPERATION } from '../../shared/event-types';
import { PLATFORM_OPERATIONS } from '../../shared/platform-operations';
import {
  MigrationReportSchema,
  PlanningPoliciesSchema,
  WhatIfResultSchema,
} from '../../shared/planning';
import { ProblemSchema } from '../../shared/problem';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';

const MINUTE = 60_000;
/** The n-th minute before the current one: well inside the last hour, whenever the test runs. */
const minutesAgo = (n: number) => (Math.floor(Date.now() / MINUTE) - n) * MINUTE;

/** Each connection's requests to the event types (no module rule counts them), by minute. */
const eventTypeMinutes = (counts: readonly number[]) =>
  counts.map((requests, index) => ({
    minute: minutesAgo(10 - index),
    method: EVENT_TYPES_OPERATION.method,
    template: EVENT_TYPES_OPERATION.path,
    requests,
    throttled: 0,
  }));

/** Production (EU) is granted 30 requests a minute, UAT 12: otherwise the same published limits. */
async function twoConnections(): Promise<BffHarness> {
  return startBffHarness({
    env: { ACCOUNT_MINUTE_LIMIT: '30' },
    otherConnections: [
      { name: 'uat', label: 'UAT', rateLimits: { accountOverride: { MINUTE: 12 } } },
    ],
  });
}

const planningOf = (h: BffHarness, name: string) =>
  h.plannings.find((area) => area.traffic.connection === name)!;

const replay = (h: BffHarness, path: string, policy: unknown, cookie?: string) =>
  h.request(
    path,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify({ period: 'hour', policy }),
    },
    cookie ? { as: null } : {},
  );

describe("one connection's traffic under another connection's policy", () => {
  let h: BffHarness;

  beforeAll(async () => {
    h = await twoConnections();
    await planningOf(h, 'default').traffic.addConsoleMinutes(eventTypeMinutes([20, 25, 10, 40]));
    await planningOf(h, 'uat').traffic.addConsoleMinutes(eventTypeMinutes([10, 15, 35]));
  });
  afterAll(() => h.close());

  it("replays production's traffic under UAT's limits, as computed by hand, at both paths", async () => {
    // Production's minutes: 20, 25, 10, 40. The account minute limits' blocks last 60 s, so each
    // breach refuses only its own minute's excess (docs/planning.md, "How a replay counts").
    // Under its own limit of 30: only the 40 is over, 40 − 30 = 10 refused.
    // Under UAT's 12: (20 − 12) + (25 − 12) + 0 + (40 − 12) = 8 + 13 + 28 = 49 refused, 3 minutes over.
    for (const path of ['/api/connections/default/planning/what-if', '/api/planning/what-if']) {
      const answer = await replay(h, path, { kind: 'connection', connection: 'uat' });
      expect(answer.status, path).toBe(200);
      const result = WhatIfResultSchema.parse(await answer.json());
      expect(result.connection).toEqual({ name: 'default', label: h.config.connections[0]!.label });
      expect(result.requests).toBe(95);
      expect(result.inForce.refused).toBe(10);
      expect(result.chosen.refused).toBe(49);
      expect(result.chosen.minutesOver).toBe(3);
      expect(result.chosen.policy.label).toBe(
        'UAT’s policy in force (Published: account and module limits, production tier)',
      );
      expect(result.chosen.policy.limits).toContainEqual(
        expect.objectContaining({ name: 'Account minute limit', limit: 12 }),
      );
    }
  });

  it("replays UAT's traffic under production's limits, the reverse", async () => {
    // UAT's minutes: 10, 15, 35. Under its own 12: 0 + 3 + 23 = 26 refused.
    // Under production's 30: 0 + 0 + 5 = 5 refused, 1 minute over.
    const answer = await replay(h, '/api/connections/uat/planning/what-if', {
      kind: 'connection',
      connection: 'default',
    });
    expect(answer.status).toBe(200);
    const result = WhatIfResultSchema.parse(await answer.json());
    expect(result.connection).toEqual({ name: 'uat', label: 'UAT' });
    expect(result.requests).toBe(60);
    expect(result.inForce.refused).toBe(26);
    expect(result.chosen.refused).toBe(5);
    expect(result.chosen.minutesOver).toBe(1);
    expect(result.chosen.policy.label).toContain(
      `${h.config.connections[0]!.label}’s policy in force`,
    );
  });

  it('offers the other connections’ policies in force, each under its own label', async () => {
    const policies = PlanningPoliciesSchema.parse(
      await (await h.request('/api/connections/uat/planning/policies')).json(),
    );
    expect(policies.connection).toEqual({ name: 'uat', label: 'UAT' });
    expect(policies.connections.map((entry) => [entry.name, entry.policy.choice])).toEqual([
      ['default', { kind: 'connection', connection: 'default' }],
    ]);
    expect(policies.connections[0]!.policy.limits).toContainEqual(
      expect.objectContaining({ name: 'Account minute limit', limit: 30 }),
    );
  });

  it('refuses a connection this console does not serve as a 400 on the field', async () => {
    for (const connection of ['staging', 'Not A Name']) {
      const answer = await replay(h, '/api/planning/what-if', { kind: 'connection', connection });
      expect(answer.status, connection).toBe(400);
      expect(ProblemSchema.parse(await answer.json()).parameter).toBe('policy.connection');
    }
  });

  it("keeps UAT's limits from a person with no role in UAT: not offered, 403 to replay under", async () => {
    // Support in `default` only.
    const cookie = await h.signIn('connection-user');
    const policies = await h.request(
      '/api/connections/default/planning/policies',
      { headers: { Cookie: cookie } },
      { as: null },
    );
    expect(policies.status).toBe(200);
    expect(PlanningPoliciesSchema.parse(await policies.json()).connections).toEqual([]);
    const refused = await replay(
      h,
      '/api/connections/default/planning/what-if',
      { kind: 'connection', connection: 'uat' },
      cookie,
    );
    expect(refused.status).toBe(403);
    expect(ProblemSchema.parse(await refused.json())).toMatchObject({
      parameter: 'policy.connection',
      title: 'No role in that connection',
    });
    const uatPage = await h.request(
      '/api/connections/uat/planning/policies',
      { headers: { Cookie: cookie } },
      { as: null },
    );
    expect(uatPage.status).toBe(403);
    expect((await h.request('/api/connections/staging/planning/policies')).status).toBe(404);
  });
});

describe('planning per connection', () => {
  let h: BffHarness;

  beforeAll(async () => {
    h = await twoConnections();
  });
  afterAll(() => h.close());

  it("records each connection's console traffic apart, from its own governor", async () => {
    expect((await h.request('/api/connections/uat/event-types')).status).toBe(200);
    await Promise.all(h.plannings.map((area) => area.consoleTraffic.flush()));
    const uat = await replay(h, '/api/connections/uat/planning/what-if', {
      kind: 'published',
      version: 'per-endpoint',
    });
    expect(uat.status).toBe(200);
    // UAT's token request and its event-type fetch, and nothing of production's.
    expect(WhatIfResultSchema.parse(await uat.json()).requests).toBe(h.sent.length);
    const production = await replay(h, '/api/planning/what-if', {
      kind: 'published',
      version: 'per-endpoint',
    });
    expect(production.status).toBe(422);
  });

  it("reports each connection's share of v4 calls from its own calls", async () => {
    const calls = (v2: number, v4: number) =>
      [
        [PLATFORM_OPERATIONS.getDataSubjectsUsingGET.path, v2],
        [PLATFORM_OPERATIONS.getDataSubjectBasicDetailsV4.path, v4],
      ].map(([template, requests]) => ({
        minute: minutesAgo(5),
        method: 'GET',
        template: template as string,
        requests: requests as number,
        throttled: 0,
      }));
    await planningOf(h, 'default').traffic.addConsoleMinutes(calls(30, 10));
    await planningOf(h, 'uat').traffic.addConsoleMinutes(calls(2, 8));
    const readiness = async (path: string) => {
      const answer = await h.request(path);
      expect(answer.status, path).toBe(200);
      const report = MigrationReportSchema.parse(await answer.json());
      return [report.connection.name, report.readiness];
    };
    expect(await readiness('/api/connections/default/planning/migration?period=hour')).toEqual([
      'default',
      0.25,
    ]);
    expect(await readiness('/api/connections/uat/planning/migration?period=hour')).toEqual([
      'uat',
      0.8,
    ]);
  });
});
