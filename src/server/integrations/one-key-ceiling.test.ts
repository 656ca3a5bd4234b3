// The promise of docs/account-wide-view.md ("What one key can do") against the reproduction of
// issue 48: one key sends three reports of 400 identical entries, each claiming 10,000,000
// requests all answered with 429. The account's figures must not move past what the account
// could have done, in the usage view, the forecast, the what-if and the v4 readiness alike, and
// the answers and views must say what was set aside.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForecastResponseSchema } from '../../shared/alerts';
import {
  AccountOverviewSchema,
  IngestAnswerSchema,
  IssuedKeySchema,
} from '../../shared/integrations';
import { MigrationReportSchema, WhatIfResultSchema } from '../../shared/planning';
import { PLATFORM_OPERATIONS } from '../../shared/platform-operations';
import { startBffHarness } from '../test-support/bff-harness';

type Harness = Awaited<ReturnType<typeof startBffHarness>>;

const NOW = Date.UTC(2026, 2, 10, 9, 30, 20);
const MINUTE = new Date(Math.floor(NOW / 60_000) * 60_000).toISOString();
const V2_LIST = PLATFORM_OPERATIONS.getDataSubjectsUsingGET.path;
const V4_BASIC = PLATFORM_OPERATIONS.getDataSubjectBasicDetailsV4.path;

describe('one reporting key against the account ceiling', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startBffHarness({ now: () => NOW });
  });
  afterEach(() => h.close());

  async function register(name: string) {
    const response = await h.request('/api/integrations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    return IssuedKeySchema.parse(await response.json());
  }

  const report = (key: string, minutes: unknown[]) =>
    h.app.request('/api/integrations/reports', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify({ minutes }),
    });

  /** The honest integration's minute, then the reproduction's three reports. */
  async function reproduce() {
    const honest = await register('Nightly consent sync');
    const forger = await register('Preference centre backend');
    const fine = await report(honest.key, [
      { minute: MINUTE, method: 'GET', path: V2_LIST, requests: 100 },
    ]);
    expect(fine.status).toBe(202);
    const forged = Array.from({ length: 400 }, () => ({
      minute: MINUTE,
      method: 'GET',
      path: V4_BASIC,
      requests: 10_000_000,
      throttled: 10_000_000,
    }));
    const answers = [];
    for (let round = 0; round < 3; round += 1) {
      const response = await report(forger.key, forged);
      expect(response.status).toBe(202);
      answers.push(IngestAnswerSchema.parse(await response.json()));
    }
    return { honest: honest.integration, forger: forger.integration, answers };
  }

  it('accepts a report only up to the ceiling and says how much it set aside', async () => {
    const { answers } = await reproduce();
    // 20,000 a minute is the smallest account limit of the production tier.
    expect(answers[0]?.capped).toEqual({ minutes: 1, requests: 400 * 10_000_000 - 20_000 });
    expect(answers[1]?.capped).toEqual({ minutes: 1, requests: 400 * 10_000_000 });
    const stored = await h.integrations.reports.minutesSince(NOW - 3_600_000);
    const total = stored.reduce((sum, row) => sum + row.requests, 0);
    expect(total).toBe(100 + 20_000);
  });

  it('sets the minute aside in the usage view and keeps it out of every limit', async () => {
    const { forger } = await reproduce();
    const overview = AccountOverviewSchema.parse(
      await (await h.request('/api/account-usage')).json(),
    );
    const minuteLimit = overview.limits.find((limit) => limit.ruleId === 'account-minute');
    expect(minuteLimit?.reported).toBeLessThan(1_000);
    expect(overview.implausible).toEqual([
      expect.objectContaining({ id: forger.id, minute: MINUTE, reported: 20_000 }),
    ]);
    expect(overview.timeline.series.map((series) => series.id)).not.toContain(forger.id);
  });

  it('does not let the forecast call the account minute exhausted, and says what it left out', async () => {
    await reproduce();
    const forecast = ForecastResponseSchema.parse(
      await (await h.request('/api/alerts/forecast')).json(),
    );
    const minute = forecast.limits.find((limit) => limit.ruleId === 'account-minute');
    expect(minute?.level).toBe('ok');
    expect(minute?.used).toBeLessThan(1_000);
    expect(minute?.setAside).toBe(20_000);
  });

  it('sets the minute aside in the what-if and names no honest integration as refused', async () => {
    const { forger } = await reproduce();
    const response = await h.request('/api/planning/what-if', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        policy: { kind: 'published', version: 'account-and-module' },
        period: 'hour',
      }),
    });
    expect(response.status).toBe(200);
    const result = WhatIfResultSchema.parse(await response.json());
    expect(result.requests).toBeLessThan(1_000);
    expect(result.setAside).toEqual([
      expect.objectContaining({ source: forger.id, minute: MINUTE, reported: 20_000 }),
    ]);
    expect(result.inForce.refused).toBe(0);
    expect(result.inForce.bySource).toEqual([]);
  });

  it('keeps fake v4 calls out of the v4 readiness and lists them as set aside', async () => {
    const { forger } = await reproduce();
    const response = await h.request('/api/planning/migration?period=hour');
    expect(response.status).toBe(200);
    const readiness = MigrationReportSchema.parse(await response.json());
    expect(readiness.v4Calls).toBe(0);
    expect(readiness.readiness).toBe(0);
    expect(readiness.setAside).toEqual([
      expect.objectContaining({ source: forger.id, minute: MINUTE, reported: 20_000 }),
    ]);
  });
});
