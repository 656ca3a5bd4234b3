// The Sessions page's API: where one is signed in (an admin: everyone), ending one session, and
// signing out everywhere. Sessions are named by their handle, which signs nobody in.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, getJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import {
  ConsoleSessionListSchema,
  SignedOutEverywhereSchema,
} from '../../../shared/console-sessions';
import * as z from 'zod/mini';

const sessionsKey = ['sessions'] as const;

/** The sessions the signed-in user may see; refreshed now and then, as others sign in and out. */
export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: sessionsKey,
    queryFn: getJson('/api/sessions', ConsoleSessionListSchema),
    refetchInterval: 30_000,
  });
}

/** The sessions, as the page reads them. */
export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

/** Ends the session with this handle; the list is fetched again afterwards. */
export function useEndSession() {
  return useRefreshingMutation(
    (id: string) =>
      apiRequest(`/api/sessions/${encodeURIComponent(id)}`, z.undefined(), { method: 'DELETE' }),
    sessionsKey,
  );
}

/**
 * Ends every session of the signed-in user, this one included, then `signOutHere` signs this tab
 * (and the console's other tabs) out as the sign-out button does (the app passes it in).
 */
export function useSignOutEverywhere(signOutHere: () => Promise<void>) {
  return useRefreshingMutation(async () => {
    const answer = await apiRequest('/api/sessions', SignedOutEverywhereSchema, {
      method: 'DELETE',
    });
    await signOutHere();
    return answer;
  }, sessionsKey);
}
