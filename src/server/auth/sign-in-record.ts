// How a sign-in (by password or through the identity provider) reaches the audit trail: recorded
// like every administrative change, but never refused when the trail cannot take the entry.
import type { Role } from '../../shared/session';
import type { RecordChange } from '../http/admin-change';
import type { ConnectionGrants } from './connection-roles';

/**
 * `recordChange` for sign-ins: a full or unreachable store must not lock out the people who look
 * at /readyz and fix it, so a failed write resolves; the recorder has logged it at error level.
 */
export function signInRecorder(recordChange: RecordChange): RecordChange {
  return (c, change) => recordChange(c, change).catch(() => undefined);
}

/**
 * The roles a sign-in recorded in the trail's `after`: the console-wide role and the roles in
 * named connections, so a changed role in one connection shows between two sign-ins of the same
 * person as plainly as a changed console-wide role. `connections` is left out when there are none,
 * so a console with one connection records what it did before.
 */
export function rolesRecorded(roles: {
  role?: Role | undefined;
  connections?: ConnectionGrants | undefined;
}): { role?: Role; connections?: ConnectionGrants } {
  const { role, connections } = roles;
  return {
    ...(role ? { role } : {}),
    ...(connections && Object.keys(connections).length > 0 ? { connections } : {}),
  };
}
