// createApp(deps) -> the BFF's Hono app: security headers, CSRF check, the API routes, the SPA,
// and one error handler that turns every failure into problem+json.
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { PROBLEM_TYPES } from '../shared/problem';
import type { Logger } from './logger';
import { HttpProblem, problemResponse } from './problem';
import { eventTypesRoutes } from './routes/event-types';
import { staticSiteRoutes } from './static-site';
import type { EventTypesSource } from './upstream/event-types-source';
import { problemForUpstreamFailure } from './upstream/upstream-problems';

export interface AppDeps {
  logger: Logger;
  eventTypes: EventTypesSource;
  arrayQueryStyle: 'repeat' | 'comma';
  /** Where the built SPA lives; omit to serve the API only (development with Vite). */
  staticDir?: string;
}

/** Every /api request must carry this header: a cross-site form or image cannot set it. */
const CSRF_HEADER = 'x-csrf';

export function createApp(deps: AppDeps) {
  const app = new Hono();

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

  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    deps.logger.debug(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  });

  app.use('/api/*', async (c, next) => {
    if (c.req.header(CSRF_HEADER) !== '1') {
      return problemResponse(c, {
        type: PROBLEM_TYPES.csrfMissing,
        title: 'Missing X-CSRF header',
        status: 403,
        detail: 'Every /api request must carry the header "X-CSRF: 1".',
      });
    }
    await next();
  });

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.route('/api/event-types', eventTypesRoutes(deps.eventTypes, deps.arrayQueryStyle));
  app.all('/api/*', (c) =>
    problemResponse(c, {
      type: PROBLEM_TYPES.notFound,
      title: 'No such API route',
      status: 404,
      detail: `${c.req.method} ${c.req.path} is not part of the console API.`,
    }),
  );
  if (deps.staticDir) app.route('/', staticSiteRoutes(deps.staticDir));

  app.onError((error, c) => {
    const problem = error instanceof HttpProblem ? error : problemForUpstreamFailure(error);
    if (problem) return problemResponse(c, problem.problem, problem.headers);
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
