// A person's role in each platform connection: their grant for the connection where they have
// one (users file `connections`, or an OIDC_ROLE_MAP entry naming it), else their console-wide
// role, else none (no access to that connection).
import type { ConnectionRoles, Role } from '../../shared/session';

/** Roles granted in named connections only, by connection name, before resolution. */
export type ConnectionGrants = Readonly<Record<string, Role>>;

/**
 * The role in each of `connections` for a person with the console-wide `role` (if any) and
 * `grants`. Resolved against the connections configured now rather than stored resolved, so a
 * connection added later applies a console-wide role at once, and a session stored before
 * connections existed (no grants) keeps its role everywhere.
 */
export function connectionRoles(
  connections: readonly string[],
  role: Role | undefined,
  grants: ConnectionGrants | undefined,
): ConnectionRoles {
  const roles: ConnectionRoles = {};
  for (const name of connections) {
    const resolved = (grants && Object.hasOwn(grants, name) ? grants[name] : undefined) ?? role;
    if (resolved) roles[name] = resolved;
  }
  return roles;
}
