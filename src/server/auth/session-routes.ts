// /api/session: who is signed in (GET), signing in (POST) and signing out (DELETE), docs/product.md §4.
import { Hono } from 'hono';
import type { RecordChange } from '../http/admin-change';
import { rolesRecorded, signInRecorder } from './sign-in-record';
import {
  SESSION_PROBLEM_TYPES,
  SessionSchema,
  SignInRequestSchema,
  USERNAME_PATTERN,
  type Session,
} from '../../shared/session';
import type { ApiModule } from '../http/api-operation';
import type { AppEnv, RequestUser } from '../http/app-env';
import { signInFailedProblem, signInThrottledProblem } from '../http/auth-problems';
import { browserDescription } from './browser-description';
import type { ConsoleAuth } from './console-auth';
import { endSession } from './end-sessions';
import { sessionUser } from './require-session';
import { clearSessionCookie, writeSessionCookie } from './session-cookie';
import { normalizeUsername } from './users-file';
import { HttpProblem, invalidParameter } from '../http/problem';
import { SECURITY_PROBLEM_TYPES } from '../security/security-problems';
import { clientAddress } from '../security/web-settings';
import { NO_STORE } from '../http/no-store';

function invalidBody(parameter: string, detail: string): HttpProblem {
  return invalidParameter(parameter, detail, {
    title: 'Invalid sign-in request',
    detailAsIs: true,
  });
}

/** Reads `{ username, password }` from a JSON body, refusing anything else before any hashing. */
async function readSignIn(request: Request): Promise<{ username: string; password: string }> {
  const contentType = request.headers.get('content-type') ?? '';
  // A cross-site HTML form cannot send application/json without a CORS preflight, which we never
  // grant: together with the Origin check this stops login CSRF on the one route without X-CSRF.
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new HttpProblem({
      type: SECURITY_PROBLEM_TYPES.unsupportedMediaType,
      title: 'Sign-in needs a JSON body',
      status: 415,
      detail: 'Send Content-Type: application/json with { "username", "password" }.',
    });
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw invalidBody('body', 'The body is not valid JSON.');
  }
  const parsed = SignInRequestSchema.safeParse(body);
  if (!parsed.success) {
    const parameter = String(parsed.error.issues[0]?.path[0] ?? 'body');
    throw invalidBody(parameter, `${parameter} is missing, empty or too long.`);
  }
  const username = normalizeUsername(parsed.data.username);
  if (!USERNAME_PATTERN.test(username)) {
    throw invalidBody(
      'username',
      'A username has letters, digits, ".", "_" and "-" only, starting with a letter or digit.',
    );
  }
  return { username, password: parsed.data.password };
}

/** What GET and POST /api/session answer for `user`. */
function sessionAnswer(user: RequestUser, auth: ConsoleAuth): Session {
  const { username, role, roles, name, email, method } = user;
  return {
    username,
    ...(role ? { role } : {}),
    roles,
    idleSeconds: auth.idleSeconds,
    ...(name !== undefined ? { name } : {}),
    ...(email !== undefined ? { email } : {}),
    ...(method === 'password' || method === 'provider' ? { method } : {}),
  };
}

