// The demo area, in demo mode only: the controls that provoke the built-in mock's limits and
// faults, so the rate-limit panel can be tried without a real account. Support engineers
// investigate throttling, so they may use them too; nothing here reaches personal data.
import type { AreaModule } from '../runtime/area-module';
import type { RecordChange } from '../http/admin-change';
import type { Governor } from '../governor/governor';
import type { BlocksEnded } from '../../shared/incident';
import type { UpstreamClient } from '../upstream/upstream-client';
import { demoControlsRoutes, type DemoControlsPort } from './demo-controls-routes';

export interface DemoAreaDeps {
  readonly controls: DemoControlsPort;
  /** Records scenarios armed and blocks ended in the audit trail, before they happen. */
  readonly recordChange: RecordChange;
  readonly upstream: UpstreamClient;
  readonly governor: Governor;
  /** Where the end of the blocks is announced to open pages (the rate-limits area's hub). */
  readonly hub: { publishBlocksEnded(notice: BlocksEnded): void };
  readonly now: () => number;
  /** Gets an access token ahead of a scenario (demo-controls-routes.ts). */
  readonly prepare: () => Promise<unknown>;
}

export function createDemoArea(deps: DemoAreaDeps): AreaModule {
  return {
    routes: [
      {
        path: '/api/demo-controls',
        app: demoControlsRoutes(deps),
      },
    ],
    start() {},
    stop() {},
  };
}
