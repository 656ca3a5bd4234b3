// `GET /api/rate-limit-overview`: every connection the person has a role in, side by side, with its
// headroom, running blocks and platform state (connection-overview.ts), for the rate-limits page.
//
// Console-wide, and deliberately not below `/api/connections/`: every segment there names a
// connection (`overview` is a valid connection name), nor below `/api/rate-limits`, whose old
// paths are the first connection's.
import { Hono } from 'hono';
import { RateLimitOverviewSchema, type RateLimitOverview } from '../../shared/connection-overview';
import type { ApiModule } from '../http/api-operation';
import type { AppEnv } from '../http/app-env';
import { signedOutProblem } from '../http/auth-problems';
import { NO_STORE } from '../http/no-store';
import type { Logger } from '../observability/logger';
import type { AreaModule } from '../runtime/area-module';
import { rateLimitsApi } from './rate-limits-routes';
import { readConnectionOverview, type OverviewSource } from './connection-overview';

export interface OverviewAreaDeps {
  /** Every configured connection, in the configured order. */
  readonly connections: readonly OverviewSource[];
  readonly logger: Logger;
  readonly now: () => number;
}

/** The path the overview is served at. */
export const RATE_LIMIT_OVERVIEW_PATH = '/api/rate-limit-overview';

/** The route, mounted at RATE_LIMIT_OVERVIEW_PATH behind requireSession. */
export function overviewRoutes(deps: OverviewAreaDeps) {
  return new Hono<AppEnv>().get('/', async (c) => {
    const user = c.get('user');
    if (!user) throw signedOutProblem();
    // Only the person's own: a connection they have no role in is not shown, not even by name.
    const theirs = deps.connections.filter((source) => Object.hasOwn(user.roles, source.name));
    const connections = await Promise.all(
      theirs.map((source) =>
        readConnectionOverview(source, (error) =>
          deps.logger.warn(
            { err: error, connection: source.name },
            'rate-limit overview: a connection’s limits could not be read',
          ),
        ),
      ),
    );
    const body: RateLimitOverview = { now: new Date(deps.now()).toISOString(), connections };
    return c.json(body, 200, NO_STORE);
  });
}

/** The overview as an area of its own: one route, nothing to start (compose.ts lists it). */
export function createOverviewArea(deps: OverviewAreaDeps): AreaModule {
  return {
    routes: [{ path: RATE_LIMIT_OVERVIEW_PATH, app: overviewRoutes(deps) }],
    start() {},
    stop() {},
  };
}

/** This route in the console's API description (api-description/). */
export const rateLimitOverviewApi: ApiModule = {
  base: RATE_LIMIT_OVERVIEW_PATH,
  tag: rateLimitsApi.tag,
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'getRateLimitOverview',
      summary: 'Every connection’s headroom and running blocks at once',
      description:
        'For each connection you have a role in, in the configured order: its tier, each limit’s headroom, the blocks running now and when each ends, whether its governor counts on its per-replica fallback, and whether its platform answered the last token request (read from what the console knows; nothing is sent to the platform). A connection whose limits cannot be read answers `limits: null` with a `problem`; the others answer as usual.',
      access: { signedIn: true },
      responses: {
        200: { description: 'One card per connection.', schema: RateLimitOverviewSchema },
      },
    },
  ],
};
