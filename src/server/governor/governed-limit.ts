// One limit the governor counts, as admission, reported limits and usage share it.
import type { RateLimitRule, RateLimitWindow } from '../../shared/rate-limits';
import type { SlidingWindow } from './sliding-window';

/** One limit of one rule, with its window. */
export interface GovernedLimit {
  readonly rule: RateLimitRule;
  readonly limit: RateLimitWindow;
  /** The policy's name in the RateLimit-Policy header. */
  readonly policyId: string;
  /** False for a soft limit the operator chose not to keep: it is counted but never refuses. */
  readonly enforced: boolean;
  readonly window: SlidingWindow;
  /** The same limit's per-replica share (limit ÷ replicas), when the governor has a fallback. */
  readonly fallbackWindow?: SlidingWindow;
  /** For a per-endpoint or reported limit: the endpoint it counts ("GET /path"). */
  readonly endpoint?: string;
}

/** Makes the governed limit of `rule`'s `limit`, for one endpoint when given. */
export type MakeLimit = (
  rule: RateLimitRule,
  limit: RateLimitWindow,
  endpoint?: string,
) => GovernedLimit;

/** Whole seconds, rounded up, at least 1: a client that waits this long is not refused again. */
export function toSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1_000));
}
