// Why the last session ended, kept for the sign-in page to say so: expired for inactivity, signed
// out here, signed out in another tab, or ended by the server (expired or signed out elsewhere).
// sessionStorage: per tab, gone with the tab, never sent anywhere.

/** Why a session ended. */
export type SessionEndReason = 'idle' | 'signed-out' | 'signed-out-elsewhere' | 'ended';

const KEY = 'privacy-console.session-end';

/** What the sign-in page says for each reason. */
export const SESSION_END_MESSAGES: Record<SessionEndReason, string> = {
  idle: 'You were signed out because nothing was done in the console for a while. Sign in again to carry on where you were.',
  'signed-out': 'You have signed out. Nothing you looked at is kept in this tab.',
  'signed-out-elsewhere':
    'You were signed out in another tab of the console. Sign in again to carry on.',
  ended:
    'Your session has ended: it expired, or it was signed out from somewhere else. Sign in again to carry on where you were.',
};

/** Records why the session ended; a reason already recorded is kept (the first one is the cause). */
export function recordSessionEnd(reason: SessionEndReason): void {
  try {
    if (!sessionStorage.getItem(KEY)) sessionStorage.setItem(KEY, reason);
  } catch {
    // Storage disabled: the sign-in page then shows no reason.
  }
}

/** The recorded reason, without forgetting it. */
export function peekSessionEnd(): SessionEndReason | undefined {
  try {
    const value = sessionStorage.getItem(KEY);
    return value && value in SESSION_END_MESSAGES ? (value as SessionEndReason) : undefined;
  } catch {
    return undefined;
  }
}

/** The recorded reason, forgotten once read (the sign-in page shows it once). */
export function takeSessionEnd(): SessionEndReason | undefined {
  const reason = peekSessionEnd();
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing to forget.
  }
  return reason;
}

/**
 * Whether the return address must be dropped: after a sign-out the next person at this browser
 * must not land on the previous user's page.
 */
export function endedBySigningOut(): boolean {
  const reason = peekSessionEnd();
  return reason === 'signed-out' || reason === 'signed-out-elsewhere';
}
