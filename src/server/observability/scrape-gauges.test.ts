// The gauges read at each scrape, as Prometheus sees them: each limit's headroom by rule and
// period (the tightest of a rule's per-endpoint limits, no path in any label), each integration's
// reported use (a removed one gone), readiness, and a part that fails not failing the scrape.
import { describe, expect, it } from 'vitest';
import { createConsoleMetrics } from './console-metrics';
import { scrapeGauges, type ScrapeSources, type ScrapedIntegration } from './scrape-gauges';

const NOW = Date.parse('2026-05-01T12:00:00Z');

function sources(overrides: Partial<ScrapeSources> = {}): ScrapeSources {
  return {
    limits: async () => [
      {
        connection: 'default',
        ruleId: 'account-minute',
        period: 'MINUTE',
        limit: 1000,
        used: 940,
        resetsAt: NOW + 12_500,
        blockedUntil: null,
      },
      {
        connection: 'default',
        ruleId: 'account-hour',
        period: 'HOUR',
        limit: 10_000,
        used: 0,
        resetsAt: null,
        blockedUntil: NOW + 90_000,
      },
      // Two limits the platform reported for two endpoints of one rule: the tightest stands.
      {
        connection: 'default',
        ruleId: 'module-minute',
        period: 'MINUTE',
        limit: 100,
        used: 10,
        resetsAt: null,
        blockedUntil: null,
      },
      {
        connection: 'default',
        ruleId: 'module-minute',
        period: 'MINUTE',
        limit: 50,
        used: 45,
        resetsAt: null,
        blockedUntil: null,
      },
    ],
    integrations: async () => [
      {
        connection: 'default',
        name: 'billing-sync',
        requestsLastMinute: 12,
        requestsLastHour: 700,
        throttledLastHour: 3,
      },
    ],
    readiness: async () => ({
      ok: true,
      checks: { store: { ok: true }, auditWrites: { ok: false } },
    }),
    audit: async () => ({ entriesAfter: 4, lastAt: NOW - 60_000, chainBroken: true }),
    now: () => NOW,
    ...overrides,
  };
}

async function scrape(source: ScrapeSources, metrics = createConsoleMetrics()) {
  await scrapeGauges(metrics, source)();
  const text = await metrics.registry.metrics();
  return (series: string) =>
    text
      .split('\n')
      .find((line) => line.startsWith(`${series} `))
      ?.split(' ')[1];
}

describe('the gauges read at each scrape', () => {
  it('reports each limit’s headroom, reset and block by connection, rule and period', async () => {
    const value = await scrape(sources());
    const minute = '{connection="default",rule="account-minute",period="MINUTE"}';
    expect(value(`console_rate_limit_remaining${minute}`)).toBe('60');
    expect(value(`console_rate_limit_limit${minute}`)).toBe('1000');
    expect(value(`console_rate_limit_reset_seconds${minute}`)).toBe('13');
    expect(value(`console_rate_limit_blocked_seconds${minute}`)).toBe('0');
    expect(
      value(
        'console_rate_limit_blocked_seconds{connection="default",rule="account-hour",period="HOUR"}',
      ),
    ).toBe('90');
    expect(
      value(
        'console_rate_limit_remaining{connection="default",rule="module-minute",period="MINUTE"}',
      ),
    ).toBe('5');
    expect(
      value('console_rate_limit_limit{connection="default",rule="module-minute",period="MINUTE"}'),
    ).toBe('50');
  });

  it('keeps the same limit of two connections apart: each its own headroom, never the tighter for both', async () => {
    const value = await scrape(
      sources({
        limits: async () => [
          {
            connection: 'default',
            ruleId: 'account-minute',
            period: 'MINUTE',
            limit: 1000,
            used: 100,
            resetsAt: null,
            blockedUntil: null,
          },
          {
            connection: 'uat',
            ruleId: 'account-minute',
            period: 'MINUTE',
            limit: 200,
            used: 190,
            resetsAt: null,
            blockedUntil: NOW + 30_000,
          },
        ],
      }),
    );
    expect(
      value(
        'console_rate_limit_remaining{connection="default",rule="account-minute",period="MINUTE"}',
      ),
    ).toBe('900');
    expect(
      value('console_rate_limit_remaining{connection="uat",rule="account-minute",period="MINUTE"}'),
    ).toBe('10');
    expect(
      value(
        'console_rate_limit_blocked_seconds{connection="default",rule="account-minute",period="MINUTE"}',
      ),
    ).toBe('0');
    expect(
      value(
        'console_rate_limit_blocked_seconds{connection="uat",rule="account-minute",period="MINUTE"}',
      ),
    ).toBe('30');
  });

  it('reports each integration by connection and name, and drops one that is gone', async () => {
    const metrics = createConsoleMetrics();
    let listed: ScrapedIntegration[] = [
      {
        connection: 'default',
        name: 'billing-sync',
        requestsLastMinute: 12,
        requestsLastHour: 700,
        throttledLastHour: 3,
      },
      {
        connection: 'uat',
        name: 'uat-smoke',
        requestsLastMinute: 1,
        requestsLastHour: 40,
        throttledLastHour: 0,
      },
    ];
    const source = sources({ integrations: async () => listed });
    let value = await scrape(source, metrics);
    expect(
      value(
        'console_integration_reported_requests{connection="default",integration="billing-sync",period="MINUTE"}',
      ),
    ).toBe('12');
    expect(
      value(
        'console_integration_reported_requests{connection="default",integration="billing-sync",period="HOUR"}',
      ),
    ).toBe('700');
    expect(
      value(
        'console_integration_reported_throttled{connection="default",integration="billing-sync",period="HOUR"}',
      ),
    ).toBe('3');
    expect(
      value(
        'console_integration_reported_requests{connection="uat",integration="uat-smoke",period="HOUR"}',
      ),
    ).toBe('40');
    listed = [];
    value = await scrape(source, metrics);
    expect(
      value(
        'console_integration_reported_requests{connection="default",integration="billing-sync",period="HOUR"}',
      ),
    ).toBeUndefined();
  });

  it('reports readiness and each check, the audit chain beside its checkpoint, and a broken chain', async () => {
    const value = await scrape(sources());
    expect(value('console_ready')).toBe('1');
    expect(value('console_readiness_check{check="store"}')).toBe('1');
    expect(value('console_readiness_check{check="auditWrites"}')).toBe('0');
    expect(value('console_audit_entries_after_checkpoint')).toBe('4');
    expect(value('console_audit_chain_broken')).toBe('1');
    expect(value('console_audit_checkpoint_last_timestamp_seconds')).toBe(
      String((NOW - 60_000) / 1000),
    );
  });

  it('a part that fails leaves the scrape whole, and readiness that fails reads as not ready', async () => {
    const failing = () => Promise.reject(new Error('store down'));
    const value = await scrape(sources({ readiness: failing, integrations: failing }));
    expect(value('console_ready')).toBe('0');
    expect(
      value(
        'console_rate_limit_remaining{connection="default",rule="account-minute",period="MINUTE"}',
      ),
    ).toBe('60');
  });
});
