// The alerts area (docs/alerts.md): the forecast of every limit, alert conditions, signed
// deliveries to the destinations admins set up, and the audit trail's checkpoint announcements.
// Every role reads; admins change.
import type { AreaModule } from '../runtime/area-module';
import type { Config } from '../config/config';
import type { RecordChange } from '../http/admin-change';
import { alertsRoutes } from './alerts-routes';
import type { AlertMonitorOptions } from './alert-monitor';
import { createAlerting, type Alerting, type AlertingOptions } from './create-alerting';
import type { UsageSource } from './forecast';

export interface AlertsAreaDeps extends Pick<
  AlertingOptions,
  'database' | 'governor' | 'hub' | 'logger' | 'now' | 'onDeliveryOutcome'
> {
  readonly config: Config;
  /** The account-wide numbers the forecast reads: the console's own plus every integration's. */
  readonly usage: UsageSource;
  /** Integrations that stopped reporting. */
  readonly silentReporters: NonNullable<AlertMonitorOptions['silentReporters']>;
  /** Records each change of destinations and thresholds in the audit trail, before it is made. */
  readonly recordChange: RecordChange;
}

export interface AlertsArea extends AreaModule {
  readonly alerting: Alerting;
}

export function createAlertsArea(deps: AlertsAreaDeps): AlertsArea {
  const { config, now } = deps;
  const policy = { allowPrivate: config.alerts.allowPrivate, demo: config.mode === 'demo' };
  const alerting = createAlerting({
    database: deps.database,
    governor: deps.governor,
    hub: deps.hub,
    logger: deps.logger,
    now,
    http: { ...policy, timeoutMs: config.alerts.timeoutMs, maxResponseBytes: 64 * 1024 },
    maxAttempts: config.alerts.maxAttempts,
    repeatMs: config.alerts.repeatMs,
    ...(config.web.publicOrigin ? { publicOrigin: config.web.publicOrigin } : {}),
    usage: deps.usage,
    silentReporters: deps.silentReporters,
    ...(deps.onDeliveryOutcome ? { onDeliveryOutcome: deps.onDeliveryOutcome } : {}),
  });
  return {
    alerting,
    routes: [
      {
        path: '/api/alerts',
        app: alertsRoutes({
          alerting,
          policy,
          now,
          recordChange: deps.recordChange,
          ruleIds: deps.governor.rules().map((rule) => rule.id),
        }),
      },
    ],
    // After the incident feed is wired, so alerts see every replica's incidents.
    start: () => alerting.start(),
    stop: () => alerting.stop(),
  };
}
