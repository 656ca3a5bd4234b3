// One structured log line per request (method, route pattern, status, duration, request id, user)
// and the X-Request-Id answer header that lets an operator find that line from a browser report.
//
// Not Hono's requestId middleware (hono/request-id): it always takes the caller's X-Request-Id
// (any 1–255 characters of [\w=-]), so any browser could choose the id an operator searches the
// log by. Here a forwarded id is kept only from a proxy TRUST_PROXY names as ours, and only in the
// shape a proxy sends (8–64 of [\w-]); the header name and the `reqId` log field stay as they are.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../http/app-env';
import type { Logger } from './logger';
import type { WebSettings } from '../security/web-settings';

const REQUEST_ID = /^[\w-]{8,64}$/;

/**
 * Machine traffic on a steady cadence: every integration reports every few seconds, which at info
 * level would bury a person's requests in the log. Accepted reports and rate refusals (429, which
 * a flood answers by the thousand; the refusing route logs once when it starts) log at debug;
 * other refusals still log at info (and failures at error).
 */
const QUIET_ROUTES = new Set(['/api/integrations/reports']);

/**
 * Assigns the request id (a proxy's X-Request-Id is kept only when TRUST_PROXY says the proxy is
 * ours, so a client cannot forge log correlation) and logs the finished request. The line names
 * the route pattern, not the path, so nothing a client put in the URL reaches the log.
 */
export function requestLogging(logger: Logger, web: WebSettings): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const forwarded = web.trustProxy ? c.req.header('x-request-id') : undefined;
    const requestId = forwarded && REQUEST_ID.test(forwarded) ? forwarded : randomUUID();
    c.set('requestId', requestId);
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    const status = c.res.status;
    const line = {
      reqId: requestId,
      method: c.req.method,
      route: routePath(c),
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ...(c.get('user') ? { user: c.get('user')?.username } : {}),
    };
    if (status >= 500) logger.error(line, 'request');
    else if ((status < 400 || status === 429) && QUIET_ROUTES.has(line.route)) {
      logger.debug(line, 'request');
    } else logger.info(line, 'request');
  };
}
