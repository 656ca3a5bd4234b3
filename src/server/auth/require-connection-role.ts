// Middleware for connection-scoped routes (`/api/connections/:connection/…`): lets a request
// through only for a configured connection the signed-in person has a suitable role in, and puts
// the connection on the context. Each connection is a different platform account, so a person's
// role in one says nothing about another (docs/security-model.md).
import type { MiddlewareHandler } from 'hono';
import { PROBLEM_TYPES } from '../../shared/problem';
import { RoleSchema, SESSION_PROBLEM_TYPES, type Role } from '../../shared/session';
import type { AppEnv } from '../http/app-env';
import { signedOutProblem } from '../http/auth-problems';
import { HttpProblem } from '../http/problem';

/** 404: the URL names no configured connection. The name is not repeated: it is the caller's. */
function noSuchConnection(): HttpProblem {
  return new HttpProblem({
    type: PROBLEM_TYPES.notFound,
    title: 'No such connection',
    status: 404,
    detail: 'This console has no platform connection of that name. Choose one from the switcher.',
  });
}

/** 403: a configured connection the person has no role in, or not one of the route's roles. */
function refusedInConnection(role: Role | undefined): HttpProblem {
  return new HttpProblem({
    type: SESSION_PROBLEM_TYPES.forbidden,
    title: 'Not available in this connection',
    status: 403,
    detail: role
      ? `The ${role} role cannot use this part of the console in this connection. Ask a console administrator if you need it.`
      : 'You have no role in this connection. Ask a console administrator if you need one.',
  });
}

/**
 * Serves the request only when the route parameter `connection` names one of `connections` (the
 * configured names; 404 otherwise, before anything about the person is said) and the user's role
 * in it is one of `roles` (every role when left out; 403 otherwise), and sets `connection` on the
 * context. An unknown name and a connection without a role never fall back to another
 * connection's data. Must run after requireSession.
 */
export function requireConnectionRole(
  connections: readonly string[],
  roles: readonly Role[] = RoleSchema.options,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const user = c.get('user');
    if (!user) throw signedOutProblem();
    const name = c.req.param('connection');
    if (name === undefined || !connections.includes(name)) throw noSuchConnection();
    const role = Object.hasOwn(user.roles, name) ? user.roles[name] : undefined;
    if (!role || !roles.includes(role)) throw refusedInConnection(role);
    c.set('connection', name);
    await next();
  };
}
