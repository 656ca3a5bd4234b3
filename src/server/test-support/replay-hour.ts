// The hour the planning tests replay: a fixed clock whose period "hour" is the 60 minutes ending
// with NOW's minute, and a custom policy holding only the limits a test sets.
import type { PolicyChoice } from '../../shared/planning';

export const MINUTE = 60_000;
/** The replay's clock. */
export const NOW = Date.UTC(2026, 10, 27, 12, 0, 30);
/** The period's last minute (epoch ms). */
export const LAST = Math.floor(NOW / MINUTE) * MINUTE;
/** The period's n-th minute (0 … 59). */
export const at = (n: number) => LAST - (59 - n) * MINUTE;

/** A custom policy with no limit but those given. */
export const custom = (
  overrides: Partial<Extract<PolicyChoice, { kind: 'custom' }>> = {},
): PolicyChoice => ({
  kind: 'custom',
  accountMinute: null,
  accountHour: null,
  endpointMinute: null,
  moduleRules: [],
  ...overrides,
});
