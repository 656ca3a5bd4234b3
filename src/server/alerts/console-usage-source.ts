// The forecast's usage source until integrations report: this console's own requests, read from
// the governor's sliding windows (how many in each window) and its request timeline (the rate).
import type { Governor } from '../governor/governor';
import type { LimitSample, UsageSource } from './forecast';

/** Seconds of timeline the current rate is measured over. */
const RATE_SECONDS = 60;

/**
 * A UsageSource over the console's governor. Account limits take the rate of everything the
 * console sent in the last minute; a module rule counts only its own operations, which the timeline
 * does not tell apart, so its rate is its own minute window's count per minute (or, for a rule
 * with only a longer window, that window's average).
 */
export function consoleUsageSource(governor: Governor): UsageSource {
  const accountRules = new Set(
    governor
      .rules()
      .filter((rule) => rule.scope === 'account')
      .map((rule) => rule.id),
  );
  return {
    async sample(): Promise<LimitSample[]> {
      const timeline = governor.timeline.snapshot();
      const buckets = Math.max(1, Math.round(RATE_SECONDS / timeline.bucketSeconds));
      // The current bucket is still filling: measure over the last full buckets plus it, scaled
      // by the time they cover, so a fresh bucket does not halve the rate.
      const recent = timeline.sent.slice(-buckets);
      const sentRecently = recent.reduce((sum, count) => sum + count, 0);
      const accountRate = sentRecently / (buckets * timeline.bucketSeconds);
      const usage = await governor.usage();
      const minuteRate = new Map(
        usage
          .filter((limit) => limit.period === 'MINUTE')
          .map((limit) => [limit.ruleId, limit.used / limit.windowSeconds]),
      );
      return usage.map((limit) => ({
        ruleId: limit.ruleId,
        period: limit.period,
        limit: limit.limit,
        windowSeconds: limit.windowSeconds,
        used: limit.used,
        ratePerSecond: accountRules.has(limit.ruleId)
          ? accountRate
          : (minuteRate.get(limit.ruleId) ?? limit.used / limit.windowSeconds),
        source: 'console' as const,
      }));
    },
  };
}
