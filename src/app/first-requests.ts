// What the routes' loaders (router.tsx) ask for first at an address, for start-early.ts to send
// before the SPA's code has been evaluated; router.test.tsx holds the two to the same requests.
import { SESSION_PATH } from '../lib/session-query';
import { EVENT_TYPES_PATH } from '../features/event-types/api/get-event-types';

/** The GET requests the loaders start at `pathname`: none on the sign-in page. */
export function firstRequests(pathname: string): string[] {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/sign-in') return [];
  // `/` is sent on to /event-types.
  return path === '/' || path === '/event-types'
    ? [SESSION_PATH, EVENT_TYPES_PATH]
    : [SESSION_PATH];
}
