// Wires early warning and alerting for compose.ts: the store, the outbox worker, the service that
// raises alerts, the monitor that watches incidents, usage and the governor, and the forecast the
// routes answer with. The usage source is the one seam for account-wide numbers.
import type { Incident } from '../../shared/incident';
import type { Governor } from '../governor/governor';
import type { Logger } from '../observability/logger';
import type { SqlDatabase } from '../store/database';
import { AlertDispatcher, realScheduler, type AlertScheduler } from './alert-dispatcher';
import type { AlertHttpOptions } from './alert-http';
import { AlertMonitor, currentForecast, type AlertMonitorOptions } from './alert-monitor';
import { AlertConditions } from './alert-conditions';
import { AlertService } from './alert-service';
import { AlertStore } from './alert-store';
import { consoleUsageSource } from './console-usage-source';
import type { UsageSource } from './forecast';

/** What alerting needs of the incident feed: to be told of every incident change. */
export interface IncidentObserver {
  observe(observer: (incident: Incident) => void): () => void;
}

export interface AlertingOptions {
  readonly database: () => Promise<SqlDatabase>;
  readonly governor: Governor;
  /** Every replica's incident changes, in order (the rate-limits area's hub). */
  readonly hub: IncidentObserver;
  readonly logger: Logger;
  readonly now: () => number;
  readonly http: AlertHttpOptions;
  readonly maxAttempts: number;
  /** See AlertMonitorOptions.repeatMs (ALERT_REPEAT_HOURS). */
  readonly repeatMs?: number | null;
  readonly publicOrigin?: string;
  /** Where the forecast's numbers come from (default: the console's own governor). */
  readonly usage?: UsageSource;
  /** Integrations that stopped reporting (see AlertMonitorOptions.silentReporters). */
  readonly silentReporters?: AlertMonitorOptions['silentReporters'];
  readonly scheduler?: AlertScheduler;
  /** Replaces the HTTP attempt (tests). */
  readonly send?: ConstructorParameters<typeof AlertDispatcher>[0]['send'];
  /** Told each delivery attempt's outcome (metrics). */
  readonly onDeliveryOutcome?: ConstructorParameters<typeof AlertDispatcher>[0]['onOutcome'];
}

/** Builds the alerting parts; start() once the app serves, stop() on shutdown. */
export function createAlerting(options: AlertingOptions) {
  const { logger, now } = options;
  const scheduler = options.scheduler ?? realScheduler;
  const store = new AlertStore(options.database);
  const dispatcher = new AlertDispatcher({
    store,
    http: options.http,
    logger,
    now,
    maxAttempts: options.maxAttempts,
    scheduler,
    ...(options.send ? { send: options.send } : {}),
    ...(options.onDeliveryOutcome ? { onOutcome: options.onDeliveryOutcome } : {}),
  });
  const service = new AlertService({
    store,
    dispatcher,
    now,
    logger,
    ...(options.publicOrigin ? { publicOrigin: options.publicOrigin } : {}),
  });
  // compose.ts passes the account-wide source; the console's own numbers otherwise.
  const usage = options.usage ?? consoleUsageSource(options.governor);
  const monitor = new AlertMonitor({
    service,
    store,
    conditions: new AlertConditions(options.database),
    repeatMs: options.repeatMs ?? null,
    usage,
    timeline: options.governor.timeline,
    ...(options.silentReporters ? { silentReporters: options.silentReporters } : {}),
    logger,
    now,
    scheduler,
  });
  let stopObserving: (() => void) | undefined;
  return {
    store,
    dispatcher,
    service,
    monitor,
    http: options.http,
    /** The forecast of every limit now, each stopped by a running block saying so. */
    forecast: () => currentForecast(usage, store, now(), options.governor.blockStates()),
    start() {
      stopObserving = options.hub.observe((incident) => {
        void monitor.onIncident(incident).catch((error: unknown) => {
          logger.warn({ err: error }, 'could not queue the alerts of an incident');
        });
      });
      dispatcher.start();
      monitor.start();
    },
    async stop() {
      stopObserving?.();
      monitor.stop();
      await dispatcher.stop();
    },
  };
}

export type Alerting = ReturnType<typeof createAlerting>;
