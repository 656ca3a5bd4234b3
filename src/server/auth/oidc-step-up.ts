// Step-up before personal data (PERSONAL_DATA_MAX_AUTH_AGE_MINUTES): a provider session whose last
// authentication at the provider is older than that gets a 401 problem the SPA understands; it
// sends the browser through /auth/sign-in?reauthenticate=1, where max_age makes the provider ask
// again, and back to the lookup page. Password sessions are not affected (break-glass accounts).
import type { MiddlewareHandler } from 'hono';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { AppEnv } from '../http/app-env';
import { HttpProblem } from '../http/problem';

/** Where the SPA starts a step-up; it adds `returnTo` (the lookup page, never its identifier). */
export const STEP_UP_SIGN_IN_URL = '/auth/sign-in?reauthenticate=1';

/** Lets a request through only when its provider sign-in is at most `maxAgeSeconds` old. */
export function requireRecentAuthentication(
  maxAgeSeconds: number,
  now: () => number,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const user = c.get('user');
    if (user?.method === 'provider' && now() - (user.authTime ?? 0) > maxAgeSeconds * 1000) {
      throw new HttpProblem({
        type: PROBLEM_TYPES.reauthenticationRequired,
        title: 'Sign in again to look someone up',
        status: 401,
        detail: `Looking up personal data needs a sign-in at the identity provider within the last ${Math.round(maxAgeSeconds / 60)} minutes. Your session goes on.`,
        signInUrl: STEP_UP_SIGN_IN_URL,
      });
    }
    await next();
  };
}
