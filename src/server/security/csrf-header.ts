// Every /api request must carry `X-CSRF: 1`: a cross-site form, link or image cannot set a custom
// header, and a cross-site script would need a CORS preflight we never grant.
import type { MiddlewareHandler } from 'hono';
import { areaPathOf } from '../../shared/connections';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { AppEnv } from '../http/app-env';
import { refuseWhen } from './refuse-when';

/** Requests that cannot carry the header, by method and exact path (under any connection too). */
const CSRF_EXEMPT: ReadonlyArray<readonly [method: string, path: string]> = [
  // Signing in: protected by the Origin check and its JSON-only body instead.
  ['POST', '/api/session'],
  // EventSource cannot set headers; the stream only reads, with the session cookie.
  ['GET', '/api/rate-limits/stream'],
];

/** 403 problem+json unless the request carries exactly `X-CSRF: 1` or is exempt. */
export function requireCsrfHeader(): MiddlewareHandler<AppEnv> {
  return refuseWhen(
    (c) =>
      c.req.header('x-csrf') !== '1' &&
      !CSRF_EXEMPT.some(
        ([method, path]) => c.req.method === method && areaPathOf(c.req.path) === path,
      ),
    {
      type: PROBLEM_TYPES.csrfMissing,
      title: 'Missing X-CSRF header',
      status: 403,
      detail: 'Every /api request must carry the header "X-CSRF: 1".',
    },
  );
}
