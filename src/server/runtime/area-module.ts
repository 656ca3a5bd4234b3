// The one shape every area of the BFF has (docs/architecture.md §1): an area (event types, rate
// limits and incidents, data subjects with the audit trail, alerts, integrations, auth, planning)
// owns its routes, use cases, store and jobs, and exports `create<Area>(deps)` returning this.
// compose.ts lists the modules; app.ts mounts their routes; the process starts and stops their
// jobs through start/stop, and /readyz and /api/health run the checks each declares.
import type { Hono } from 'hono';
import type { ReadinessCheck } from '../observability/readiness';

/** One group of an area's routes, mounted under `path` (for example `/api/alerts`). */
export interface AreaRoutes {
  readonly path: string;
  // Route groups are built with the environment their handlers read (most with AppEnv, some with
  // none); Hono's `route` takes any of them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly app: Hono<any, any, any>;
  /**
   * Where the group is mounted. Absent: behind the session, where each operation's roles in the
   * route module's API description are enforced (http/described-access.ts); the roles are written
   * there, once. `'no-session'`: browsers without a session (signing in), after the Origin and
   * CSRF checks. `'integration-key'`: servers reporting with an integration's key, before the
   * browser checks (no session, cookie, Origin or CSRF header).
   */
  readonly access?: 'no-session' | 'integration-key';
  /**
   * The platform connection these routes serve, when they are one connection's (event types, rate
   * limits, …): app.ts mounts them under `/api/connections/<name>` (connectionApiPath), and
   * `default`'s also at `path` itself. Absent: console-wide routes, mounted at `path`.
   */
  readonly connection?: string;
}

export interface AreaModule {
  /** The area's routes; an area with no HTTP surface has none. */
  readonly routes: readonly AreaRoutes[];
  /** Starts the area's background jobs; awaited before the process serves. */
  start(): Promise<void> | void;
  /** Stops them and releases what the area holds; awaited on shutdown, in reverse order. */
  stop(): Promise<void> | void;
  /**
   * What the area tells /readyz and /api/health about itself (its store, its writes, what it
   * depends on), each check named once; compose.ts collects them from every area.
   */
  readonly readiness?: readonly ReadinessCheck[];
}

/**
 * `area` as one connection's: its routes are mounted under that connection's prefix. The area's
 * own code does not know which connection it serves; the composition root says so here.
 */
export function forConnection<Area extends AreaModule>(area: Area, connection: string): Area {
  return { ...area, routes: area.routes.map((routes) => ({ ...routes, connection })) };
}
