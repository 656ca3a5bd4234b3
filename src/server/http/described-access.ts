// Who may call what, read from the API description: each route module's operations declare their
// roles beside the handler (api-operation.ts), and this middleware enforces exactly those, so a
// route's access is written once and the published description cannot differ from what is served.
import type { Handler, MiddlewareHandler } from 'hono';
import { roleAllows, type Role } from '../../shared/session';
import type { AppEnv, RequestUser } from './app-env';
import { HttpProblem } from './problem';
import { describedBase, type ApiAccess, type ApiModule } from './api-operation';
import { connectionOfPath, DEFAULT_CONNECTION } from '../../shared/connections';
import { PROBLEM_TYPES } from '../../shared/problem';
import { forbiddenProblem, INSUFFICIENT_SCOPE_CHALLENGE, signedOutProblem } from './auth-problems';

/** One described operation as the matcher sees it: its method, its full path, its access. */
interface DescribedRoute {
  readonly base: string;
  readonly method: string;
  readonly pattern: RegExp;
  readonly access: ApiAccess;
  /** One connection's operation, reached under its prefix or (for `default`) the old path. */
  readonly scoped: boolean;
}

/** What the description says about one request. */
export interface RequestAccess {
  /** The operations the method and path match (HEAD is described by GET). */
  readonly matches: readonly ApiAccess[];
  /**
   * Every operation of the route modules the path is under (the base itself, anything below it,
   * and siblings such as `/api/audit-trail.csv`: wider than needed, never narrower).
   */
  readonly under: readonly ApiAccess[];
  /** Whether the matched operations are one connection's (the role is the one held there). */
  readonly scoped: boolean;
}

/** `/api/alerts` + `/destinations/:id` as a pattern of whole segments (a parameter is one). */
function patternOf(base: string, path: string): RegExp {
  const full = path === '/' ? base : `${base}${path}`;
  const source = full
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** What `modules` say about a request of `method` to `path`. */
export function describedAccess(
  modules: readonly ApiModule[],
): (method: string, path: string) => RequestAccess {
  const routes: DescribedRoute[] = modules.flatMap((module) =>
    // A connection's operation is matched under every connection's prefix and at the old path.
    (module.scope === 'connection' ? [describedBase(module), module.base] : [module.base]).flatMap(
      (base) =>
        module.operations.map((operation) => ({
          base,
          method: operation.method.toUpperCase(),
          pattern: patternOf(base, operation.path),
          access: operation.access,
          scoped: module.scope === 'connection',
        })),
    ),
  );
  return (method, path) => {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const matched = routes.filter((route) => route.method === wanted && route.pattern.test(path));
    const named = connectionOfPath(path);
    return {
      matches: matched.map((route) => route.access),
      under: routes
        .filter((route) =>
          path.startsWith(route.base.replace(':connection', named ?? ':connection')),
        )
        .map((route) => route.access),
      scoped: matched.some((route) => route.scoped),
    };
  };
}

/**
 * Whether `access` lets `role` (the console-wide one) in: an operation without a session, or one
 * for anyone signed in, lets everyone past this check; a session operation needs a console-wide
 * role among its roles, so a person with roles in named connections only is refused.
 */
function allows(role: Role | undefined, access: ApiAccess): boolean {
  return !('session' in access) || roleAllows(role, access.session);
}

/** 404 for a connection no configuration names: never another connection's data instead. */
function unknownConnection(): HttpProblem {
  return new HttpProblem({
    type: PROBLEM_TYPES.notFound,
    title: 'No such connection',
    status: 404,
    detail: 'This console serves no platform connection of that name. Pick one from the switcher.',
  });
}

/** The 403 for `user`; a token's also says so in its challenge (RFC 6750 §3.1). */
function refused(user: RequestUser): HttpProblem {
  const problem = forbiddenProblem(user.role);
  return user.method === 'token'
    ? new HttpProblem(problem.problem, { ...problem.headers, ...INSUFFICIENT_SCOPE_CHALLENGE })
    : problem;
}

/**
 * Serves a signed-in /api request only when it is a described operation the user's role may
 * call, and answers 403 problem+json to another role. Two descriptions that overlap (a static
 * path and a parameter) must both allow it, so neither widens the other. A request no operation
 * describes is not served at all (`notDescribed`: the API's 404 or 405), so a route added without
 * its description is closed by construction; below a prefix where the role may call nothing (the
 * personal-data routes for support) it is a 403 like its neighbours, so that role does not learn
 * which paths exist there. Must run after requireSession; without a user it answers 401.
 */
export function requireDescribedAccess(
  modules: readonly ApiModule[],
  notDescribed: Handler<AppEnv>,
  connections: readonly string[] = [DEFAULT_CONNECTION],
): MiddlewareHandler<AppEnv> {
  const accessOf = describedAccess(modules);
  const served = new Set(connections);
  // The old paths of a connection's operations are the first connection's (app.ts mounts them).
  const first = connections[0] ?? DEFAULT_CONNECTION;
  return async (c, next) => {
    const user = c.get('user');
    if (!user) throw signedOutProblem();
    const named = connectionOfPath(c.req.path);
    if (named !== undefined && !served.has(named)) throw unknownConnection();
    const connection = named ?? first;
    const { matches, under, scoped } = accessOf(c.req.method, c.req.path);
    // A connection's operation is decided by the person's role there (auth/connection-roles.ts).
    const role = named !== undefined || scoped ? user.roles[connection] : user.role;
    if (matches.length === 0) {
      if (under.length > 0 && !under.some((access) => allows(role, access))) {
        throw refused(user);
      }
      return notDescribed(c, next);
    }
    if (!matches.every((access) => allows(role, access))) throw refused(user);
    // What the request changes is that connection's: its administrative changes say so.
    if (named !== undefined || scoped) c.set('connection', connection);
    await next();
  };
}
