// Who may sign in: the users file in live mode (re-read when it changes, so `npm run users` takes
// effect without a restart), the two demo users in demo mode. Checking a password costs the same
// whether or not the user exists, so timing does not reveal which names are real.
import { createHash, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import type { Role } from '../../shared/session';
import type { RequestUser } from '../http/app-env';
import { connectionRoles, type ConnectionGrants } from './connection-roles';
import type { Logger } from '../observability/logger';
import { DEFAULT_SCRYPT_PARAMS, hashParams, hashPassword, verifyPassword } from './password-hash';
import { readUsersFile, type StoredUser } from './users-file';

/** A users-file entry as the BFF sees it. */
export interface DirectoryUser extends RequestUser {
  /**
   * The entry's version: changes whenever its password or role is set, and when the user is
   * removed and added again. A password session is bound to it (userVersion).
   */
  version: string;
  /** The entry's roles in named connections, as the file gives them (for the trail). */
  connections?: ConnectionGrants;
}

/** The console's users, as the BFF consults them. Usernames given here are already normalised. */
export interface UserDirectory {
  /** The user as configured right now; a removed user or a changed role applies at once. */
  find(username: string): DirectoryUser | undefined;
  /**
   * The user when `password` is theirs, otherwise `undefined`, after the same amount of hashing
   * work either way.
   */
  authenticate(username: string, password: string): Promise<DirectoryUser | undefined>;
  /** Names and roles, for the startup banner and the CLI. */
  list(): Array<{ username: string; role?: Role; connections?: ConnectionGrants }>;
}

/** A hash of a random password with the given users' cost, checked when a name is unknown. */
function dummyHashFor(users: readonly StoredUser[]): Promise<string> {
  const params = users.map((user) => hashParams(user.passwordHash)).find(Boolean);
  return hashPassword(randomBytes(24).toString('base64url'), params ?? DEFAULT_SCRYPT_PARAMS);
}

/**
 * An entry's version, derived from what `npm run users` writes rather than stored beside it: the
 * SHA-256 of its roles and password hash. Every password set draws a new salt, so setting a
 * password (even the same one), changing a role (console-wide or in a connection), or removing
 * and adding the user again all give a new version, and a hand-edited file needs nothing extra.
 * The password hash's salt keeps it from telling anything about the password. An entry without
 * per-connection roles hashes exactly what it did before they existed, so an upgrade signs
 * nobody out.
 */
export function userVersion(
  user: Pick<StoredUser, 'role' | 'connections' | 'passwordHash'>,
): string {
  const grants = Object.entries(user.connections ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const hash = createHash('sha256').update(`${user.role ?? ''}\n${user.passwordHash}`);
  if (grants.length > 0) hash.update(`\n${JSON.stringify(grants)}`);
  return hash.digest('base64url').slice(0, 22);
}

/** The entry as the directory answers it, with its role in each of `connections`. */
function directoryUser(user: StoredUser, connections: readonly string[]): DirectoryUser {
  return {
    username: user.username,
    ...(user.role ? { role: user.role } : {}),
    roles: connectionRoles(connections, user.role, user.connections),
    ...(user.connections ? { connections: user.connections } : {}),
    version: userVersion(user),
  };
}

/** What `list` answers for an entry. */
function listed({ username, role, connections }: StoredUser) {
  return { username, ...(role ? { role } : {}), ...(connections ? { connections } : {}) };
}

function directoryOf(
  current: () => ReadonlyMap<string, StoredUser>,
  dummyHash: () => Promise<string>,
  connections: readonly string[],
): UserDirectory {
  return {
    find(username) {
      const user = current().get(username);
      return user && directoryUser(user, connections);
    },
    async authenticate(username, password) {
      const user = current().get(username);
      const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyHash()));
      return ok && user ? directoryUser(user, connections) : undefined;
    },
    list() {
      return [...current().values()].map(listed);
    },
  };
}

export interface FileUserDirectoryOptions {
  logger: Logger;
  /** The configured connections' names: grants must name one of them (checked on every read). */
  connections: readonly string[];
  now?: () => number;
  /** How often, at most, the file's modification time is checked (default 1 s). */
  recheckMs?: number;
  /** Told of each user whose unlock stamp changed in a reload (`npm run users -- unlock`). */
  onUnlock?: (username: string) => void;
}

/**
 * Users from CONSOLE_USERS_FILE. Throws UsersFileError at start when the file is missing or
 * invalid. Later edits are picked up within `recheckMs`; an edit that breaks the file is logged
 * and the last good list is kept, but a deleted file means no users (fail closed).
 */
export function fileUserDirectory(path: string, options: FileUserDirectoryOptions): UserDirectory {
  const now = options.now ?? Date.now;
  const recheckMs = options.recheckMs ?? 1_000;
  const toMap = (users: readonly StoredUser[]) => new Map(users.map((u) => [u.username, u]));
  const fingerprint = () => {
    try {
      const stat = statSync(path);
      return `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch {
      return 'missing';
    }
  };
  let seen = fingerprint();
  const read = () => toMap(readUsersFile(path, options.connections));
  let users = read();
  let checkedAt = now();
  let dummy = dummyHashFor([...users.values()]);

  const current = () => {
    if (now() - checkedAt < recheckMs) return users;
    checkedAt = now();
    const latest = fingerprint();
    if (latest === seen) return users;
    seen = latest;
    if (latest === 'missing') {
      options.logger.error('the console users file was removed: nobody can sign in');
      users = new Map();
      return users;
    }
    try {
      const previous = users;
      users = read();
      for (const user of users.values()) {
        const stamp = user.signInUnlockedAt;
        if (stamp && stamp !== previous.get(user.username)?.signInUnlockedAt) {
          options.onUnlock?.(user.username);
        }
      }
      dummy = dummyHashFor([...users.values()]);
      options.logger.info({ users: users.size }, 'console users file reloaded');
    } catch (error) {
      options.logger.error(
        { reason: (error as Error).message },
        'console users file is invalid; keeping the previous users',
      );
    }
    return users;
  };
  return directoryOf(current, () => dummy, options.connections);
}

/**
 * The demo users (demo mode only): `admin`, `auditor` and `support`, each with `password`, each
 * with its role console-wide and so in every one of `connections`.
 */
export function demoUserDirectory(password: string, connections: readonly string[]): UserDirectory {
  const roles: Role[] = ['admin', 'auditor', 'support'];
  // Hashed once in the background at start; the first sign-in waits for it if it is that quick.
  const users = Promise.all(
    roles.map(async (role) => ({
      username: role,
      role,
      passwordHash: await hashPassword(password),
    })),
  );
  let loaded: ReadonlyMap<string, StoredUser> = new Map();
  const ready = users.then((list) => {
    loaded = new Map(list.map((user) => [user.username, user]));
  });
  const dummy = dummyHashFor([]);
  const directory = directoryOf(
    () => loaded,
    () => dummy,
    connections,
  );
  return {
    // The demo users' hashes are new at every start; their version is their fixed role, so a
    // restart on a kept database does not sign them out.
    find: (username) =>
      roles.includes(username as Role)
        ? {
            username,
            role: username as Role,
            roles: connectionRoles(connections, username as Role, undefined),
            version: `demo-${username}`,
          }
        : undefined,
    async authenticate(username, password) {
      await ready;
      const user = await directory.authenticate(username, password);
      return user && { ...user, version: `demo-${user.username}` };
    },
    list: () => roles.map((role) => ({ username: role, role })),
  };
}
