// Hooks that feed the upstream side of the metrics: every request sent (by operation and answer),
// token requests, and every call the governor held back (by the rule that refused).
import { HttpProblem } from '../problem';
import { TransportError, type Transport, type TransportFailure } from '../upstream/http-transport';
import type { GovernorGuard } from '../upstream/send-guard';
import type { ConsoleMetrics } from './console-metrics';

type Outcome = number | TransportFailure | 'invalid';

/** Why the governor held a call back: its own count reached a limit, or the upstream blocked. */
export const REJECTION_REASONS = ['limit', 'blocked'] as const;

/** The rule label of a refusal that names no rule (the account as a whole). */
export const ACCOUNT_RULE_LABEL = 'account';

/** The UpstreamClient's `observe` option: counts and times each request sent. */
export function observeUpstream(metrics: ConsoleMetrics) {
  return (operation: string, outcome: Outcome, seconds: number) => {
    metrics.upstreamRequests.inc({ operation, status: String(outcome) });
    metrics.upstreamDuration.observe({ operation }, seconds);
  };
}

/** `transport` counted as operation `operation` (the token endpoint's requests). */
export function observedTransport(
  transport: Transport,
  operation: string,
  metrics: ConsoleMetrics,
): Transport {
  const observe = observeUpstream(metrics);
  return async (request) => {
    const started = performance.now();
    try {
      const response = await transport(request);
      observe(operation, response.status, (performance.now() - started) / 1_000);
      return response;
    } catch (error) {
      const kind = error instanceof TransportError ? error.kind : 'invalid';
      observe(operation, kind, (performance.now() - started) / 1_000);
      throw error;
    }
  };
}

/** `guard` with every refusal counted by the rule that refused and why. */
export function countRejections(guard: GovernorGuard, metrics: ConsoleMetrics): GovernorGuard {
  return {
    ...guard,
    async beforeSend(operation) {
      try {
        await guard.beforeSend(operation);
      } catch (error) {
        if (error instanceof HttpProblem && error.problem.status === 429) {
          const problem = error.problem as { ruleId?: unknown; limitedBy?: unknown };
          metrics.governorRejections.inc({
            rule: typeof problem.ruleId === 'string' ? problem.ruleId : ACCOUNT_RULE_LABEL,
            reason: problem.limitedBy === 'upstream-block' ? 'blocked' : 'limit',
          });
        }
        throw error;
      }
    },
  };
}
