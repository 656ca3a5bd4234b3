// The console role of one provider sign-in: the groups found in the ID token's claims at
// OIDC_ROLES_CLAIM (a dotted path), looked up in OIDC_ROLE_MAP (parsed in config.ts).
import type { Role } from '../../shared/session';
import type { RoleMap } from '../config/config';

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

/**
 * The console role for `groups`: the first role of the map that one of them grants, so the map's
 * order decides for a person in several mapped groups (write it most privileged first, or put the
 * separation of duties you want first). Undefined: no access.
 */
export function roleForGroups(map: RoleMap, groups: readonly string[]): Role | undefined {
  return map.find((entry) => entry.groups.some((group) => groups.includes(group)))?.role;
}
