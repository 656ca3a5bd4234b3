// `DELETE /api/sign-in-locks/:username` (admins): lifts a user's sign-in lockout at once. Ten
// wrong passwords lock a name for 15 minutes even for the right one (a documented trade-off of
// the throttle, docs/security-model.md); the locked-out user is told to ask an admin, and this is
// what the admin does. The address counts stay: they guard against guessing many names.
import { Hono } from 'hono';
import type { RecordChange } from '../http/admin-change';
import * as z from 'zod';
import { PROBLEM_TYPES } from '../../shared/problem';
import { SignInUnlockSchema, USERNAME_PATTERN, type SignInUnlock } from '../../shared/session';
import type { AppEnv } from '../http/app-env';
import { ADMIN_ONLY, type ApiModule } from '../http/api-operation';
import type { ConsoleAuth } from './console-auth';
import { normalizeUsername } from './users-file';
import { HttpProblem } from '../http/problem';
import { NO_STORE } from '../http/no-store';

/** The routes, mounted at /api/sign-in-locks (admins: their API description says so). */
export function signInLockRoutes(
  auth: Pick<ConsoleAuth, 'throttle' | 'users' | 'logger'>,
  recordChange: RecordChange,
) {
  return new Hono<AppEnv>().delete('/:username', async (c) => {
    const username = normalizeUsername(decodeURIComponent(c.req.param('username')));
    if (!USERNAME_PATTERN.test(username) || !auth.users.find(username)) {
      throw new HttpProblem({
        type: PROBLEM_TYPES.notFound,
        title: 'No such console user',
        status: 404,
        // In the page's words: the admin reading it may not run the console's commands.
        detail: 'No console user has this name. Check its spelling, as the user signs in with it.',
      });
    }
    // Asked before the change is recorded, so the record says what the state really was. An
    // unlock of a name that was not locked still clears its failure count, so it is recorded too.
    const wasLocked = await auth.throttle.isPaused(username);
    await recordChange(c, {
      action: 'sign-in-lock.released',
      target: username,
      before: { locked: wasLocked },
      after: { locked: false },
    });
    await auth.throttle.unlock(username);
    auth.logger.info(
      { user: username, by: c.get('user')?.username, wasLocked },
      'sign-in unlocked',
    );
    return c.json<SignInUnlock>({ username, unlocked: true, wasLocked }, 200, NO_STORE);
  });
}

/** The API description of these routes (api-description/). */
export const signInLocksApi: ApiModule = {
  base: '/api/sign-in-locks',
  tag: { name: 'Sign-in locks', description: 'Lifting a console user’s sign-in lockout.' },
  operations: [
    {
      method: 'delete',
      path: '/:username',
      operationId: 'unlockSignIn',
      summary: 'Lift a user’s sign-in lockout',
      description:
        'Ten wrong passwords lock a name for 15 minutes; this lifts the lock at once. The address counts stay.',
      access: { session: ADMIN_ONLY },
      params: z.object({ username: z.string() }),
      responses: { 200: { description: 'Unlocked.', schema: SignInUnlockSchema } },
      problems: { 404: 'No console user of this name (`/problems/not-found`).' },
    },
  ],
};
