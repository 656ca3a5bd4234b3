// The console roles of one provider sign-in, console-wide and per connection: the groups found in
// the ID token's claims at OIDC_ROLES_CLAIM (a dotted path), looked up in OIDC_ROLE_MAP (parsed in
// config.ts).
import type { Role } from '../../shared/session';
import type { RoleMap } from '../config/config';
import type { ConnectionGrants } from './connection-roles';

/** The value at `path` in `claims` (`['realm_access', 'roles']`), or undefined. */
function claimAt(claims: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = claims;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = Object.hasOwn(value, segment) ? (value as Record<string, unknown>)[segment] : undefined;
  }
  return value;
}

/**
 * The groups the claims name at `path`: an array of strings, or one string (some providers send a
 * single group so). Anything else counts as no group.
 */
export function groupsIn(claims: Record<string, unknown>, path: readonly string[]): string[] {
  const value = claimAt(claims, path);
  if (typeof value === 'string') return [value];
  return Array.isArray(value)
    ? value.filter((group): group is string => typeof group === 'string')
    : [];
}

/** The roles one provider sign-in gets from its groups. */
export interface ProviderRoles {
  /** The console-wide role; absent when only connection-qualified entries matched. */
  readonly role?: Role;
  /** The role in each connection the map names, where one of its entries applies. */
  readonly connectionRoles: ConnectionGrants;
}

/** The role of the first entry of `entries` that one of `groups` is in. */
function firstRole(entries: RoleMap, groups: readonly string[]): Role | undefined {
  return entries.find((entry) => entry.groups.some((group) => groups.includes(group)))?.role;
}

/**
 * The console roles for `groups`: console-wide, the first unqualified entry that one of them is
 * in; in a connection the map names, the first entry for that connection or unqualified, so the
 * map's order decides for a person in several mapped groups, connection by connection (write it
 * most privileged first, or put the separation of duties you want first). Neither role nor any
 * connection role: no access.
 */
export function rolesForGroups(map: RoleMap, groups: readonly string[]): ProviderRoles {
  const role = firstRole(
    map.filter((entry) => entry.connections === undefined),
    groups,
  );
  const named = new Set(map.flatMap((entry) => entry.connections ?? []));
  const connectionRoles: Record<string, Role> = {};
  for (const connection of named) {
    const applies = map.filter(
      (entry) => entry.connections === undefined || entry.connections.includes(connection),
    );
    const granted = firstRole(applies, groups);
    if (granted) connectionRoles[connection] = granted;
  }
  return { ...(role ? { role } : {}), connectionRoles };
}
