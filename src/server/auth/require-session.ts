// Middleware that lets a request through only with a live session of a current user, or a live
// token for scripts (bearer-token.ts), and puts that user on the context. Everything under /api
// except signing in goes through it.
import { areaPathOf } from '../../shared/connections';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, RequestUser } from '../http/app-env';
import { invalidTokenProblem, signedOutProblem } from '../http/auth-problems';
import { bearerCredential, tokenUser } from './bearer-token';
import { connectionRoles } from './connection-roles';
import type { ConsoleAuth } from './console-auth';
import { endSession } from './end-sessions';
import { clearSessionCookie, readSessionCookie } from './session-cookie';
import type { SessionRecord, TouchOptions } from './session-store';

/**
 * Whom `session` acts for now, or `undefined` when it must end. A password session acts for
 * its users-file entry only while the entry is the one it signed in with (its version: a new
 * password, a new role in the console or in a connection, or the user removed and added again all
 * change it), so no request needs to come between such a change and the end of the old sessions.
 * A provider session acts for the person and roles its sign-in recorded; one stored before roles
 * per connection existed has no grants, so its role applies in every connection.
 */
export function userOfSession(
  auth: Pick<ConsoleAuth, 'users' | 'connections'>,
  session: SessionRecord,
): RequestUser | undefined {
  if (session.method === 'provider') {
    const { role, connectionRoles: grants, name, email } = session;
    const roles = connectionRoles(auth.connections, role, grants);
    if (!role && Object.keys(roles).length === 0) return undefined;
    const authTime = session.provider?.authTime;
    return {
      username: session.username,
      ...(role ? { role } : {}),
      roles,
      method: 'provider',
      ...(name !== undefined ? { name } : {}),
      ...(email !== undefined ? { email } : {}),
      ...(authTime !== undefined ? { authTime } : {}),
    };
  }
  const entry = auth.users.find(session.username);
  if (!entry || entry.version !== session.userVersion) return undefined;
  const { username, role, roles } = entry;
  return { username, ...(role ? { role } : {}), roles, method: 'password' };
}

/**
 * The user the live session with `id` acts for, or `undefined`; a session whose user changed or
 * was removed is ended on the way (here and, through the store, on every replica).
 */
export async function liveSessionUser(
  auth: ConsoleAuth,
  id: string,
  options: TouchOptions,
): Promise<RequestUser | undefined> {
  const session = await auth.sessions.touch(id, options);
  if (!session) return undefined;
  const user = userOfSession(auth, session);
  if (!user) await endSession(auth, id);
  return user;
}

/** The user of the request's session, or `undefined` (see liveSessionUser). */
export async function sessionUser(
  c: Context<AppEnv>,
  auth: ConsoleAuth,
): Promise<{ user: RequestUser | undefined; sessionId: string | undefined; presented: boolean }> {
  // A bearer request is the token's, never the cookie's (bearer-token.ts).
  const bearer = bearerCredential(c);
  if (bearer !== undefined) {
    const user = await tokenUser(auth, bearer);
    return { user, sessionId: undefined, presented: false };
  }
  const { id, presented } = await readSessionCookie(c, auth.cookie);
  if (!id) return { user: undefined, sessionId: undefined, presented };
  const user = await liveSessionUser(auth, id, { extend: !isBackgroundRequest(c) });
  return { user, sessionId: user ? id : undefined, presented };
}

/** The header the SPA puts on requests it makes by itself (polling), not for a person's action. */
const BACKGROUND_HEADER = 'x-console-background';

/** The live stream (of any connection): an open EventSource is the page listening, not a person. */
const BACKGROUND_PATHS = new Set(['/api/rate-limits/stream']);

/**
 * Whether the request was made by the page itself rather than by a person: such requests must
 * not extend the session, or an unattended tab would keep it alive until its maximum age. The
 * header can only shorten a session, so a client that lies about it gains nothing.
 */
function isBackgroundRequest(c: Context<AppEnv>): boolean {
  return c.req.header(BACKGROUND_HEADER) === '1' || BACKGROUND_PATHS.has(areaPathOf(c.req.path));
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
