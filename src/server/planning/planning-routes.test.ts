// The planning routes through the composed BFF: the console's own calls are recorded from the
// governor's events and replayed; bad input is a 400 naming the field, a period without traffic a
// 422, never an empty replay; both exports come as files; every signed-in role may plan, nobody
// signed out may.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MigrationReportSchema,
  PlanningPoliciesSchema,
  WhatIfResultSchema,
} from '../../shared/planning';
import { ProblemSchema } from '../../shared/problem';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';

const custom = (accountMinute: number | null) => ({
  kind: 'custom',
  accountMinute,
  accountHour: null,
  endpointMinute: null,
  moduleRules: [],
});

describe('the planning routes', () => {
  let h: BffHarness;

  beforeEach(async () => {
    h = await startBffHarness();
  });
  afterEach(() => h.close());

  const replay = (body: unknown, query = '', as: 'admin' | 'support' | null = 'admin') =>
    h.request(
      `/api/planning/what-if${query}`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      },
      { as },
    );

  it('replays the console’s own calls, recorded from what it sent', async () => {
    const before = await replay({ period: 'hour', policy: custom(1) });
    expect(before.status).toBe(422);
    expect(ProblemSchema.parse(await before.json()).type).toBe('/problems/no-recorded-traffic');

    expect((await h.request('/api/event-types')).status).toBe(200);
    await h.planning.consoleTraffic.flush();

    const answer = await replay({ period: 'hour', policy: custom(1) }, '', 'support');
    expect(answer.status).toBe(200);
    const result = WhatIfResultSchema.parse(await answer.json());
    // The token request and the event-type fetch: each call the console sent, counted once.
    const sent = h.sent.length;
    expect(sent).toBeGreaterThanOrEqual(2);
    expect(result.requests).toBe(sent);
    expect(result.chosen.refused).toBe(sent - 1);
    expect(result.chosen.bySource).toEqual([
      expect.objectContaining({ source: 'console', name: 'This console', refused: sent - 1 }),
    ]);
    expect(result.inForce.refused).toBe(0);
    expect(result.inForce.policy.label).toBe('Published: account and module limits (in force)');

    const csv = await replay({ period: 'hour', policy: custom(1) }, '?format=csv');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="what-if-hour.csv"');
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toBe('run_id,generated_at,from,to,recorded_429s,connection');
    // The custom policy stated number by number, and the window ends by the generation time.
    expect(lines).toContain('chosen: Custom,Account minute limit,MINUTE,1,hard,account,60');
    const [, generatedAt, , to] = lines[1]!.split(',');
    expect(Date.parse(to!)).toBeLessThanOrEqual(Date.parse(generatedAt!));
    expect(Date.parse(result.to)).toBeLessThanOrEqual(Date.parse(result.generatedAt));
    const markdown = await replay({ period: 'hour', policy: custom(1) }, '?format=markdown');
    expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const report = await markdown.text();
    expect(report).toContain(`- Requests refused: **${sent - 1}**`);
    expect(report).toContain('- Account minute limit: 1 a minute (hard, blocks the account');
    expect(report).toContain('## How this is counted');
  });

  it('names the field at fault and sends nothing upstream', async () => {
    const sent = h.sent.length;
    for (const [body, parameter] of [
      [{ period: 'hour', policy: custom(0) }, 'policy.accountMinute'],
      [{ period: 'hour', policy: custom(-1) }, 'policy.accountMinute'],
      [{ period: 'hour', policy: custom(1e12) }, 'policy.accountMinute'],
      [{ period: 'year', policy: custom(5) }, 'period'],
      [{ period: 'hour', policy: { kind: 'published', version: 'v9' } }, 'policy.version'],
      ['not json', 'body'],
    ] as const) {
      const answer = await h.request('/api/planning/what-if', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(ProblemSchema.parse(await answer.json()).parameter).toBe(parameter);
    }
    const format = await replay({ period: 'hour', policy: custom(5) }, '?format=xlsx');
    expect(format.status).toBe(400);
    expect(h.sent.length).toBe(sent);
  });

  it('describes the policies and the readiness report to every role, and nobody signed out', async () => {
    const policies = PlanningPoliciesSchema.parse(
      await (await h.request('/api/planning/policies', {}, { as: 'support' })).json(),
    );
    expect(policies.inForce.label).toContain('(in force)');
    expect(policies.other.limits.map((limit) => limit.name)).toEqual([
      'Account hour limit',
      'Per-endpoint minute limit',
    ]);
    expect(policies.moduleRules.find((rule) => rule.id === 'v2-datasubjects-quota')).toMatchObject({
      minute: 300,
      hour: 18_000,
    });
    const report = await h.request('/api/planning/migration?period=day', {}, { as: 'support' });
    expect(report.status).toBe(200);
    expect(MigrationReportSchema.parse(await report.json()).readiness).toBeNull();
    expect((await h.request('/api/planning/migration?period=fortnight')).status).toBe(400);
    expect((await h.request('/api/planning/policies', {}, { as: null })).status).toBe(401);
    expect((await replay({ period: 'hour', policy: custom(5) }, '', null)).status).toBe(401);
  });

  it('refuses unknown fields and unknown or repeated parameters, naming them', async () => {
    const sent = h.sent.length;
    for (const [body, parameter] of [
      [{ period: 'hour', policy: custom(5), dryRun: true }, 'dryRun'],
      [{ period: 'hour', policy: { ...custom(5), accountMinte: 10 } }, 'policy.accountMinte'],
      [
        { period: 'hour', policy: { kind: 'published', version: 'per-endpoint', tier: 'x' } },
        'policy.tier',
      ],
      [
        {
          period: 'hour',
          policy: { ...custom(5), moduleRules: [{ id: 'r', minute: 1, hour: null, burst: 9 }] },
        },
        'policy.moduleRules.0.burst',
      ],
    ] as const) {
      const answer = await replay(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(ProblemSchema.parse(await answer.json())).toMatchObject({
        parameter,
        detail: expect.stringContaining('unknown field'),
      });
    }
    for (const [path, parameter, detail] of [
      ['/api/planning/migration?format=csv&format=markdown', 'format', 'give it at most once'],
      ['/api/planning/migration?period=day&period=week', 'period', 'give it at most once'],
      ['/api/planning/migration?perod=day', 'perod', 'unknown parameter; use period, format'],
    ] as const) {
      const answer = await h.request(path);
      expect(answer.status, path).toBe(400);
      expect(ProblemSchema.parse(await answer.json())).toMatchObject({
        parameter,
        detail: expect.stringContaining(detail),
      });
    }
    for (const [query, parameter] of [
      ['?format=csv&format=markdown', 'format'],
      ['?format=csv&download=1', 'download'],
    ] as const) {
      const answer = await replay({ period: 'hour', policy: custom(5) }, query);
      expect(answer.status, query).toBe(400);
      expect(ProblemSchema.parse(await answer.json()).parameter).toBe(parameter);
    }
    expect(h.sent.length).toBe(sent);
  });
});
