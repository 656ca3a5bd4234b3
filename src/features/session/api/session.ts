// Signing in and out: the mutations of /api/session and what they do to the cache. Reading the
// session (its one query key) lives in lib/session-query.ts, where every feature finds it.
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import * as z from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';
import { sessionQueryKey } from '../../../lib/session-query';
import { SessionSchema, type Session, type SignInRequest } from '../../../shared/session';
import { recordSessionEnd } from '../session-end';

/**
 * Forgets everything the signed-in user loaded (personal data included), then records `session`
 * (`null`: signed out). The session query itself is updated rather than removed, so whatever
 * shows it re-renders at once.
 */
export function resetForSession(queryClient: QueryClient, session: Session | null): void {
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== sessionQueryKey[0],
  });
  queryClient.getMutationCache().clear();
  queryClient.setQueryData(sessionQueryKey, session);
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
 * drops all cached data and tells the console's other tabs; a provider sign-in then continues at
 * the provider (/auth/sign-out). Cached data goes even when the server
 * could not be reached, so nothing personal stays in this tab.
 */
export async function signOut(queryClient: QueryClient, leave?: () => void): Promise<void> {
  recordSessionEnd('signed-out');
  const atProvider =
    queryClient.getQueryData<Session | null>(sessionQueryKey)?.method === 'provider';
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
  // A provider sign-in is ended at the provider too (RP-initiated logout), which then sends the
  // browser back to the sign-in page.
  if (atProvider) window.location.assign('/auth/sign-out');
}

/**
 * Signing this tab out and going to the sign-in page, as the header's button does: what a page
 * calls after ending this browser's own session (the sessions page).
 */
export function useSignOutHere(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // Leave the page in the same step as the data is dropped, so nothing renders without it.
  return () => signOut(queryClient, () => void navigate('/sign-in'));
}

/** Calls `listener` when another tab of the console signs out; returns the unsubscribe function. */
export function onOtherTabSignedOut(listener: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(SIGN_OUT_CHANNEL);
  channel.onmessage = () => listener();
  return () => channel.close();
}
