// The console's Prometheus metrics (prom-client), one registry per composed BFF so tests never
// share counters. Each replica reports its own; Prometheus sums them. Labels are bounded: platform
// connection names, catalog operation ids, HTTP statuses, rule ids and route patterns, never
// anything a client typed. What belongs to one platform account carries its `connection`. The
// console's own metrics carry the `console_` prefix; Node's and the process's keep their standard
// names. Every metric is listed, with what to alert on, in docs/metrics.md.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Gauges of prom-client's default set named like counters (`_total`), which the Prometheus naming
 * rules (and `promtool check metrics`) refuse. The same counts stay, by type, in
 * nodejs_active_handles, nodejs_active_requests and nodejs_active_resources: sum them for a total.
 */
const NON_CONFORMING_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

export interface ConsoleMetricsOptions {
  /** Also report the process's CPU, memory, event-loop lag and GC (the process entry does). */
  readonly processMetrics?: boolean;
}

/** The registry and the instruments the BFF's parts update. */
export function createConsoleMetrics(options: ConsoleMetricsOptions = {}) {
  const registry = new Registry();
  if (options.processMetrics) {
    // Under their standard names (process_*, nodejs_*), so off-the-shelf Node.js dashboards work.
    collectDefaultMetrics({ register: registry });
    for (const name of NON_CONFORMING_DEFAULTS) registry.removeSingleMetric(name);
  }
  const registers = [registry];
  /**
   * A gauge per limit: labelled by connection, rule and period only, never a path, an endpoint or
   * a person.
   */
  const limitGauge = (name: string, help: string) =>
    new Gauge({ name, help, labelNames: ['connection', 'rule', 'period'] as const, registers });
  /** A gauge per integration, by its connection, its name and the period it covers. */
  const integrationGauge = (name: string, help: string) =>
    new Gauge({
      name,
      help,
      labelNames: ['connection', 'integration', 'period'] as const,
      registers,
    });
  return {
    registry,
    upstreamRequests: new Counter({
      name: 'console_upstream_requests_total',
      help: 'Requests sent to the upstream, by connection, operation and answer status (or timeout, unreachable)',
      labelNames: ['connection', 'operation', 'status'] as const,
      registers,
    }),
    upstreamDuration: new Histogram({
      name: 'console_upstream_request_duration_seconds',
      help: 'Time until the upstream answered, by connection and operation',
      labelNames: ['connection', 'operation'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    governorRejections: new Counter({
      name: 'console_governor_rejections_total',
      help: 'Calls the governor held back, by connection, the rule that refused and why (limit, blocked)',
      labelNames: ['connection', 'rule', 'reason'] as const,
      registers,
    }),
    governorFallback: new Gauge({
      name: 'console_governor_fallback',
      help: "1 while this replica keeps its own share of a connection's limits (Redis unreachable, or REPLICAS>1 without Redis)",
      labelNames: ['connection'] as const,
      registers,
    }),
    incidents: new Counter({
      name: 'console_incidents_recorded_total',
      help: 'Upstream 429s this replica stored as incidents, by connection and scope',
      labelNames: ['connection', 'scope'] as const,
      registers,
    }),
    incidentWriteFailures: new Counter({
      name: 'console_incident_write_failures_total',
      help: 'Upstream 429s this replica could not store, by connection',
      labelNames: ['connection'] as const,
      registers,
    }),
    tokenRequests: new Counter({
      name: 'console_token_requests_total',
      help: 'Access-token requests, by connection and outcome (success, failure)',
      labelNames: ['connection', 'outcome'] as const,
      registers,
    }),
    sseClients: new Gauge({
      name: 'console_sse_clients',
      help: 'Browsers connected to the live incident stream of this replica, by connection',
      labelNames: ['connection'] as const,
      registers,
    }),
    alertDeliveries: new Counter({
      name: 'console_alert_deliveries_total',
      help: 'Attempts to deliver an alert, by outcome (delivered, retrying, dead)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    // Read at each scrape (scrape-gauges.ts). With Redis the windows are shared, so every replica
    // reports the same values: take max(), not sum().
    rateLimitRemaining: limitGauge(
      'console_rate_limit_remaining',
      'Requests left in the current window of each limit, by connection, rule and period',
    ),
    rateLimitLimit: limitGauge(
      'console_rate_limit_limit',
      'Requests each limit allows in its window, by connection, rule and period',
    ),
    rateLimitResetSeconds: limitGauge(
      'console_rate_limit_reset_seconds',
      'Seconds until the oldest counted request leaves the window (0: nothing counted), by connection, rule and period',
    ),
    rateLimitBlockedSeconds: limitGauge(
      'console_rate_limit_blocked_seconds',
      'Seconds until the platform block on a limit ends (0: no block), by connection, rule and period',
    ),
    // Integration names are chosen by admins to name a service ("billing-sync"), are bounded (one
    // per registered integration) and are shown to every role on the rate-limits page already;
    // they are not personal data, and an operator needs them to see who uses the account up.
    integrationRequests: integrationGauge(
      'console_integration_reported_requests',
      'Requests each integration reported in the last minute or hour, by connection, integration and period',
    ),
    integrationThrottled: integrationGauge(
      'console_integration_reported_throttled',
      '429 answers each integration reported in the last hour, by connection, integration and period',
    ),
    ready: new Gauge({
      name: 'console_ready',
      help: '1 while this replica is ready for traffic (what /readyz answers), 0 otherwise',
      registers,
    }),
    readinessChecks: new Gauge({
      name: 'console_readiness_check',
      help: '1 while a readiness check passes, 0 while it fails, by check (as /readyz names them)',
      labelNames: ['check'] as const,
      registers,
    }),
    auditEntriesAfterCheckpoint: new Gauge({
      name: 'console_audit_entries_after_checkpoint',
      help: 'Audit chain entries newer than the last signed checkpoint this replica took',
      registers,
    }),
    auditCheckpointTimestamp: new Gauge({
      name: 'console_audit_checkpoint_last_timestamp_seconds',
      help: 'When this replica last took a signed checkpoint of the audit chain (its start until then)',
      registers,
    }),
    auditChainBroken: new Gauge({
      name: 'console_audit_chain_broken',
      help: '1 when the last walk of the audit chain (daily, or npm run audit -- verify) found it broken',
      registers,
    }),
    httpDuration: new Histogram({
      name: 'console_http_request_duration_seconds',
      help: 'Time to answer browser requests (first byte for streams), by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers,
    }),
  };
}

/** The BFF's metrics. */
export type ConsoleMetrics = ReturnType<typeof createConsoleMetrics>;
