// `Authorization: Bearer pac_…` on /api: a script acting for the token's owner with the token's
// role. A bearer request carries no ambient credential (a browser never adds this header by
// itself, and another site's script could only send it after a CORS preflight the console never
// grants), so the Origin and X-CSRF checks, which exist against ambient cookies, are skipped for
// it; and it never falls back to a cookie, so a bad token is a 401 even beside a good session.
import type { Context, MiddlewareHandler } from 'hono';
import { tokenRolesFor } from '../../shared/api-tokens';
import type { AppEnv, RequestUser } from '../http/app-env';
import type { ApiTokens } from './api-tokens';
import { connectionRoles } from './connection-roles';
import type { UserDirectory } from './user-directory';

/**
 * The credential of `Authorization: Bearer <credential>`, `''` when the header names the Bearer
 * scheme with nothing usable after it, undefined when there is no bearer header at all.
 */
export function bearerCredential(c: Context): string | undefined {
  const header = c.req.header('authorization');
  if (header === undefined) return undefined;
  const match = /^bearer(?:\s+(\S*)\s*)?$/i.exec(header.trim());
  return match ? (match[1] ?? '') : undefined;
}

/** `middleware`, except for bearer requests, which carry no cookie for it to guard. */
export function unlessBearer(middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return (c, next) => (bearerCredential(c) === undefined ? middleware(c, next) : next());
}

/**
 * The principal a token acts for, or undefined when it is malformed, unknown, revoked or expired,
 * or when its owner can no longer give it: removed from the users file, or their console-wide
 * role lowered below the token's. The token's role applies console-wide and in each connection
 * whose role of the owner could give it (an owner's support grant in production keeps an admin
 * token out of production). Provider sign-ins are not in the users file; their tokens hold, in
 * every connection, until they expire or are revoked (docs/security-model.md).
 */
export async function tokenUser(
  auth: {
    tokens?: ApiTokens | undefined;
    users: Pick<UserDirectory, 'find'>;
    connections: readonly string[];
  },
  credential: string,
): Promise<RequestUser | undefined> {
  const record = await auth.tokens?.verify(credential);
  if (!record) return undefined;
  let roles = connectionRoles(auth.connections, record.role, undefined);
  if (record.ownerSource === 'users-file') {
    const owner = auth.users.find(record.owner);
    if (!owner || !tokenRolesFor(owner.role).includes(record.role)) return undefined;
    roles = Object.fromEntries(
      Object.entries(owner.roles)
        .filter(([, role]) => tokenRolesFor(role).includes(record.role))
        .map(([name]) => [name, record.role]),
    );
  }
  return {
    username: record.owner,
    role: record.role,
    roles,
    method: 'token',
    token: { id: record.id, name: record.name },
  };
}
