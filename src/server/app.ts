// createApp(deps) -> the BFF's Hono app: request log, security headers, request limits, Origin and
// CSRF checks, sign-in and sessions, roles, the API routes, the SPA, and one error handler that
// turns every failure into problem+json.
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { ConsoleHealth } from '../shared/console-health';
import type { ConsoleMeta } from '../shared/console-meta';
import { PROBLEM_TYPES } from '../shared/problem';
import type { AppEnv } from './http/app-env';
import type { AreaModule, AreaRoutes } from './runtime/area-module';
import type { ApiModule } from './http/api-operation';
import type { ConsoleAuth } from './auth/console-auth';
import { requireDescribedAccess } from './http/described-access';
import { connectionApiPath, DEFAULT_CONNECTION } from '../shared/connections';
import { requireSession } from './auth/require-session';
import { unlessBearer } from './auth/bearer-token';
import type { Logger } from './observability/logger';
import { HttpProblem, problemResponse } from './http/problem';
import type { Readiness } from './observability/readiness';
import { healthRoutes } from './routes/health';
import { metricsRoutes, type MetricsRoutesDeps } from './routes/metrics';
import { httpMetrics } from './observability/http-metrics';
import { apiFallback } from './security/api-fallback';
import { metaRoutes } from './routes/meta';
import { apiDescriptionRoutes } from './routes/api-description';
import { API_MODULES } from './api-description/api-modules';
import { buildOpenApiDocument } from './api-description/openapi-document';
import { answerDescriptionPaths } from './api-description/description-paths';
import { problemPagesRoutes } from './problem-pages/problem-pages';
import { requireCsrfHeader } from './security/csrf-header';
import { originCheck } from './security/origin-check';
import { htmlNoStore } from './security/html-no-store';
import { bodySizeLimit, queryLimits, requestTargetGuard } from './security/request-limits';
import { requestLogging } from './observability/request-logging';
import { traceRequests, tracedMiddleware } from './observability/traced-steps';
import { staticSiteRoutes } from './routes/static-site';
import { problemForUpstreamFailure } from './upstream/upstream-problems';
import { StoreUnavailableError } from './store/database';
import { NO_STORE } from './http/no-store';

export interface AppDeps {
  logger: Logger;
  /** Where the built SPA lives; omit to serve the API only (development with Vite). */
  staticDir?: string;
  /** Console users, sessions and sign-in throttling (the auth area): the edge's checks use it. */
  auth: ConsoleAuth;
  /** The areas whose routes are mounted (area-module.ts). */
  areas: readonly AreaModule[];
  /**
   * The API description whose operations' roles are enforced (default: the console's own,
   * API_MODULES); a request it does not describe is not served.
   */
  api?: readonly ApiModule[];
  /** The names of the platform connections served (default: `default` alone). */
  connections?: readonly string[];
  /** What `GET /api/meta` tells the SPA (mode, account tier, demo controls). */
  meta?: ConsoleMeta;
  /** What `GET /readyz` reports (composed: observability/readiness.ts). */
  readiness?: () => Promise<Readiness>;
  /** GET /metrics for a Prometheus scraper, and the request-duration histogram. */
  metrics?: MetricsRoutesDeps;
  /** What GET /api/health tells the browsers (the store, the governor's mode). */
  health?: () => Promise<ConsoleHealth>;
}

/**
 * Mounts one group of routes: console-wide ones at their path; a connection's under its prefix,
 * and the first connection's (`default`, configured the old way) also at the path they had before
 * connections existed, so scripts written against one platform account (API tokens,
 * docs/operations.md) keep working unchanged.
 */
function mount(app: Hono<AppEnv>, routes: AreaRoutes, first: string): void {
  if (routes.connection === undefined) {
    app.route(routes.path, routes.app);
    return;
  }
  app.route(connectionApiPath(routes.connection, routes.path), routes.app);
  if (routes.connection === first) app.route(routes.path, routes.app);
}

/** The areas' route groups with the given access. */
function routesWith(
  areas: readonly AreaModule[],
  wanted: (access: AreaRoutes['access']) => boolean,
): AreaRoutes[] {
  return areas.flatMap((area) => area.routes).filter((routes) => wanted(routes.access));
}

