// The signed-in user as server state, under one query key for the whole SPA: the app shell, the
// role guards and every page that shows admin-only controls read the same cache entry, so signing
// in or out updates all of them at once.
import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { SessionSchema, type Session } from '../shared/session';
import { ApiError, apiRequest } from './api-client';

/** Where the session is read. */
export const SESSION_PATH = '/api/session';

/** The one query key of `GET /api/session`. */
export const sessionQueryKey = ['session'] as const;

/**
 * The signed-in user, or `null` when signed out: the BFF answers 204 then. A 401 is read the same
 * way, as a console of the release before answers it while replicas are upgraded one by one.
 */
export async function getSession({
  signal,
  background,
}: { signal?: AbortSignal; background?: boolean } = {}): Promise<Session | null> {
  try {
    const session = await apiRequest(SESSION_PATH, z.optional(SessionSchema), {
      signal,
      ...(background === undefined ? {} : { background }),
    });
    return session ?? null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** Query options for the current session. */
export function sessionQueryOptions() {
  return queryOptions({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => getSession({ signal }),
    // The session changes by signing in or out (both update it here) or by a 401 on any call.
    staleTime: Infinity,
    retry: false,
  });
}

/** The current session as server state: `data` is the user, `null` when signed out. */
export function useSession() {
  return useQuery(sessionQueryOptions());
}

/** The signed-in user's role (`undefined` while loading or signed out): admins get the controls. */
export function useViewerRole() {
  return useQuery({ ...sessionQueryOptions(), select: (session) => session?.role });
}
