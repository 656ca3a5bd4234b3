// The integrations area (docs/account-wide-view.md): other integrations of the account report
// their traffic with their own key; admins manage the keys; everyone reads the account-wide usage.
// Built here from the configuration: the integration store, the per-key ingest limiter (in Redis
// when replicas share one), the account usage, the reader of reported minutes the planning area
// is handed, and the timer that deletes aggregates older than the retention. In demo mode,
// simulated integrations report through the same route.
import { accountMinuteCeiling } from '../../shared/rate-limits';
import type { RecordChange } from '../http/admin-change';
import type { Logger } from '../observability/logger';
import type { RedisClient } from '../redis/redis-connection';
import type { ConsoleRedisKeys } from '../redis/redis-keys';
import type { AreaModule } from '../runtime/area-module';
import type { WebSettings } from '../security/web-settings';
import type { SqlDatabase } from '../store/database';
import { AccountUsage, type GovernorView, type IncidentList } from './account-usage';
import { DemoIntegrations, type DemoTrafficPort } from './demo-integrations';
import { createFailedKeyGuard } from './failed-key-guard';
import { createIngestLimiter } from './ingest-limiter';
import { IntegrationStore } from './integration-store';
import {
  accountUsageRoutes,
  integrationAdminRoutes,
  integrationReportRoutes,
  type IntegrationsRoutesDeps,
} from './integrations-routes';
import { ReportAggregates, type AlsoRecordMinutes } from './report-aggregates';
import { ReportedMinutesReader } from './reported-minutes-reader';

/** The account-wide view's settings (INTEGRATION_* variables). */
export interface IntegrationSettings {
  readonly retentionDays: number;
  readonly ingestPerMinute: number;
  readonly failedKeysPerMinute: number;
  readonly failedKeyHoldMs: number;
  readonly staleAfterSeconds: number;
}

export interface IntegrationsAreaDeps {
  readonly settings: IntegrationSettings;
  readonly database: () => Promise<SqlDatabase>;
  readonly governor: GovernorView;
  readonly incidents: IncidentList;
  readonly logger: Logger;
  readonly now: () => number;
  /** How clients reach the console: which address a wrong key is counted against. */
  readonly web: WebSettings;
  readonly redis?:
    { readonly connection: RedisClient; readonly keys: ConsoleRedisKeys } | undefined;
  /** Written with every stored report, in its transaction (the planning area's account totals). */
  readonly alsoRecord?: AlsoRecordMinutes;
  /** Records registrations, rotations and revocations in the audit trail, before they are made. */
  readonly recordChange: RecordChange;
  /** Demo mode: the mock's simulated other clients, shown as reporting integrations. */
  readonly demo?:
    | {
        readonly traffic: DemoTrafficPort;
        /** One upstream call the simulated integrations make to show the console's own use. */
        readonly probe: () => Promise<unknown>;
        /** Delivers a report to the console's own ingest route, in-process. */
        readonly deliver: (url: string, init: RequestInit) => Promise<Response>;
      }
    | undefined;
}

export interface IntegrationsArea extends AreaModule {
  /** The account-wide view; `usage.perLimit()` is the per-limit seam. */
  readonly integrations: {
    readonly store: IntegrationStore;
    readonly reports: ReportAggregates;
    readonly usage: AccountUsage;
    /**
     * What one connection's planning area reads of the reports of the integrations reporting to
     * that connection (compose.ts hands it over).
     */
    readonly reportedMinutes: (connection: string) => ReportedMinutesReader;
  };
}

const PRUNE_EVERY_MS = 10 * 60_000;

/** The integrations area: its routes, and start/stop of the retention timer and the demo. */
export function createIntegrationsArea(deps: IntegrationsAreaDeps): IntegrationsArea {
  const { settings, now, logger } = deps;
  const store = new IntegrationStore(deps.database, now);
  const reports = new ReportAggregates(deps.database, now, deps.alsoRecord, () =>
    accountMinuteCeiling(deps.governor.rules()),
  );
  const retentionMs = settings.retentionDays * 86_400_000;
  const demo = deps.demo
    ? new DemoIntegrations({
        store,
        reports,
        traffic: deps.demo.traffic,
        logger,
        probe: deps.demo.probe,
      })
    : undefined;
  const usage = new AccountUsage({
    store,
    reports,
    governor: deps.governor,
    incidents: deps.incidents,
    now,
    staleAfterMs: settings.staleAfterSeconds * 1_000,
    demoBursts: () => demo?.list() ?? [],
  });
  const routeDeps: IntegrationsRoutesDeps = {
    store,
    reports,
    usage,
    limiter: createIngestLimiter({
      perMinute: settings.ingestPerMinute,
      ...(deps.redis ? { redis: deps.redis.connection, keys: deps.redis.keys } : {}),
    }),
    failedKeys: createFailedKeyGuard({
      perMinute: settings.failedKeysPerMinute,
      holdMs: settings.failedKeyHoldMs,
      now,
    }),
    web: deps.web,
    logger,
    now,
    retentionMs,
    ...(demo ? { demo } : {}),
  };
  let timer: NodeJS.Timeout | undefined;
  const prune = async () => {
    try {
      const removed = await reports.prune(now() - retentionMs);
      if (removed > 0)
        logger.info({ removed }, 'integration aggregates past the retention deleted');
    } catch (error) {
      logger.warn({ err: error }, 'could not delete old integration aggregates');
    }
  };
  return {
    integrations: {
      store,
      reports,
      usage,
      reportedMinutes: (connection) => new ReportedMinutesReader(deps.database, { connection }),
    },
    routes: [
      {
        path: '/api/integrations/reports',
        app: integrationReportRoutes(routeDeps),
        access: 'integration-key',
      },
      {
        path: '/api/integrations',
        app: integrationAdminRoutes({ ...routeDeps, recordChange: deps.recordChange }),
      },
      { path: '/api/account-usage', app: accountUsageRoutes(routeDeps) },
    ],
    async start() {
      void prune();
      timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
      timer.unref();
      if (deps.demo) await demo?.start(deps.demo.deliver);
    },
    async stop() {
      clearInterval(timer);
      await demo?.stop();
    },
  };
}
