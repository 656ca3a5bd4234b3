// What the routes' loaders (router.tsx) ask for first at an address, for start-early.ts to send
// before the SPA's code has been evaluated; router.test.tsx holds the two to the same requests.
import { sendEarly, sendEarlyWhenSignedIn } from '../lib/api-client';
import { SESSION_PATH } from '../lib/session-query';
import { CONNECTIONS_PATH, connectionOfPage, pageOfConnectionPath } from '../lib/connections-query';
import { CONNECTION_NAME_PATTERN } from '../shared/connections';
import { eventTypesPath } from '../features/event-types/api/get-event-types';
import { rateLimitsFirstPaths } from '../features/rate-limits/api/first-paths';

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

/** `pathname` without trailing slashes, `/` for the root. */
const normalised = (pathname: string) => pathname.replace(/\/+$/, '') || '/';

/** Whether `pathname` is the sign-in page's: it asks for nothing and writes no time. */
export const isSignInPage = (pathname: string) => normalised(pathname) === '/sign-in';

/** The GET requests the loaders start at `pathname`: none on the sign-in page. */
export function firstRequests(pathname: string): FirstRequests {
  if (isSignInPage(pathname)) return { first: [], whenSignedIn: [] };
  const path = normalised(pathname);
  // Every frame asks for the person's connections (the header's switcher). An address without a
  // connection (`/`, `/event-types`) is sent on to the first one's page, known only once the list
  // answers: its page's data is asked for then, one round trip later.
  const connection = connectionOfPage(path);
  if (connection === undefined || !CONNECTION_NAME_PATTERN.test(connection)) {
    return { first: [SESSION_PATH], whenSignedIn: [CONNECTIONS_PATH] };
  }
  const page = pageOfConnectionPath(path);
  const pagePaths =
    page === 'event-types'
      ? [eventTypesPath(connection)]
      : page === 'rate-limits'
        ? rateLimitsFirstPaths(connection)
        : [];
  return { first: [SESSION_PATH], whenSignedIn: [CONNECTIONS_PATH, ...pagePaths] };
}

/** Sends the first requests of the page at `pathname` early, each in its turn (start-early.ts). */
export function sendFirstRequests(pathname: string): void {
  const { first, whenSignedIn } = firstRequests(pathname);
  sendEarly(first);
  sendEarlyWhenSignedIn(SESSION_PATH, whenSignedIn);
}
