// The forecast's usage source once integrations report (docs/account-wide-view.md): each limit's
// count is the console's own plus every integration's, and so is the rate. Where no integration
// has reported into a limit the sample stays the console's own, marked as such. Requests of the
// minutes the account view set aside are counted in neither, only named (`setAside`).
import type { AccountLimit } from '../../shared/integrations';
import type { LimitSample, UsageSource } from './forecast';

/** What this source reads of the account-wide view. */
export interface AccountLimits {
  perLimit(): Promise<AccountLimit[]>;
}

const key = (ruleId: string, period: string) => `${ruleId}:${period}`;

/**
 * A UsageSource adding the integrations' reported requests to the console's own samples. The
 * integrations' rate is their count in the same rule's minute window (per second), or, for a rule
 * that has only a longer window, that window's average.
 */
export function accountUsageSource(
  consoleSource: UsageSource,
  account: AccountLimits,
): UsageSource {
  return {
    async sample(): Promise<LimitSample[]> {
      const [own, limits] = await Promise.all([consoleSource.sample(), account.perLimit()]);
      const reportedBy = new Map(
        limits.map((limit) => [key(limit.ruleId, limit.period), limit.reported - limit.console]),
      );
      const setAsideOf = new Map(
        limits.map((limit) => [key(limit.ruleId, limit.period), limit.setAside ?? 0]),
      );
      return own.map((plain) => {
        const setAside = setAsideOf.get(key(plain.ruleId, plain.period)) ?? 0;
        // What was set aside is said, so a calm forecast beside a forged flood is explained.
        const sample = setAside > 0 ? { ...plain, setAside } : plain;
        const others = reportedBy.get(key(sample.ruleId, sample.period)) ?? 0;
        if (others <= 0) return sample;
        const othersInMinute = reportedBy.get(key(sample.ruleId, 'MINUTE'));
        const othersRate =
          othersInMinute !== undefined ? othersInMinute / 60 : others / sample.windowSeconds;
        return {
          ...sample,
          used: sample.used + others,
          ratePerSecond: sample.ratePerSecond + Math.max(0, othersRate),
          source: 'account' as const,
        };
      });
    },
  };
}
