// Refuses API requests that a page of another site sent: the BFF grants no CORS at all, and a
// request whose Origin (or Sec-Fetch-Site) says "another site" is answered 403 before any route.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/app-env';
import { refuseWhen } from './refuse-when';
import { SECURITY_PROBLEM_TYPES } from './security-problems';
import { consoleOrigin, type WebSettings } from './web-settings';

function sameOrigin(origin: string, expected: string): boolean {
  try {
    return new URL(origin).origin === expected;
  } catch {
    return false;
  }
}

/**
 * Lets a request through when it carries no Origin and no cross-site Sec-Fetch-Site (a same-origin
 * GET, a tool such as curl), or an Origin equal to the console's own. `Origin: null` (sandboxed
 * frames, some redirects) is refused too.
 */
export function originCheck(web: WebSettings): MiddlewareHandler<AppEnv> {
  return refuseWhen(
    (c) => {
      const origin = c.req.header('origin');
      const fetchSite = c.req.header('sec-fetch-site');
      return origin !== undefined
        ? !sameOrigin(origin, consoleOrigin(c, web))
        : fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none';
    },
    {
      type: SECURITY_PROBLEM_TYPES.crossOrigin,
      title: 'Requests from other sites are not accepted',
      status: 403,
      detail: 'The console API answers only its own pages.',
    },
  );
}
