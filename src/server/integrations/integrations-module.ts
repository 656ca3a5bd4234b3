// The integrations area (docs/account-wide-view.md): other integrations of the account report
// their traffic with their own key; admins manage the keys; everyone reads the account-wide usage.
// In demo mode, simulated integrations report through the same route.
import type { AreaModule } from '../area-module';
import type { Logger } from '../logger';
import type { RedisClient } from '../redis/redis-connection';
import type { RedisKeys } from '../redis/redis-keys';
import type { SqlDatabase } from '../store/database';
import type { GovernorView, IncidentList } from './account-usage';
import { DemoIntegrations, type DemoTrafficPort } from './demo-integrations';
import { createIntegrations, type IntegrationSettings } from './integrations';
import {
  accountUsageRoutes,
  integrationAdminRoutes,
  integrationReportRoutes,
} from './integrations-routes';

export interface IntegrationsAreaDeps {
  readonly settings: IntegrationSettings;
  readonly database: () => Promise<SqlDatabase>;
  readonly governor: GovernorView;
  readonly incidents: IncidentList;
  readonly logger: Logger;
  readonly now: () => number;
  readonly redis?: { readonly connection: RedisClient; readonly keys: RedisKeys } | undefined;
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
  readonly integrations: ReturnType<typeof createIntegrations>;
}

export function createIntegrationsArea(deps: IntegrationsAreaDeps): IntegrationsArea {
  const integrations = createIntegrations({
    settings: deps.settings,
    database: deps.database,
    governor: deps.governor,
    incidents: deps.incidents,
    logger: deps.logger,
    now: deps.now,
    ...(deps.redis ? { redis: deps.redis.connection, keys: deps.redis.keys } : {}),
  });
  const demo = deps.demo
    ? new DemoIntegrations({
        store: integrations.store,
        traffic: deps.demo.traffic,
        logger: deps.logger,
        probe: deps.demo.probe,
      })
    : undefined;
  if (demo) integrations.setDemo(demo);
  const routeDeps = integrations.routes();
  return {
    integrations,
    routes: [
      {
        path: '/api/integrations/reports',
        app: integrationReportRoutes(routeDeps),
        access: 'integration-key',
      },
      { path: '/api/integrations', app: integrationAdminRoutes(routeDeps), access: ['admin'] },
      { path: '/api/account-usage', app: accountUsageRoutes(routeDeps) },
    ],
    async start() {
      integrations.start();
      if (deps.demo) await demo?.start(deps.demo.deliver);
    },
    async stop() {
      integrations.stop();
      await demo?.stop();
    },
  };
}
