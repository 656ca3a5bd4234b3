// Middleware restricting a group of routes to some roles. Applied to path prefixes in app.ts, so
// routes added there later are protected by construction.
import type { MiddlewareHandler } from 'hono';
import { roleAllows, type Role } from '../../shared/session';
import type { AppEnv } from '../app-env';
import { forbiddenProblem, signedOutProblem } from './auth-problems';

/**
 * Lets the request through only when the signed-in user has one of `roles`; 403 problem+json
 * otherwise. Must run after requireSession; without a user it answers 401, never lets through.
 */
export function requireRole(...roles: Role[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const user = c.get('user');
    if (!user) throw signedOutProblem();
    if (!roleAllows(user.role, roles)) throw forbiddenProblem(user.role);
    await next();
  };
}
