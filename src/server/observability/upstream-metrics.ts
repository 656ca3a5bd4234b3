// Hooks that feed the upstream side of the metrics: every request sent (by operation and answer),
// token requests, and every call the governor held back (by the rule that refused, from the
// governor's own events).
import type { GovernorEvents } from '../governor/governor-events';
import { TransportError, type Transport, type TransportFailure } from '../upstream/http-transport';
import type { ConsoleMetrics } from './console-metrics';

type Outcome = number | TransportFailure | 'invalid';

/** Why the governor held a call back: its own count reached a limit, or the upstream blocked. */
export const REJECTION_REASONS = ['limit', 'blocked'] as const;

/** The rule label of a refusal that names no rule (the account as a whole). */
export const ACCOUNT_RULE_LABEL = 'account';

/** The UpstreamClient's `observe` option: counts and times each request sent to `connection`. */
export function observeUpstream(metrics: ConsoleMetrics, connection: string) {
  return (operation: string, outcome: Outcome, seconds: number) => {
    metrics.upstreamRequests.inc({ connection, operation, status: String(outcome) });
    metrics.upstreamDuration.observe({ connection, operation }, seconds);
  };
}

/** `transport` counted as operation `operation` (the token endpoint's requests). */
export function observedTransport(
  transport: Transport,
  operation: string,
  metrics: ConsoleMetrics,
  connection: string,
): Transport {
  const observe = observeUpstream(metrics, connection);
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

/**
 * Counts every call the governor holds back, by the rule that refused (the account when none did)
 * and why. Returns a function that stops counting.
 */
export function countRejections(
  events: GovernorEvents,
  metrics: ConsoleMetrics,
  connection: string,
): () => void {
  return events.on('refused', ({ ruleId, reason }) => {
    metrics.governorRejections.inc({ connection, rule: ruleId ?? ACCOUNT_RULE_LABEL, reason });
  });
}
