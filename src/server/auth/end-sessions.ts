// Ending sessions in this process as well as in the store: whatever belongs to an ended session
// here (its live streams) ends at once. Other replicas notice at their next look at the store.
import type { ConsoleAuth } from './console-auth';
import { sessionIdHash } from './session-store';

/**
 * Tells this process's `auth.sessionEnds` listeners that the sessions with these handles ended
 * (the store has already ended them: `endWhere` answers the handles to pass here).
 */
export function endSessions(auth: Pick<ConsoleAuth, 'sessionEnds'>, handles: readonly string[]) {
  for (const handle of handles) {
    for (const ended of auth.sessionEnds) ended(handle);
  }
}

/** Ends the session with `sessionId` (the cookie's), in the store and in this process. */
export async function endSession(
  auth: Pick<ConsoleAuth, 'sessions' | 'sessionEnds'>,
  sessionId: string,
): Promise<void> {
  await auth.sessions.delete(sessionId);
  endSessions(auth, [sessionIdHash(sessionId)]);
}
