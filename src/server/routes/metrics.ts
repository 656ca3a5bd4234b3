// GET /metrics: the Prometheus text format for a scraper. Not an open door: with METRICS_TOKEN set
// only a request bearing that token; without it only a direct connection from loopback, and not
// one a proxy relayed (a reverse proxy on the same host would make every visitor look local).
import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/app-env';
import type { ConsoleMetrics } from '../observability/console-metrics';
import { PROBLEM_TYPES } from '../../shared/problem';
import { HttpProblem } from '../http/problem';
import { NO_STORE } from '../http/no-store';

export interface MetricsRoutesDeps {
  readonly metrics: ConsoleMetrics;
  /** METRICS_TOKEN; unset = loopback only. */
  readonly token: string | undefined;
  /** Brings gauges up to date just before a scrape (open streams, limits, readiness). */
  readonly beforeScrape?: () => void | Promise<void>;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Whether the request bears `token` as its bearer credential, compared in constant time. */
function bearsToken(c: Context<AppEnv>, token: string): boolean {
  const match = /^Bearer ([^\s]+)$/.exec(c.req.header('authorization') ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}

/** Whether the request came straight from this machine, not through a proxy. */
function isDirectLoopback(c: Context<AppEnv>): boolean {
  const address = c.env?.incoming?.socket?.remoteAddress;
  return (
    address !== undefined &&
    LOOPBACK.test(address) &&
    FORWARDING_HEADERS.every((name) => c.req.header(name) === undefined)
  );
}

/** The metrics route, mounted at /metrics. */
export function metricsRoutes(deps: MetricsRoutesDeps) {
  return new Hono<AppEnv>().get('/', async (c) => {
    if (deps.token !== undefined) {
      if (!bearsToken(c, deps.token)) {
        throw new HttpProblem(
          {
            type: PROBLEM_TYPES.metricsUnauthorized,
            title: 'Metrics need the scraper’s token',
            status: 401,
            detail: 'Send Authorization: Bearer with the value of METRICS_TOKEN.',
          },
          { 'WWW-Authenticate': 'Bearer realm="metrics"' },
        );
      }
    } else if (!isDirectLoopback(c)) {
      throw new HttpProblem({
        type: PROBLEM_TYPES.metricsForbidden,
        title: 'Metrics are served to this machine only',
        status: 403,
        detail: 'Scrape from loopback, or set METRICS_TOKEN and send it as a bearer token.',
      });
    }
    await deps.beforeScrape?.();
    const body = await deps.metrics.registry.metrics();
    return c.body(body, 200, {
      'Content-Type': deps.metrics.registry.contentType,
      ...NO_STORE,
    });
  });
}