/** The session routes. Mount at /api/session before requireSession. */
export function sessionRoutes(auth: ConsoleAuth, recordChange: RecordChange) {
  const recordSignIn = signInRecorder(recordChange);
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const { user, presented } = await sessionUser(c, auth);
      if (!user) {
        if (presented) clearSessionCookie(c, auth.cookie);
        // Signed out is an answer to this question, not a failure: a 401 here made a browser log
        // an error on every first visit, before the SPA could know there was nothing to ask for.
        return c.body(null, 204, NO_STORE);
      }
      return c.json<Session>(sessionAnswer(user, auth), 200, NO_STORE);
    })
    .post('/', async (c) => {
      if (!auth.localSignIn) {
        throw new HttpProblem({
          type: SESSION_PROBLEM_TYPES.forbidden,
          title: 'Password sign-in is off',
          status: 403,
          detail:
            'This console signs people in through the identity provider only (LOCAL_SIGN_IN=off).',
        });
      }
      const { username, password } = await readSignIn(c.req.raw);
      const attempt = { username, address: clientAddress(c, auth.web) };
      // Looking the name up first picks up a changed users file, and with it an unlock from the
      // command line, before the throttle is asked.
      auth.users.find(username);
      // Counted before the password is hashed, so parallel guesses cannot outrun the throttle.
      const reservation = await auth.throttle.reserve(attempt);
      const { reserved, waitSeconds } = reservation;
      if (!reserved) {
        auth.logger.warn({ reqId: c.get('requestId'), waitSeconds }, 'sign-in refused: throttled');
        const policies = auth.throttle.policies();
        throw signInThrottledProblem(
          waitSeconds,
          [policies.user, policies.address],
          policies[reservation.refusedBy],
        );
      }
      const user = await auth.users.authenticate(username, password);
      if (!user) {
        await auth.throttle.recordFailure(reserved);
        // The name is logged only when it is a real account: a mistyped name is often a password.
        const known = auth.users.find(username) !== undefined;
        // Refusals the throttle lets through are recorded (it bounds them); throttled ones are
        // only logged, so a flood of guesses cannot fill the trail.
        await recordSignIn(c, {
          action: 'sign-in.refused',
          target: known ? username : null,
          after: { method: 'password', reason: known ? 'wrong password' : 'unknown name' },
        });
        auth.logger.warn(
          { reqId: c.get('requestId'), ...(known ? { user: username } : { unknownUser: true }) },
          'sign-in failed',
        );
        throw signInFailedProblem();
      }
      await recordSignIn(c, {
        action: 'sign-in.succeeded',
        actorName: user.username,
        target: user.username,
        after: { method: 'password', ...rolesRecorded(user) },
      });
      await auth.throttle.recordSuccess(reserved);
      // A fresh id on every sign-in (no session fixation); any session the browser had ends.
      const previous = await sessionUser(c, auth);
      if (previous.sessionId) await endSession(auth, previous.sessionId);
      const userAgent = browserDescription(c.req.header('user-agent'));
      const session = await auth.sessions.create(user, {
        method: 'password',
        userVersion: user.version,
        ...(userAgent ? { userAgent } : {}),
      });
      await writeSessionCookie(c, auth.cookie, session.id);
      auth.logger.info(
        { reqId: c.get('requestId'), user: user.username, ...rolesRecorded(user) },
        'signed in',
      );
      return c.json<Session>(sessionAnswer({ ...user, method: 'password' }, auth), 200, NO_STORE);
    })
    .delete('/', async (c) => {
      const { user, sessionId } = await sessionUser(c, auth);
      if (sessionId) await endSession(auth, sessionId);
      clearSessionCookie(c, auth.cookie);
      if (user) auth.logger.info({ reqId: c.get('requestId'), user: user.username }, 'signed out');
      return c.body(null, 204, NO_STORE);
    });
}

/** These routes in the console's API description (api-description/). */
export const sessionApi: ApiModule = {
  base: '/api/session',
  tag: { name: 'Session', description: 'Signing in and out of the console.' },
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'getSession',
      summary: 'Who is signed in',
      description:
        'Asked by the console first, before anything that needs a session; nobody signed in is an answer (204), not a 401. A cookie of a session that ended is cleared.',
      access: { public: true },
      responses: {
        200: { description: 'The signed-in user and role.', schema: SessionSchema },
        204: { description: 'Nobody is signed in on this browser.' },
      },
    },
    {
      method: 'post',
      path: '/',
      operationId: 'signIn',
      summary: 'Sign in',
      description:
        'Sets the session cookie. JSON only (415 otherwise); failed attempts are throttled per user and address.',
      access: { public: true },
      csrfExempt: true,
      body: SignInRequestSchema,
      responses: {
        200: {
          description: 'Signed in; the answer sets the session cookie.',
          schema: SessionSchema,
          headers: { 'Set-Cookie': 'The session cookie (HttpOnly, SameSite=Lax).' },
        },
      },
      problems: {
        400: 'The body is not `{ "username", "password" }` (`/problems/invalid-parameter`).',
        401: 'Wrong username or password (`/problems/sign-in-failed`), with `WWW-Authenticate`.',
        403: 'A cross-origin request (`/problems/cross-origin`).',
        415: 'Not `application/json` (`/problems/unsupported-media-type`).',
        429: 'Too many failed sign-ins (`/problems/sign-in-throttled`), with `Retry-After`.',
      },
    },
    {
      method: 'delete',
      path: '/',
      operationId: 'signOut',
      summary: 'Sign out',
      description:
        'Ends the session the cookie names, on every replica, with its live streams, and clears the cookie. Needs no live session.',
      access: { public: true },
      responses: { 204: { description: 'Signed out (also when no session was open).' } },
    },
  ],
};
