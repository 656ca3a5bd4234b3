// The sign-in page's address with where to come back to; the check of that target is shared with
// the BFF (shared/return-to.ts).
import { SIGN_IN_PATH } from '../../shared/return-to';

/** The sign-in page's address, remembering `location` to come back to. */
export function signInPath(location: { pathname: string; search: string }): string {
  const target = `${location.pathname}${location.search}`;
  if (target === '/' || location.pathname === SIGN_IN_PATH) return SIGN_IN_PATH;
  return `${SIGN_IN_PATH}?returnTo=${encodeURIComponent(target)}`;
}
