// The console users file (CONSOLE_USERS_FILE): names, roles (console-wide and per connection) and
// password hashes as JSON, read by the BFF and written by `npm run users`. It never holds a clear
// password.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { CONNECTION_NAME_PATTERN } from '../../shared/connections';
import { RoleSchema, USERNAME_PATTERN, type Role } from '../../shared/session';
import type { ConnectionGrants } from './connection-roles';
import { isPasswordHash } from './password-hash';

/** One console user as stored. */
export interface StoredUser {
  username: string;
  /** The console-wide role; absent for a user with roles in named connections only. */
  role?: Role;
  /** Roles in named connections (`{ "uat": "admin" }`), taking precedence over `role` there. */
  connections?: ConnectionGrants;
  passwordHash: string;
  /** When `npm run users -- unlock` last lifted the user's sign-in lockout (ISO time). */
  signInUnlockedAt?: string;
}

const UsersFileSchema = z.object({
  users: z.array(
    z
      .object({
        username: z.string().regex(USERNAME_PATTERN, 'is not a valid username'),
        role: z.optional(RoleSchema),
        connections: z
          .record(
            z.string().regex(CONNECTION_NAME_PATTERN, 'is not a valid connection name'),
            RoleSchema,
          )
          .optional(),
        passwordHash: z.string().refine(isPasswordHash, 'is not an scrypt password hash'),
        signInUnlockedAt: z.iso.datetime().optional(),
      })
      .refine(
        (user) => user.role !== undefined || Object.keys(user.connections ?? {}).length > 0,
        'needs a role, or a role in at least one connection',
      ),
  ),
});

/** Why the users file cannot be used; the message is one line naming the file. */
export class UsersFileError extends Error {
  override name = 'UsersFileError';
  readonly missing: boolean;
  constructor(message: string, missing = false) {
    super(message);
    this.missing = missing;
  }
}

/**
 * Lower-cases and Unicode-normalises a typed username, so "Admin" and "ａｄｍｉｎ" are the same
 * account (and the same throttling key) as "admin".
 */
export function normalizeUsername(input: string): string {
  return input.trim().normalize('NFKC').toLowerCase();
}

/**
 * Parses the text of a users file; throws UsersFileError naming `path` and the fault. With
 * `connections` (the configured connection names), a grant in any other connection is refused,
 * naming the user and the connection: a typo would otherwise grant nothing, silently.
 */
function parseUsersFile(
  text: string,
  path: string,
  connections: readonly string[] | undefined,
): StoredUser[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsersFileError(`${path} is not valid JSON`);
  }
  const parsed = UsersFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new UsersFileError(`${path}${where}: ${issue?.message ?? 'invalid users file'}`);
  }
  const seen = new Set<string>();
  for (const user of parsed.data.users) {
    if (seen.has(user.username)) {
      throw new UsersFileError(`${path} lists the user "${user.username}" twice`);
    }
    seen.add(user.username);
    const unknown = Object.keys(user.connections ?? {}).find(
      (name) => connections !== undefined && !connections.includes(name),
    );
    if (unknown !== undefined) {
      throw new UsersFileError(
        `${path} gives the user "${user.username}" a role in the connection "${unknown}", which is not configured (configured: ${connections?.join(', ')})`,
      );
    }
  }
  return parsed.data.users;
}

/**
 * Reads and validates the users file at `path`; with `connections`, also that every grant names
 * one of them (the console checks; `npm run users` does not know the configuration).
 */
export function readUsersFile(path: string, connections?: readonly string[]): StoredUser[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsersFileError(`${path} does not exist`, true);
    throw new UsersFileError(`${path} cannot be read (${code ?? 'unknown error'})`);
  }
  return parseUsersFile(text, path, connections);
}

/**
 * Writes the users file atomically (a temporary file renamed over it) and readable by its owner
 * only, so a crash never leaves half a file and other local accounts cannot read the hashes.
 */
export function writeUsersFile(path: string, users: readonly StoredUser[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const sorted = [...users].sort((a, b) => a.username.localeCompare(b.username));
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ users: sorted }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
