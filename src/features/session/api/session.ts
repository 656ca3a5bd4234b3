// Fetchers, query options and hooks for /api/session; the session's query key is built here only.
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { SessionSchema, type Session, type SignInRequest } from '../../../shared/session';
import { recordSessionEnd } from '../session-end';

/** Query keys of this feature. */
export const sessionQueryKeys = {
  current: ['session'] as const,
};

/** The signed-in user, or `null` when signed out (401 is an answer here, not an error). */
export async function getSession({
  signal,
  background,
}: { signal?: AbortSignal; background?: boolean } = {}): Promise<Session | null> {
  try {
    return await apiRequest('/api/session', SessionSchema, {
      signal,
      ...(background === undefined ? {} : { background }),
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** Query options for the current session. */
export function sessionQueryOptions() {
  return queryOptions({
    queryKey: sessionQueryKeys.current,
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

/**
 * Forgets everything the signed-in user loaded (personal data included), then records `session`
 * (`null`: signed out). The session query itself is updated rather than removed, so whatever
 * shows it re-renders at once.
 */
export function resetForSession(queryClient: QueryClient, session: Session | null): void {
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== sessionQueryKeys.current[0],
  });
  queryClient.getMutationCache().clear();
  queryClient.setQueryData(sessionQueryKeys.current, session);
}

/** Signs in; on success the cache starts empty for the new user. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: SignInRequest) =>
      apiRequest('/api/session', SessionSchema, { method: 'POST', body: credentials }),
    onSuccess: (session) => resetForSession(queryClient, session),
  });
}

// Other tabs of the console hear about a sign-out at once instead of at their next request.
const SIGN_OUT_CHANNEL = 'privacy-console-session';

/**
 * Signs out: ends the session on the server, calls `leave` (to navigate away from the page), then
 * drops all cached data and tells the console's other tabs. Cached data goes even when the server
 * could not be reached, so nothing personal stays in this tab.
 */
export async function signOut(queryClient: QueryClient, leave?: () => void): Promise<void> {
  recordSessionEnd('signed-out');
  try {
    await apiRequest('/api/session', z.undefined(), { method: 'DELETE' });
  } catch {
    // Signed out locally regardless; the server session expires on its own.
  }
  leave?.();
  resetForSession(queryClient, null);
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(SIGN_OUT_CHANNEL);
    channel.postMessage('signed-out');
    channel.close();
  }
}

/** Calls `listener` when another tab of the console signs out; returns the unsubscribe function. */
export function onOtherTabSignedOut(listener: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(SIGN_OUT_CHANNEL);
  channel.onmessage = () => listener();
  return () => channel.close();
}
