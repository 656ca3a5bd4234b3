// The step-up before a lookup (PERSONAL_DATA_MAX_AUTH_AGE_MINUTES): when the BFF answers
// `reauthentication-required`, the page sends the browser through the identity provider and
// back to itself. Only the page's address travels, which names the operation and never a
// parameter; the identifier is not kept anywhere (no URL, no storage), so it is typed again.
import { ApiError } from '../../lib/api-client';
import { PROBLEM_TYPES } from '../../shared/problem';

/**
 * Where to send the browser for a step-up `error` asks for, coming back to `location`; undefined
 * for any other error.
 */
export function stepUpAddress(
  error: unknown,
  location: Pick<Location, 'pathname' | 'search'>,
): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const { problem } = error;
  if (problem.type !== PROBLEM_TYPES.reauthenticationRequired || !problem.signInUrl) {
    return undefined;
  }
  // Only a sign-in address of the console itself is followed.
  if (!problem.signInUrl.startsWith('/auth/sign-in?')) return undefined;
  const returnTo = encodeURIComponent(`${location.pathname}${location.search}`);
  return `${problem.signInUrl}&returnTo=${returnTo}`;
}
