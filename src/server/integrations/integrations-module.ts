// The integrations area (docs/account-wide-view.md): other integrations of an account report
// their traffic with their own key; admins manage the keys; everyone reads the account-wide usage.
// Built here from the configuration: the integration store, the per-key ingest limiter (in Redis
// when replicas share one), one account usage per platform connection, the reader of reported
// minutes the planning area is handed, and the timer that deletes aggregates older than the
// retention. The registry and the account-wide view are each connection's (mounted under its
// prefix); the ingest route is one for the console, since a key says which connection it reports
// to. In demo mode, simulated integrations report through the same route.
import { INGEST_PATH } from '../../shared/integrations';
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

/** One platform connection as the area reads it: its name, governor and incidents. */
export interface IntegrationsConnection {
  readonly name: string;
  readonly governor: GovernorView;
  readonly incidents: IncidentList;
}

export interface IntegrationsAreaDeps {
  readonly settings: IntegrationSettings;
  readonly database: () => Promise<SqlDatabase>;
  /** Every connection served, in the configured order (never empty); the demo reports to the first. */
  readonly connections: readonly [IntegrationsConnection, ...IntegrationsConnection[]];
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
    /** The first connection's account-wide view. */
    readonly usage: AccountUsage;
    /** Each connection's account-wide view, by name. */
    readonly usageOf: ReadonlyMap<string, AccountUsage>;
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
  const { settings, now, logger, connections } = deps;
  const [first] = connections;
  const byName = new Map(connections.map((connection) => [connection.name, connection]));
  const store = new IntegrationStore(deps.database, now);
  // A report is bounded by the ceiling of the connection its key reports to.
  const reports = new ReportAggregates(deps.database, now, deps.alsoRecord, (connection) => {
    const governor = byName.get(connection)?.governor;
    return governor ? accountMinuteCeiling(governor.rules()) : undefined;
  });
  const retentionMs = settings.retentionDays * 86_400_000;
  const demo = deps.demo
    ? new DemoIntegrations({
        // The demo traffic is the first connection's mock's: its simulated clients report there.
        connection: first.name,
        store,
        reports,
        traffic: deps.demo.traffic,
        logger,
        probe: deps.demo.probe,
      })
    : undefined;
  const usageOf = new Map(
    connections.map((connection) => [
      connection.name,
      new AccountUsage({
        connection: connection.name,
        store,
        reports,
        governor: connection.governor,
        incidents: connection.incidents,
        now,
        staleAfterMs: settings.staleAfterSeconds * 1_000,
        demoBursts: () => (connection === first ? (demo?.list() ?? []) : []),
      }),
    ]),
  );
  const usageOfConnection = (name: string) => usageOf.get(name) as AccountUsage;
  const routeDeps: IntegrationsRoutesDeps = {
    store,
    reports,
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
      usage: usageOfConnection(first.name),
      usageOf,
      reportedMinutes: (connection) => new ReportedMinutesReader(deps.database, { connection }),
    },
    routes: [
      {
        path: INGEST_PATH,
        app: integrationReportRoutes(routeDeps),
        access: 'integration-key',
      },
      // Each connection's registry and view, under its prefix (the first's at the old paths too).
      ...connections.flatMap(({ name }) => [
        {
          path: '/api/integrations',
          app: integrationAdminRoutes({
            ...routeDeps,
            connection: name,
            usage: usageOfConnection(name),
            recordChange: deps.recordChange,
          }),
          connection: name,
        },
        {
          path: '/api/account-usage',
          app: accountUsageRoutes({ usage: usageOfConnection(name) }),
          connection: name,
        },
      ]),
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
