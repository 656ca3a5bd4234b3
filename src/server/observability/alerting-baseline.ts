// Counters that alerts are written on start at 0 for every label value the console knows, so a
// rule such as `increase(...[5m]) > 0` sees the first event (a series that appears with its first
// increment has no earlier sample to increase from) and a dashboard shows 0, not "no data".
import type { Incident } from '../../shared/incident';
import { TRANSPORT_FAILURES } from '../upstream/http-transport';
import type { ConsoleMetrics } from './console-metrics';
import { ACCOUNT_RULE_LABEL, REJECTION_REASONS } from './upstream-metrics';

/** What the label values are drawn from. */
export interface KnownLabelValues {
  /** The governor's rule ids. */
  readonly rules: readonly string[];
  /** Every upstream operation id the console may call (the token endpoint's included). */
  readonly operations: readonly string[];
}

/** Upstream answers worth alerting on, beside the transport failures: throttling, server errors. */
const ALERTING_STATUSES = ['429', '500', '502', '503', '504', 'invalid'] as const;
const INCIDENT_SCOPES = ['account', 'rule'] as const satisfies readonly Incident['scope'][];
const TOKEN_OUTCOMES = ['success', 'failure'] as const;
const DELIVERY_OUTCOMES = ['delivered', 'retrying', 'dead'] as const;

/** Creates the 0-valued series of every alerting counter of one connection's. */
export function startConnectionCountersAtZero(
  metrics: ConsoleMetrics,
  connection: string,
  { rules, operations }: KnownLabelValues,
): void {
  for (const rule of new Set([...rules, ACCOUNT_RULE_LABEL])) {
    for (const reason of REJECTION_REASONS) {
      metrics.governorRejections.inc({ connection, rule, reason }, 0);
    }
  }
  for (const operation of new Set(operations)) {
    for (const status of [...ALERTING_STATUSES, ...TRANSPORT_FAILURES]) {
      metrics.upstreamRequests.inc({ connection, operation, status }, 0);
    }
  }
  for (const scope of INCIDENT_SCOPES) metrics.incidents.inc({ connection, scope }, 0);
  for (const outcome of TOKEN_OUTCOMES) metrics.tokenRequests.inc({ connection, outcome }, 0);
  metrics.incidentWriteFailures.inc({ connection }, 0);
  // Until the governor says otherwise (scale-out.ts), it keeps the shared or the single windows.
  metrics.governorFallback.set({ connection }, 0);
}

/** Creates the 0-valued series of the console-wide alerting counters. */
export function startConsoleCountersAtZero(metrics: ConsoleMetrics): void {
  for (const outcome of DELIVERY_OUTCOMES) metrics.alertDeliveries.inc({ outcome }, 0);
}
