// The alerts area (docs/alerts.md): the forecast of every limit, alert conditions, signed
// deliveries to the destinations admins set up, and the audit trail's checkpoint announcements.
// Every role reads; admins change.
import type { AreaModule } from '../runtime/area-module';
import type { Config } from '../config/config';
import type { RecordChange } from '../http/admin-change';
import { alertsRoutes } from './alerts-routes';
import { createAlerting, type Alerting, type AlertingOptions } from './create-alerting';

export interface AlertsAreaDeps extends Pick<
  AlertingOptions,
  'database' | 'connections' | 'logger' | 'now' | 'onDeliveryOutcome'
> {
  readonly config: Config;
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
    connections: deps.connections,
    logger: deps.logger,
    now,
    http: { ...policy, timeoutMs: config.alerts.timeoutMs, maxResponseBytes: 64 * 1024 },
    maxAttempts: config.alerts.maxAttempts,
    repeatMs: config.alerts.repeatMs,
    ...(config.web.publicOrigin ? { publicOrigin: config.web.publicOrigin } : {}),
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
          // A threshold is a percentage of a limit, set once for that limit in every connection.
          ruleIds: [
            ...new Set(
              deps.connections.flatMap(({ governor }) => governor.rules().map((rule) => rule.id)),
            ),
          ],
        }),
      },
    ],
    // After the incident feed is wired, so alerts see every replica's incidents.
    start: () => alerting.start(),
    stop: () => alerting.stop(),
  };
}
