// What the routes' loaders (router.tsx) ask for first at an address, for start-early.ts to send
// before the SPA's code has been evaluated; router.test.tsx holds the two to the same requests.
import { sendEarly, sendEarlyWhenSignedIn } from '../lib/api-client';
import { SESSION_PATH } from '../lib/session-query';
import { EVENT_TYPES_PATH } from '../features/event-types/api/get-event-types';
import { RATE_LIMITS_FIRST_PATHS } from '../features/rate-limits/api/first-paths';

/** The GET requests the loaders start at an address: the session first, then what needs it. */
export interface FirstRequests {
  /** Asked at once. */
  readonly first: readonly string[];
  /**
   * Asked once the session's answer says someone is signed in: a signed-out visitor's browser
   * would log their 401s as errors.
   */
  readonly whenSignedIn: readonly string[];
}

/** The GET requests the loaders start at `pathname`: none on the sign-in page. */
export function firstRequests(pathname: string): FirstRequests {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/sign-in') return { first: [], whenSignedIn: [] };
  // `/` is sent on to /event-types.
  const whenSignedIn =
    path === '/' || path === '/event-types'
      ? [EVENT_TYPES_PATH]
      : path === '/rate-limits'
        ? RATE_LIMITS_FIRST_PATHS
        : [];
  return { first: [SESSION_PATH], whenSignedIn };
}

/** Sends the first requests of the page at `pathname` early, each in its turn (start-early.ts). */
export function sendFirstRequests(pathname: string): void {
  const { first, whenSignedIn } = firstRequests(pathname);
  sendEarly(first);
  sendEarlyWhenSignedIn(SESSION_PATH, whenSignedIn);
}
