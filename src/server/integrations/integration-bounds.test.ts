// What one reporting key can and cannot do to the console (docs/account-wide-view.md, "What one
// key can do"): made-up 429s with distinct event ids stop adding rows past the per-minute cap and
// are counted instead; a count no account limit allows is flagged and kept out of the limits and
// the forecast; the console's own incidents stay on the panel whatever is reported; and a flood of
// wrong keys is refused without reading the database.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForecastResponseSchema } from '../../shared/alerts';
import {
  AccountOverviewSchema,
  IngestAnswerSchema,
  IssuedKeySchema,
  REPORT_LIMITS,
} from '../../shared/integrations';
import { openDatabase, type SqlDatabase } from '../store/database';
import { startBffHarness } from '../test-support/bff-harness';

type Harness = Awaited<ReturnType<typeof startBffHarness>>;

const NOW = Date.UTC(2026, 2, 10, 9, 30, 20);
const MINUTE = new Date(Math.floor(NOW / 60_000) * 60_000).toISOString();
const PROFILES = '/rest/api/consent/v4/datasubjects/profiles';

describe('what one reporting key can do', () => {
  let h: Harness;
  let database: SqlDatabase;
  let queries = 0;

  beforeEach(async () => {
    database = await openDatabase();
    const query = database.query.bind(database);
    database.query = ((sql: string, params?: unknown[]) => {
      queries += 1;
      return query(sql, params);
    }) as SqlDatabase['query'];
    h = await startBffHarness({
      now: () => NOW,
      database,
      mockRateLimits: true,
      // Refusals answered at once: the hold is tested in failed-key-guard.test.ts.
      env: { INTEGRATION_FAILED_KEY_HOLD_MS: '0' },
    });
  });
  afterEach(async () => {
    await h.close();
    await database.close();
  });

  async function register(name = 'Made-up reporter') {
    const response = await h.request('/api/integrations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    return IssuedKeySchema.parse(await response.json());
  }

  const report = (key: string, body: unknown) =>
    h.app.request('/api/integrations/reports', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });

  /** `count` 429s of the account minute, each with its own event id. */
  const madeUp429s = (count: number, at = NOW) =>
    Array.from({ length: count }, () => ({
      at: new Date(at).toISOString(),
      method: 'GET',
      path: PROFILES,
      headers: {
        'retry-after': '60',
        'ot-ratelimit-event-id': randomUUID(),
        'ot-requests-allowed': '20000',
        'ot-period': 'MINUTE',
        'ot-request-made': '20001',
      },
    }));

  const overview = async () =>
    AccountOverviewSchema.parse(await (await h.request('/api/account-usage')).json());

  it('keeps at most the cap of distinct 429 rows per key and minute, and counts the rest', async () => {
    const { key } = await register();
    const cap = REPORT_LIMITS.maxThrottlesPerMinute;
    const first = IngestAnswerSchema.parse(
      await (await report(key, { throttles: madeUp429s(200) })).json(),
    );
    const second = IngestAnswerSchema.parse(
      await (await report(key, { throttles: madeUp429s(200) })).json(),
    );
    expect(first.aggregated).toEqual({ throttles: 200 - cap });
    expect(second.aggregated).toEqual({ throttles: 200 });
    const rows = await h.integrations.reports.throttlesSince(NOW - 3_600_000);
    // The cap's distinct occurrences and one row that counts every other one.
    expect(rows).toHaveLength(cap + 1);
    expect(rows.reduce((sum, row) => sum + row.hits, 0)).toBe(400);
  });

  it('flags a count no account limit allows and keeps it out of the limits and the forecast', async () => {
    const { key, integration } = await register();
    const answer = await report(key, {
      minutes: [{ minute: MINUTE, method: 'GET', path: PROFILES, requests: 10_000_000 }],
    });
    expect(answer.status).toBe(202);
    // Stored up to the ceiling only, and the answer says so.
    expect(await answer.json()).toMatchObject({ capped: { minutes: 1, requests: 9_980_000 } });
    const view = await overview();
    for (const limit of view.limits) expect(limit.integrations).toEqual([]);
    expect(view.implausible).toEqual([
      {
        id: integration.id,
        name: 'Made-up reporter',
        minute: MINUTE,
        reported: 20_000,
        clampedTo: 20_000,
      },
    ]);
    const forecast = ForecastResponseSchema.parse(
      await (await h.request('/api/alerts/forecast')).json(),
    );
    expect(forecast.limits.filter((limit) => limit.level === 'exhausted')).toEqual([]);
  });

  it('keeps the console’s own incident on the panel however many 429s a key reports', async () => {
    h.mockRateLimits!.exhaust('account-minute');
    expect((await h.request('/api/event-types?modules=Consent')).status).toBe(429);
    const { key } = await register();
    // Newer than the console's incident, and more rows than the panel holds (the cap's own and
    // one counting row in each of five minutes).
    for (let minute = 1; minute <= 5; minute += 1) {
      await report(key, { throttles: madeUp429s(12, NOW + minute * 60_000) });
    }
    expect((await h.integrations.reports.throttlesSince(NOW)).length).toBeGreaterThan(50);
    const view = await overview();
    expect(
      view.incidents.some((incident) => incident.reporters.some((r) => r.id === 'console')),
    ).toBe(true);
  });

  it('refuses a flood of wrong keys without reading the database for each', async () => {
    await register();
    await report(`pacr_${'a'.repeat(43)}`, { minutes: [] });
    queries = 0;
    const statuses = new Set<number>();
    for (let n = 0; n < 200; n += 1) {
      const wrong = `pacr_${randomUUID().replaceAll('-', '').padEnd(43, 'x')}`;
      statuses.add((await report(wrong, { minutes: [] })).status);
    }
    // 401 until the address's bound of wrong keys, refused early after it (failed-key-guard.ts).
    expect([...statuses]).toEqual([401, 429]);
    // The clock stands still here: the held keys are not even re-read once.
    expect(queries).toBe(0);
  });
});
