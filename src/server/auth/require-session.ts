// Middleware that lets a request through only with a live session of a current user, and puts
// that user on the context. Everything under /api except signing in goes through it.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, RequestUser } from '../app-env';
import { signedOutProblem } from './auth-problems';
import type { ConsoleAuth } from './console-auth';
import { clearSessionCookie, readSessionCookie } from './session-cookie';

/**
 * The user of the request's session, or `undefined`. A session whose user was removed from the
 * users file ends here; a changed role applies from the next request.
 */
export async function sessionUser(
  c: Context<AppEnv>,
  auth: ConsoleAuth,
): Promise<{ user: RequestUser | undefined; sessionId: string | undefined; presented: boolean }> {
  const { id, presented } = await readSessionCookie(c, auth.cookie);
  if (!id) return { user: undefined, sessionId: undefined, presented };
  const session = await auth.sessions.touch(id);
  if (!session) return { user: undefined, sessionId: undefined, presented };
  const user = auth.users.find(session.username);
  if (!user) {
    await auth.sessions.delete(id);
    return { user: undefined, sessionId: undefined, presented };
  }
  return { user, sessionId: id, presented };
}

/** 401 problem+json without a valid session (and a stale cookie is cleared); otherwise next. */
export function requireSession(auth: ConsoleAuth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { user, presented } = await sessionUser(c, auth);
    if (!user) {
      if (presented) clearSessionCookie(c, auth.cookie);
      throw signedOutProblem();
    }
    c.set('user', user);
    await next();
  };
}
