// The forecast sees the whole account once integrations report: their requests add to the
// console's own in each limit, and a limit nobody else reported into stays the console's.
import { describe, expect, it } from 'vitest';
import type { AccountLimit } from '../../shared/integrations';
import { accountUsageSource } from './account-usage-source';
import type { LimitSample } from './forecast';

const own: LimitSample[] = [
  {
    ruleId: 'account-minute',
    period: 'MINUTE',
    limit: 20_000,
    windowSeconds: 60,
    used: 100,
    ratePerSecond: 100 / 60,
    source: 'console',
  },
  {
    ruleId: 'account-hour',
    period: 'HOUR',
    limit: 200_000,
    windowSeconds: 3_600,
    used: 3_000,
    ratePerSecond: 100 / 60,
    source: 'console',
  },
  {
    ruleId: 'v3-datasubjects-quota',
    period: 'MINUTE',
    limit: 1_000,
    windowSeconds: 60,
    used: 5,
    ratePerSecond: 5 / 60,
    source: 'console',
  },
];

const limit = (ruleId: string, period: 'MINUTE' | 'HOUR', consoleUsed: number, others: number) =>
  ({
    ruleId,
    period,
    limit: 0,
    console: consoleUsed,
    integrations: others ? [{ id: 'i1', name: 'Nightly consent sync', used: others }] : [],
    reported: consoleUsed + others,
    unreported: null,
    block: null,
  }) satisfies AccountLimit;

describe('the account-wide usage source', () => {
  it('adds what integrations reported to each limit and to the rate', async () => {
    const source = accountUsageSource(
      { sample: async () => own },
      {
        perLimit: async () => [
          limit('account-minute', 'MINUTE', 100, 18_000),
          limit('account-hour', 'HOUR', 3_000, 150_000),
          limit('v3-datasubjects-quota', 'MINUTE', 5, 0),
        ],
      },
    );
    const [minute, hour, module] = await source.sample();
    expect(minute).toMatchObject({ used: 18_100, source: 'account' });
    expect(minute?.ratePerSecond).toBeCloseTo((100 + 18_000) / 60);
    // A rule with only an hour window takes the integrations' hour average as their rate.
    expect(hour).toMatchObject({ used: 153_000, source: 'account' });
    expect(hour?.ratePerSecond).toBeCloseTo(100 / 60 + 150_000 / 3_600);
    // Nobody else reported into the module rule: it stays the console's own sample.
    expect(module).toEqual(own[2]);
  });
});
