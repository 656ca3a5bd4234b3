// Middleware that times every browser request for the request-duration histogram, labelled by
// route pattern (never the path a client typed) so the number of series stays bounded.
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../http/app-env';
import type { ConsoleMetrics } from './console-metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Observes each request's duration (to the first byte, for streams). */
export function httpMetrics(metrics: ConsoleMetrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      metrics.httpDuration.observe(
        {
          method: METHODS.has(c.req.method) ? c.req.method : 'OTHER',
          route: routePath(c),
          status: String(c.res.status),
        },
        (performance.now() - started) / 1_000,
      );
    }
  };
}
