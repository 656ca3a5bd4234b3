// The integrations area (docs/account-wide-view.md): other integrations of the account report
// their traffic with their own key; admins manage the keys; everyone reads the account-wide usage.
// In demo mode, simulated integrations report through the same route.
import type { AreaModule } from '../runtime/area-module';
import type { RedisClient } from '../redis/redis-connection';
import type { RedisKeys } from '../redis/redis-keys';
import { DemoIntegrations, type DemoTrafficPort } from './demo-integrations';
import { createIntegrations, type IntegrationsOptions } from './integrations';
import type { RecordChange } from '../http/admin-change';
import {
  accountUsageRoutes,
  integrationAdminRoutes,
  integrationReportRoutes,
} from './integrations-routes';

export interface IntegrationsAreaDeps extends Omit<IntegrationsOptions, 'redis' | 'keys'> {
  readonly redis?: { readonly connection: RedisClient; readonly keys: RedisKeys } | undefined;
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
  readonly integrations: ReturnType<typeof createIntegrations>;
}

export function createIntegrationsArea(deps: IntegrationsAreaDeps): IntegrationsArea {
  const { redis, demo: _demo, recordChange, ...options } = deps;
  const integrations = createIntegrations({
    ...options,
    ...(redis ? { redis: redis.connection, keys: redis.keys } : {}),
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
      { path: '/api/integrations', app: integrationAdminRoutes({ ...routeDeps, recordChange }) },
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
