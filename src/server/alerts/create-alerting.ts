// Wires early warning and alerting for compose.ts: the store, the outbox worker, the service that
// raises alerts, the monitor that watches incidents, usage and the governor, and the forecast the
// routes answer with. The usage source is the one seam for account-wide numbers.
import type { Incident } from '../../shared/incident';
import type { Governor } from '../governor/governor';
import type { Logger } from '../observability/logger';
import type { SqlDatabase } from '../store/database';
import { AlertDispatcher, realScheduler, type AlertScheduler } from './alert-dispatcher';
import type { AlertHttpOptions } from './alert-http';
import {
  AlertMonitor,
  currentForecast,
  type AlertMonitorOptions,
  type WatchedConnection,
} from './alert-monitor';
import { AlertConditions } from './alert-conditions';
import { AlertService } from './alert-service';
import { AlertStore } from './alert-store';
import { consoleUsageSource } from './console-usage-source';
import type { UsageSource } from './forecast';

/** What alerting needs of the incident feed: to be told of every incident change. */
export interface IncidentObserver {
  observe(observer: (incident: Incident) => void): () => void;
}

/** One platform connection as alerting watches it: what its monitor reads. */
export interface AlertedConnection {
  readonly connection: WatchedConnection;
  readonly governor: Governor;
  /** Every replica's incident changes of this connection, in order (its rate-limits area's hub). */
  readonly hub: IncidentObserver;
  /** Where its forecast's numbers come from (default: the connection's own governor). */
  readonly usage?: UsageSource;
  /** Its integrations that stopped reporting (see AlertMonitorOptions.silentReporters). */
  readonly silentReporters?: AlertMonitorOptions['silentReporters'];
}

export interface AlertingOptions {
  readonly database: () => Promise<SqlDatabase>;
  /**
   * Every connection watched, in the configured order; the first one's forecast is the one the
   * alerts page and banner show. Never empty.
   */
  readonly connections: readonly [AlertedConnection, ...AlertedConnection[]];
  readonly logger: Logger;
  readonly now: () => number;
  readonly http: AlertHttpOptions;
  readonly maxAttempts: number;
  /** See AlertMonitorOptions.repeatMs (ALERT_REPEAT_HOURS). */
  readonly repeatMs?: number | null;
  readonly publicOrigin?: string;
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
  const conditions = new AlertConditions(options.database);
  // One monitor per connection: each watches its own account's usage, governor and incidents.
  const watched = options.connections.map((watch) => {
    // compose.ts passes the account-wide source; the connection's own numbers otherwise.
    const usage = watch.usage ?? consoleUsageSource(watch.governor);
    const monitor = new AlertMonitor({
      service,
      store,
      conditions,
      connection: watch.connection,
      repeatMs: options.repeatMs ?? null,
      usage,
      timeline: watch.governor.timeline,
      ...(watch.silentReporters ? { silentReporters: watch.silentReporters } : {}),
      logger,
      now,
      scheduler,
    });
    return { ...watch, usage, monitor };
  });
  const [first] = options.connections;
  const firstUsage = watched[0]?.usage ?? consoleUsageSource(first.governor);
  let stopObserving: Array<() => void> = [];
  return {
    store,
    dispatcher,
    service,
    /** Each connection's monitor, in the configured order. */
    monitors: watched.map((watch) => watch.monitor),
    http: options.http,
    /**
     * The first connection's forecast of every limit now, each stopped by a running block saying
     * so (the alerts page's).
     */
    forecast: () => currentForecast(firstUsage, store, now(), first.governor.blockStates()),
    start() {
      stopObserving = watched.map(({ hub, monitor, connection }) =>
        hub.observe((incident) => {
          void monitor.onIncident(incident).catch((error: unknown) => {
            logger.warn(
              { err: error, connection: connection.name },
              'could not queue the alerts of an incident',
            );
          });
        }),
      );
      dispatcher.start();
      for (const { monitor } of watched) monitor.start();
    },
    async stop() {
      for (const stop of stopObserving) stop();
      stopObserving = [];
      for (const { monitor } of watched) monitor.stop();
      await dispatcher.stop();
    },
  };
}

export type Alerting = ReturnType<typeof createAlerting>;