export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const connections = deps.connections ?? [DEFAULT_CONNECTION];

  // Outermost, so the request's log line and every problem answer carry its trace id.
  app.use('*', traceRequests());
  app.use('*', requestLogging(deps.logger, deps.auth.web));
  if (deps.metrics) app.use('*', httpMetrics(deps.metrics.metrics));

  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
      referrerPolicy: 'no-referrer',
      xFrameOptions: 'DENY',
      crossOriginResourcePolicy: 'same-origin',
    }),
  );

  app.use('*', htmlNoStore(), requestTargetGuard(), bodySizeLimit());
  // Integrations report with their key, from servers: no session, cookie, Origin or CSRF header.
  // Registered before the /api/* checks, so they never see these requests.
  for (const routes of routesWith(deps.areas, (access) => access === 'integration-key')) {
    mount(app, routes, connections[0] ?? DEFAULT_CONNECTION);
  }
  // A bearer request carries no ambient credential for these to guard (auth/bearer-token.ts).
  app.use(
    '/api/*',
    queryLimits(),
    unlessBearer(originCheck(deps.auth.web)),
    unlessBearer(requireCsrfHeader()),
  );

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  // Ready to serve: the store answers and takes writes and the process is not shutting down. A
  // failing token endpoint or Redis being away is "degraded" but still ready (200), so one outage
  // does not take every replica out at once (observability/readiness.ts, docs/operations.md).
  app.get('/readyz', async (c) => {
    const readiness: Pick<Readiness, 'ok' | 'degraded'> & { checks: object } =
      (await deps.readiness?.()) ?? { ok: true, checks: {} };
    return c.json(
      { status: readiness.ok && !readiness.degraded ? 'ok' : 'degraded', ...readiness },
      readiness.ok ? 200 : 503,
      NO_STORE,
    );
  });
  // Prometheus scrapes: loopback only, or with METRICS_TOKEN (routes/metrics.ts).
  if (deps.metrics) app.route('/metrics', metricsRoutes(deps.metrics));
  // Signing in needs no session; everything after requireSession does.
  for (const routes of routesWith(deps.areas, (access) => access === 'no-session')) {
    mount(app, routes, connections[0] ?? DEFAULT_CONNECTION);
  }
  // Roles are enforced from the API description, before any route is mounted: each operation's
  // `access` beside its handler is the one check, and a request no described operation matches is
  // not served (the fallback's 404 or 405), so a route added later without its description, below
  // a personal-data prefix or anywhere else, is closed by construction.
  const fallback = apiFallback(app);
  app.use(
    '/api/*',
    tracedMiddleware('session check', requireSession(deps.auth)),
    requireDescribedAccess(deps.api ?? API_MODULES, fallback, connections),
  );
  for (const routes of routesWith(deps.areas, (access) => access === undefined)) {
    mount(app, routes, connections[0] ?? DEFAULT_CONNECTION);
  }
  if (deps.meta) app.route('/api/meta', metaRoutes(deps.meta));
  // The console's own API description (api-description/), for every signed-in role.
  app.route(
    '/api/openapi.json',
    apiDescriptionRoutes(() => buildOpenApiDocument(API_MODULES)),
  );
  // The console's own health, for the banner on every page.
  if (deps.health) app.route('/api/health', healthRoutes(deps.health));
  app.all('/api/*', fallback);
  // Where a problem's `type` URI leads, for everyone (no session); and the usual description
  // addresses answer a 404 problem rather than the app's page.
  app.route('/problems', problemPagesRoutes());
  answerDescriptionPaths(app);
  if (deps.staticDir) app.route('/', staticSiteRoutes(deps.staticDir));

  app.onError((error, c) => {
    const problem = error instanceof HttpProblem ? error : problemForUpstreamFailure(error);
    if (problem) return problemResponse(c, problem.problem, problem.headers);
    if (error instanceof StoreUnavailableError) {
      // The reason (with DATA_DIR's path) went to the operator's log and /readyz, not the browser.
      return problemResponse(c, {
        type: PROBLEM_TYPES.storeUnavailable,
        title: 'The console’s own store is unavailable',
        status: 503,
        detail: 'Nothing could be read or recorded. The operator has been told; try again later.',
      });
    }
    deps.logger.error({ err: error, path: c.req.path }, 'unhandled error');
    return problemResponse(c, {
      type: PROBLEM_TYPES.internal,
      title: 'Something went wrong in the console server',
      status: 500,
      detail: 'The error was logged. Try again; if it persists, tell the console operator.',
    });
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
