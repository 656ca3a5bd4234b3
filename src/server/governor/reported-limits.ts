// Limits the platform stated in its 429s that no configured limit of the call agrees with. A
// stricter one is kept for the call's endpoint from then on, so the same call does not draw the
// same 429 again; a restart or an admin's reset ends that.
import {
  PERIOD_SECONDS,
  endpointKey,
  type RateLimitPeriod,
  type RateLimitRule,
  type RateLimitWindow,
} from '../../shared/rate-limits';
import type { GuardedOperation } from '../upstream/send-guard';
import type { GovernedLimit, MakeLimit } from './governed-limit';

/** A limit the platform stated in a 429 that no configured limit of the call agrees with. Times in epoch ms. */
export interface ReportedLimitState {
  readonly endpoint: string;
  readonly operation: string;
  readonly period: RateLimitPeriod;
  readonly reported: number;
  readonly configured: number | null;
  readonly kept: number;
  readonly firstReportedAt: number;
  readonly lastReportedAt: number;
  readonly incidentKey: string;
  /** The window that keeps `reported`, when it is stricter than the configured limit. */
  readonly governed: GovernedLimit | undefined;
}

/** The rule a reported limit is kept under (its id names it in RateLimit-Policy). */
function reportedRule(endpoint: string, period: RateLimitPeriod, allowed: number): RateLimitRule {
  return {
    id: `reported-${period.toLowerCase()}`,
    name: 'Limit stated by the platform',
    area: 'Reported in a 429',
    scope: 'endpoint',
    method: '*',
    path: endpoint,
    kind: 'hard',
    limits: [reportedWindow(period, allowed)],
    blocks: 'rule',
    violation: '429',
  };
}

function reportedWindow(period: RateLimitPeriod, allowed: number): RateLimitWindow {
  return { period, limit: allowed, blockSeconds: PERIOD_SECONDS[period], blockDocumented: false };
}

/** The reported limits of one account, by endpoint and period. */
export class ReportedLimits {
  readonly #reported = new Map<string, ReportedLimitState>();
  readonly #makeLimit: MakeLimit;
  readonly #now: () => number;

  constructor(makeLimit: MakeLimit, now: () => number) {
    this.#makeLimit = makeLimit;
    this.#now = now;
  }

  get size(): number {
    return this.#reported.size;
  }

  /**
   * Takes note of `allowed` per `period` stated for `operation`, against `configured`, the
   * strictest enforced configured limit of that period for the call (null: none).
   */
  note(
    operation: GuardedOperation,
    period: RateLimitPeriod,
    allowed: number,
    incidentKey: string,
    configured: number | null,
  ): ReportedLimitState {
    const endpoint = endpointKey(operation.method, operation.path);
    const key = `${endpoint} ${period}`;
    const now = this.#now();
    const previous = this.#reported.get(key);
    const kept = configured === null ? allowed : Math.min(allowed, configured);
    const stricter = configured === null || allowed < configured;
    // The same figure again keeps its window (and its count); a new figure starts a new one.
    const governed = !stricter
      ? undefined
      : previous?.governed && previous.reported === allowed
        ? previous.governed
        : this.#makeLimit(
            reportedRule(endpoint, period, allowed),
            reportedWindow(period, allowed),
            endpoint,
          );
    const state: ReportedLimitState = {
      endpoint,
      operation: operation.id,
      period,
      reported: allowed,
      configured,
      kept,
      firstReportedAt: previous?.firstReportedAt ?? now,
      lastReportedAt: now,
      incidentKey,
      governed,
    };
    this.#reported.set(key, state);
    return state;
  }

  list(): ReportedLimitState[] {
    return [...this.#reported.values()];
  }

  /** Forgets them all; returns how many there were. */
  forget(): number {
    const count = this.#reported.size;
    this.#reported.clear();
    return count;
  }

  /** The windows kept for `operation`'s endpoint. */
  limitsOf(operation: GuardedOperation): GovernedLimit[] {
    if (this.#reported.size === 0) return [];
    const endpoint = endpointKey(operation.method, operation.path);
    return [...this.#reported.values()].flatMap((state) =>
      state.endpoint === endpoint && state.governed ? [state.governed] : [],
    );
  }
}
