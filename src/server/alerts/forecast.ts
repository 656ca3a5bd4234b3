// Time to exhaustion per limit at the current rate: pure maths over one sample of usage and an
// injected "now", so the rule that decides a warning can be tested without waiting. The model is
// explained in docs/alerts.md ("How the forecast works").
import type { ForecastLevel, LimitForecast } from '../../shared/alerts';
import type { BlockState } from '../../shared/limit-state';
import type { RateLimitPeriod } from '../../shared/rate-limits';

/** One limit as a usage source sees it now. */
export interface LimitSample {
  readonly ruleId: string;
  readonly period: RateLimitPeriod;
  readonly limit: number;
  readonly windowSeconds: number;
  /** Requests counted in the sliding window now. */
  readonly used: number;
  /** Requests per second at the current rate (the last minute's). */
  readonly ratePerSecond: number;
  /** Whose requests: this console's only, or every reporting integration's. */
  readonly source: 'console' | 'account';
  /** Reported requests of the window set aside as implausible, counted in neither figure. */
  readonly setAside?: number;
}

/**
 * Where the forecast's numbers come from. Today the console's own governor
 * (console-usage-source.ts); account-wide numbers plug in by implementing the same interface.
 */
export interface UsageSource {
  sample(): Promise<LimitSample[]>;
}

/** The key thresholds are kept under. */
export const limitKey = (ruleId: string, period: RateLimitPeriod) => `${ruleId}:${period}`;

/**
 * Seconds until a sliding window of `windowSeconds` holding `used` requests reaches `limit` when
 * requests keep arriving at `rate` per second; null when it never does at that rate.
 *
 * At a steady rate r a sliding window of length W settles at r·W requests, so the limit is reached
 * within one window exactly when r·W ≥ limit. Until then, the requests counted now leave the
 * window as it slides; taking them as spread evenly over it (used/W leave per second), the count
 * moves by (r − used/W) per second, which gives the time below (never more than W).
 */
export function secondsToExhaustion(
  used: number,
  limit: number,
  windowSeconds: number,
  rate: number,
): number | null {
  if (used >= limit) return 0;
  if (!(rate > 0) || rate * windowSeconds < limit) return null;
  const growth = rate - used / windowSeconds;
  // r·W ≥ limit > used means growth > 0; kept as a guard against rounding.
  if (growth <= 0) return 0;
  return Math.min(windowSeconds, (limit - used) / growth);
}

/**
 * The forecast of one limit at `now` (epoch ms) with the warning threshold in percent. A `block`
 * that stops the limit makes it `blocked`, whatever its numbers say: a forecast of "OK" under a
 * running block is the contradiction the pages must not show.
 */
export function forecastLimit(
  sample: LimitSample,
  thresholdPercent: number,
  now: number,
  block: BlockState | null = null,
): LimitForecast {
  const seconds = secondsToExhaustion(
    sample.used,
    sample.limit,
    sample.windowSeconds,
    sample.ratePerSecond,
  );
  const percentUsed = sample.limit > 0 ? (sample.used / sample.limit) * 100 : 100;
  let level: ForecastLevel = 'ok';
  if (sample.used >= sample.limit) level = 'exhausted';
  else if (seconds !== null) level = 'forecast';
  else if (percentUsed >= thresholdPercent) level = 'near';
  if (block) level = 'blocked';
  return {
    key: limitKey(sample.ruleId, sample.period),
    ruleId: sample.ruleId,
    period: sample.period,
    limit: sample.limit,
    windowSeconds: sample.windowSeconds,
    used: sample.used,
    ratePerMinute: Math.round(sample.ratePerSecond * 60 * 10) / 10,
    percentUsed: Math.round(percentUsed * 10) / 10,
    thresholdPercent,
    secondsToExhaustion: seconds === null ? null : Math.round(seconds * 10) / 10,
    exhaustsAt: seconds === null ? null : new Date(now + seconds * 1_000).toISOString(),
    level,
    block,
    source: sample.source,
    ...(sample.setAside ? { setAside: sample.setAside } : {}),
  };
}

/** Whether a forecast is past its threshold (a "near-limit" warning), whatever else it says. */
export const pastThreshold = (forecast: LimitForecast) =>
  forecast.percentUsed >= forecast.thresholdPercent;
