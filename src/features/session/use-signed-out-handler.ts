// Turns "the session is over" into one reaction for the whole app, so features never deal with
// it: a 401 from any API call, a sign-out in another tab, or a page restored from the browser's
// back-forward cache. Cached data is dropped and the app shell sends the user to sign in.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onSignedOut, sessionExtendedAt } from '../../lib/api-client';
import { sessionQueryKey } from '../../lib/session-query';
import { onOtherTabSignedOut, resetForSession } from './api/session';
import type { Session } from '../../shared/session';
import { recordSessionEnd, type SessionEndReason } from './session-end';

/**
 * How much earlier than this tab's reckoning the server may have started its idle timer: the
 * server counts from the request, this tab from the answer.
 */
const IDLE_SLACK_MS = 5_000;

/**
 * Why a 401 ended `session`: inactivity when the idle time has run out by this tab's reckoning
 * (a page that polls, such as the rate limits, meets the server's expiry before its own timer
 * fires), otherwise "ended". Undefined when nobody was signed in: a first visit, or a shared link
 * opened without a session, is no ending.
 */
export function reasonForUnauthorised(
  session: Session | null | undefined,
  now: number,
): SessionEndReason | undefined {
  if (!session) return undefined;
  const idleMs = (session.idleSeconds ?? 0) * 1_000;
  if (idleMs > 0 && now >= sessionExtendedAt() + idleMs - IDLE_SLACK_MS) return 'idle';
  return 'ended';
}

/** Subscribes once, in the app shell. */
export function useSignedOutHandler(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const ended = (reason: SessionEndReason) => () => {
      if (queryClient.getQueryData(sessionQueryKey) === null) return;
      recordSessionEnd(reason);
      resetForSession(queryClient, null);
    };
    const unauthorised = () => {
      const session = queryClient.getQueryData<Session | null>(sessionQueryKey);
      const reason = reasonForUnauthorised(session, Date.now());
      if (reason === undefined) return;
      recordSessionEnd(reason);
      resetForSession(queryClient, null);
    };
    // A page frozen in the back-forward cache may be shown again after signing out elsewhere:
    // check the session before trusting what it holds.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    };
    window.addEventListener('pageshow', onPageShow);
    const unsubscribeApi = onSignedOut(unauthorised);
    const unsubscribeTabs = onOtherTabSignedOut(ended('signed-out-elsewhere'));
    return () => {
      window.removeEventListener('pageshow', onPageShow);
      unsubscribeApi();
      unsubscribeTabs();
    };
  }, [queryClient]);
}
