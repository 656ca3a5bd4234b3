// Turns "the session is over" into one reaction for the whole app, so features never deal with
// it: a 401 from any API call, a sign-out in another tab, or a page restored from the browser's
// back-forward cache. Cached data is dropped and the app shell sends the user to sign in.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onSignedOut } from '../../lib/api-client';
import { sessionQueryKey } from '../../lib/session-query';
import { onOtherTabSignedOut, resetForSession } from './api/session';
import { recordSessionEnd, type SessionEndReason } from './session-end';

/** Subscribes once, in the app shell. */
export function useSignedOutHandler(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const ended = (reason: SessionEndReason) => () => {
      if (queryClient.getQueryData(sessionQueryKey) === null) return;
      recordSessionEnd(reason);
      resetForSession(queryClient, null);
    };
    // A page frozen in the back-forward cache may be shown again after signing out elsewhere:
    // check the session before trusting what it holds.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    };
    window.addEventListener('pageshow', onPageShow);
    const unsubscribeApi = onSignedOut(ended('ended'));
    const unsubscribeTabs = onOtherTabSignedOut(ended('signed-out-elsewhere'));
    return () => {
      window.removeEventListener('pageshow', onPageShow);
      unsubscribeApi();
      unsubscribeTabs();
    };
  }, [queryClient]);
}
