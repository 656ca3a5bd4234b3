// Middleware that lets a request through only with a live session of a current user, or a live
// token for scripts (bearer-token.ts), and puts that user on the context. Everything under /api
// except signing in goes through it.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, RequestUser } from '../app-env';
import { invalidTokenProblem, signedOutProblem } from '../http/auth-problems';
import { bearerCredential, tokenUser } from './bearer-token';
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
  // A bearer request is the token's, never the cookie's (bearer-token.ts).
  const bearer = bearerCredential(c);
  if (bearer !== undefined) {
    const user = await tokenUser(auth.tokens, auth.users, bearer);
    return { user, sessionId: undefined, presented: false };
  }
  const { id, presented } = await readSessionCookie(c, auth.cookie);
  if (!id) return { user: undefined, sessionId: undefined, presented };
  const session = await auth.sessions.touch(id, { extend: !isBackgroundRequest(c) });
  if (!session) return { user: undefined, sessionId: undefined, presented };
  const user = auth.users.find(session.username);
  if (!user) {
    await auth.sessions.delete(id);
    return { user: undefined, sessionId: undefined, presented };
  }
  return { user, sessionId: id, presented };
}

/** The header the SPA puts on requests it makes by itself (polling), not for a person's action. */
const BACKGROUND_HEADER = 'x-console-background';

/** The live stream: an open EventSource is the page listening, not a person acting. */
const BACKGROUND_PATHS = new Set(['/api/rate-limits/stream']);

/**
 * Whether the request was made by the page itself rather than by a person: such requests must
 * not extend the session, or an unattended tab would keep it alive until its maximum age. The
 * header can only shorten a session, so a client that lies about it gains nothing.
 */
function isBackgroundRequest(c: Context<AppEnv>): boolean {
  return c.req.header(BACKGROUND_HEADER) === '1' || BACKGROUND_PATHS.has(c.req.path);
}

/** 401 problem+json without a valid session (and a stale cookie is cleared); otherwise next. */
export function requireSession(auth: ConsoleAuth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { user, presented, sessionId } = await sessionUser(c, auth);
    if (!user) {
      if (bearerCredential(c) !== undefined) throw invalidTokenProblem();
      if (presented) clearSessionCookie(c, auth.cookie);
      throw signedOutProblem();
    }
    c.set('user', user);
    if (sessionId) c.set('sessionId', sessionId);
    await next();
  };
}
