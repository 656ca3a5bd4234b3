// The one shape every area of the BFF has (docs/architecture.md §1): an area (event types, rate
// limits and incidents, data subjects with the audit trail, alerts, integrations, auth, planning)
// owns its routes, use cases, store and jobs, and exports `create<Area>(deps)` returning this.
// compose.ts lists the modules; app.ts mounts their routes; the process starts and stops their
// jobs through start/stop, and /readyz asks each for its readiness.
import type { Hono } from 'hono';
import type { Role } from '../shared/session';
import type { AppEnv } from './app-env';

/** One group of an area's routes, mounted under `path` (for example `/api/alerts`). */
export interface AreaRoutes {
  readonly path: string;
  readonly app: Hono<AppEnv>;
  /**
   * Who may call them: absent means every signed-in role. `'public'` routes are mounted before
   * the session, Origin and CSRF checks (integrations report with their own key, from servers).
   */
  readonly access?: readonly Role[] | 'public';
}

/** What an area tells /readyz and /api/health about itself. */
export interface AreaReadiness {
  readonly ok: boolean;
  readonly error?: string;
}

export interface AreaModule {
  /** The area's routes; an area with no HTTP surface has none. */
  readonly routes: readonly AreaRoutes[];
  /** Starts the area's background jobs; awaited before the process serves. */
  start(): Promise<void> | void;
  /** Stops them and releases what the area holds; awaited on shutdown, in reverse order. */
  stop(): Promise<void> | void;
  /** The area's own readiness check, when it has one (its store, its writes). */
  readiness?(): Promise<AreaReadiness>;
}
