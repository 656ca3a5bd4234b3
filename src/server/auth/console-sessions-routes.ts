// /api/sessions: the sessions a person (an admin: everyone) has open, and ending them, one, or
// all of one's own ("Sign out everywhere"). Sessions are named by their handle, never their id.
// An ended session's live streams end at once on this replica, and on others at their next check.
import { Hono, type Context } from 'hono';
import type { RecordChange } from '../http/admin-change';
import * as z from 'zod';
import {
  ConsoleSessionListSchema,
  SESSION_HANDLE_PATTERN,
  SignedOutEverywhereSchema,
  type ConsoleSession,
  type ConsoleSessionList,
  type SignedOutEverywhere,
} from '../../shared/console-sessions';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { AppEnv, RequestUser } from '../http/app-env';
import { forbiddenProblem } from '../http/auth-problems';
import { ADMIN_ONLY, ANY_ROLE, type ApiModule } from '../http/api-operation';
import { HttpProblem } from '../http/problem';
import type { ConsoleAuth } from './console-auth';
import { endSessions } from './end-sessions';
import { userOfSession } from './require-session';
import { clearSessionCookie } from './session-cookie';
import { sessionIdHash, type SessionRecord } from './session-store';
import { NO_STORE } from '../http/no-store';

/** Whether `user` may see and end everyone's sessions. */
const seesEveryone = (user: RequestUser) =>
  user.role !== undefined && ADMIN_ONLY.includes(user.role);

function noSuchSession(): HttpProblem {
  return new HttpProblem({
    type: PROBLEM_TYPES.notFound,
    title: 'No such session',
    status: 404,
    detail: 'The session has ended already, or never existed. Reload the list of sessions.',
  });
}

/** The signed-in user and the handle of the session asking (requireSession set both). */
function caller(c: Context<AppEnv>): { user: RequestUser; handle: string | undefined } {
  const user = c.get('user');
  if (!user) throw new Error('console sessions routes mounted without requireSession');
  const sessionId = c.get('sessionId');
  return { user, handle: sessionId ? sessionIdHash(sessionId) : undefined };
}

/**
 * The live sessions `user` may see, each with whom it acts for now. A session whose users-file
 * entry changed is left out here and ended by its next request (require-session.ts).
 */
async function visibleSessions(
  auth: ConsoleAuth,
  user: RequestUser,
): Promise<Array<{ record: SessionRecord; actsFor: RequestUser }>> {
  const records = await auth.sessions.list(seesEveryone(user) ? {} : { username: user.username });
  return records.flatMap((record) => {
    const actsFor = userOfSession(auth, record);
    return actsFor ? [{ record, actsFor }] : [];
  });
}

/** A session as the page shows it. */
function shown(record: SessionRecord, actsFor: RequestUser, current: string | undefined) {
  const session: ConsoleSession = {
    id: record.handle,
    username: record.username,
    ...(actsFor.role ? { role: actsFor.role } : {}),
    method: record.method,
    startedAt: new Date(record.createdAt).toISOString(),
    lastActiveAt: new Date(record.lastSeenAt).toISOString(),
    current: record.handle === current,
  };
  if (record.name !== undefined) session.name = record.name;
  if (record.email !== undefined) session.email = record.email;
  if (record.userAgent !== undefined) session.browser = record.userAgent;
  return session;
}

/** The routes, mounted at /api/sessions behind requireSession (every signed-in role). */
export function consoleSessionsRoutes(auth: ConsoleAuth, recordChange: RecordChange) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const { user, handle } = caller(c);
      const sessions = (await visibleSessions(auth, user)).map(({ record, actsFor }) =>
        shown(record, actsFor, handle),
      );
      return c.json<ConsoleSessionList>({ sessions, everyone: seesEveryone(user) }, 200, NO_STORE);
    })
    .delete('/', async (c) => {
      const { user } = caller(c);
      const ended = await auth.sessions.endWhere({ username: user.username });
      endSessions(auth, ended);
      clearSessionCookie(c, auth.cookie);
      auth.logger.info(
        { reqId: c.get('requestId'), user: user.username, ended: ended.length },
        'signed out everywhere',
      );
      return c.json<SignedOutEverywhere>({ ended: ended.length }, 200, NO_STORE);
    })
    .delete('/:id', async (c) => {
      const { user, handle } = caller(c);
      const id = c.req.param('id');
      if (!SESSION_HANDLE_PATTERN.test(id)) throw noSuchSession();
      const [session] = await auth.sessions
        .list({})
        .then((all) => all.filter((s) => s.handle === id));
      if (!session) throw noSuchSession();
      if (session.username !== user.username && !seesEveryone(user)) {
        throw forbiddenProblem(user.role);
      }
      // Someone else's session ended by an admin is an administrative change; one's own is not.
      if (session.username !== user.username) {
        await recordChange(c, {
          action: 'session.ended',
          target: session.username,
          before: { session: session.handle, method: session.method },
          after: null,
        });
      }
      const ended = await auth.sessions.endWhere({ handle: id });
      if (ended.length === 0) throw noSuchSession();
      endSessions(auth, ended);
      if (id === handle) clearSessionCookie(c, auth.cookie);
      auth.logger.info(
        { reqId: c.get('requestId'), user: user.username, whose: session.username },
        'session ended from the sessions page',
      );
      return c.body(null, 204, NO_STORE);
    });
}

/** These routes in the console's API description (api-description/). */
export const consoleSessionsApi: ApiModule = {
  base: '/api/sessions',
  tag: {
    name: 'Sessions',
    description: 'Who is signed in where, and ending sessions: one’s own, or an admin anyone’s.',
  },
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'listSessions',
      summary: 'List signed-in sessions',
      description:
        'One’s own sessions; an admin sees everyone’s. Newest first, each with who, how they signed in, started, last active, the browser, and which is the caller’s own.',
      access: { session: ANY_ROLE },
      responses: { 200: { description: 'The sessions.', schema: ConsoleSessionListSchema } },
    },
    {
      method: 'delete',
      path: '/',
      operationId: 'signOutEverywhere',
      summary: 'Sign out everywhere',
      description:
        'Ends every session of the caller, this one included, on every replica with their live streams, and clears the cookie.',
      access: { session: ANY_ROLE },
      responses: {
        200: { description: 'How many sessions ended.', schema: SignedOutEverywhereSchema },
      },
    },
    {
      method: 'delete',
      path: '/:id',
      operationId: 'endSession',
      summary: 'End a session',
      description:
        'Ends the session with this handle (the `id` of the list) on every replica with its live streams. One’s own, or an admin anyone’s; ending one’s current session also clears the cookie.',
      access: { session: ANY_ROLE },
      params: z.object({ id: z.string() }),
      responses: { 204: { description: 'Ended.' } },
      problems: {
        403: 'Another person’s session, and the caller is no admin (`/problems/forbidden`).',
        404: 'No live session with this handle (`/problems/not-found`).',
      },
    },
  ],
};
