// `npm run users -- add NAME --role admin|auditor|support [--connection C] | role NAME --role …
// [--connection C] | list | remove NAME | unlock NAME`: manages the console users file. Passwords are prompted for without echo, or read from standard input when it is piped,
// and only their scrypt hashes are written.
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { CONNECTION_NAME_PATTERN } from '../../shared/connections';
import { PASSWORD_MAX_LENGTH, RoleSchema, USERNAME_PATTERN, type Role } from '../../shared/session';
import { loadUsersFilePath } from '../config/config';
import { hashPassword, type ScryptParams } from '../auth/password-hash';
import {
  normalizeUsername,
  readUsersFile,
  UsersFileError,
  writeUsersFile,
  type StoredUser,
} from '../auth/users-file';
import { isProcessEntry } from './process-entry';

/** ASVS 5.0 asks for at least 8 characters and recommends 15; an admin console takes 12. */
const MIN_PASSWORD_LENGTH = 12;

const USAGE = `Manage the console's users (CONSOLE_USERS_FILE, default ./.data/users.json).

  npm run users -- add NAME --role admin|auditor|support [--connection C] [--replace]
      Prompts for the password twice, or reads one line from standard input when piped:
      printf '%s\\n' "$PASSWORD" | npm run users -- add alice --role admin
      With --connection, the role is NAME's in the connection C only, not console-wide.
  npm run users -- role NAME --role admin|auditor|support|none [--connection C]
      Sets NAME's console-wide role, or with --connection their role in C (which takes
      precedence over the console-wide one there); none removes it. The password stays.
  npm run users -- list
  npm run users -- remove NAME
  npm run users -- unlock NAME
      Lifts NAME's sign-in lockout after too many wrong passwords; a running console applies
      it within a second (it re-reads this file).

Options: --file PATH  use another users file.`;

/** Where the CLI reads and writes; replaced in tests. */
export interface CliIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
  /** The users file when --file is not given. */
  defaultFile: () => string;
  /** Hashing cost; tests use a cheap one. */
  scrypt?: ScryptParams;
}

class UsageError extends Error {}

/** Reads the first line of piped standard input. */
async function readPipedLine(stdin: Readable): Promise<string> {
  const lines = createInterface({ input: stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}

/** Asks for a line on the terminal without echoing what is typed. */
function promptHidden(io: CliIo, question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: true });
    const internals = rl as unknown as { _writeToOutput: (text: string) => void };
    let asked = false;
    internals._writeToOutput = (text: string) => {
      // Print the question once, then nothing of what is typed except the final newline.
      if (!asked) {
        asked = true;
        io.stdout.write(text);
      } else if (text.includes('\n')) io.stdout.write('\n');
    };
    rl.question(question, (answer) => {
      rl.close();
      resolve(answer);
    });
  });
}

async function readNewPassword(io: CliIo, username: string): Promise<string> {
  let password: string;
  if (io.stdin.isTTY) {
    password = await promptHidden(io, `Password for ${username}: `);
    const again = await promptHidden(io, 'Repeat the password: ');
    if (password !== again) throw new UsageError('The two passwords differ; nothing was changed.');
  } else {
    password = await readPipedLine(io.stdin);
  }
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new UsageError(
      `The password must have at least ${MIN_PASSWORD_LENGTH} characters; nothing was changed.`,
    );
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    throw new UsageError(`The password must have at most ${PASSWORD_MAX_LENGTH} characters.`);
  }
  return password;
}

function readExisting(file: string): StoredUser[] {
  try {
    return readUsersFile(file);
  } catch (error) {
    if (error instanceof UsersFileError && error.missing) return [];
    throw error;
  }
}

function usernameArgument(value: string | undefined): string {
  if (!value) throw new UsageError('Give the user name.');
  const username = normalizeUsername(value);
  if (!USERNAME_PATTERN.test(username)) {
    throw new UsageError(
      'A user name has lower-case letters, digits, ".", "_" and "-" (at most 64), starting with a letter or digit.',
    );
  }
  return username;
}

function roleArgument(value: string | undefined, allowNone = false): Role | undefined {
  if (allowNone && value === 'none') return undefined;
  const role = RoleSchema.safeParse(value);
  if (!role.success) {
    throw new UsageError(
      `Give the role: --role admin, --role auditor or --role support${allowNone ? ' (or --role none)' : ''}.`,
    );
  }
  return role.data;
}

/** The `--connection` given, checked for shape only: the console checks that it serves it. */
function connectionArgument(value: string | undefined): string | undefined {
  if (value !== undefined && !CONNECTION_NAME_PATTERN.test(value)) {
    throw new UsageError(
      'A connection name has lower-case letters, digits and "-" (at most 32), starting with a letter.',
    );
  }
  return value;
}

/**
 * `user` with `role` as their console-wide role, or with `connection` as their role there;
 * `undefined` removes it.
 */
function withRole(
  user: StoredUser,
  role: Role | undefined,
  connection: string | undefined,
): StoredUser {
  const { role: _role, connections: _connections, ...rest } = user;
  const grants = { ...user.connections };
  let consoleRole = user.role;
  if (connection === undefined) consoleRole = role;
  else if (role) grants[connection] = role;
  else delete grants[connection];
  return {
    ...rest,
    ...(consoleRole ? { role: consoleRole } : {}),
    ...(Object.keys(grants).length > 0 ? { connections: grants } : {}),
  };
}

/** What a user's roles look like in `list` and in messages: `admin`, `admin; uat=support`. */
function rolesText(user: StoredUser): string {
  const grants = Object.entries(user.connections ?? {}).map(([name, role]) => `${name}=${role}`);
  return [user.role ?? '-', ...(grants.length > 0 ? [grants.join(',')] : [])].join('\t');
}

/** Runs the CLI with `argv` (without node and script); resolves to the exit code. */
export async function runUsersCli(argv: string[], io: CliIo): Promise<number> {
  const print = (text: string) => io.stdout.write(`${text}\n`);
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        role: { type: 'string' },
        connection: { type: 'string' },
        file: { type: 'string' },
        replace: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    const [command, name, ...rest] = positionals;
    if (values.help || !command) {
      print(USAGE);
      return values.help ? 0 : 2;
    }
    if (rest.length > 0) throw new UsageError(`Unexpected argument: ${rest[0]}`);
    const file = values.file ?? io.defaultFile();
    switch (command) {
      case 'list': {
        const users = readExisting(file);
        if (users.length === 0) print(`No users in ${file}.`);
        for (const user of users) print(`${user.username}\t${rolesText(user)}`);
        return 0;
      }
      case 'add': {
        const username = usernameArgument(name);
        const role = roleArgument(values.role);
        const connection = connectionArgument(values.connection);
        const users = readExisting(file);
        const existing = users.find((user) => user.username === username);
        if (existing && !values.replace) {
          throw new UsageError(
            `${username} already exists; add --replace to set a new password and role.`,
          );
        }
        const password = await readNewPassword(io, username);
        const passwordHash = await hashPassword(password, io.scrypt);
        const others = users.filter((user) => user.username !== username);
        // A replaced user keeps their roles elsewhere (in other connections, or console-wide).
        const added = withRole(
          existing ? { ...existing, passwordHash } : { username, passwordHash },
          role,
          connection,
        );
        writeUsersFile(file, [...others, added]);
        const where = connection ? ` in ${connection}` : '';
        print(
          existing
            ? `Updated ${username} (${role}${where}) in ${file}. Their open sessions have ended (a running console applies it within a second).`
            : `Added ${username} (${role}${where}) in ${file}.`,
        );
        return 0;
      }
      case 'role': {
        const username = usernameArgument(name);
        const role = roleArgument(values.role, true);
        const connection = connectionArgument(values.connection);
        const users = readExisting(file);
        const existing = users.find((user) => user.username === username);
        if (!existing) throw new UsageError(`${username} is not in ${file}.`);
        const changed = withRole(existing, role, connection);
        if (!changed.role && !changed.connections) {
          throw new UsageError(
            `That would leave ${username} without any role; remove the user instead (npm run users -- remove ${username}).`,
          );
        }
        writeUsersFile(
          file,
          users.map((user) => (user.username === username ? changed : user)),
        );
        // The entry's version changes with its roles (auth/user-directory.ts): its sessions end.
        print(
          `Set ${username}'s role${connection ? ` in ${connection}` : ' (console-wide)'} to ${role ?? 'none'} in ${file}. Their open sessions have ended (a running console applies it within a second).`,
        );
        return 0;
      }
      case 'remove': {
        const username = usernameArgument(name);
        const users = readExisting(file);
        if (!users.some((user) => user.username === username)) {
          throw new UsageError(`${username} is not in ${file}.`);
        }
        writeUsersFile(
          file,
          users.filter((user) => user.username !== username),
        );
        // Sessions are bound to the entry they signed in with (auth/user-directory.ts): none
        // comes back, even if the name is added again.
        print(
          `Removed ${username} from ${file}. Their open sessions have ended (a running console applies it within a second).`,
        );
        return 0;
      }
      case 'unlock': {
        const username = usernameArgument(name);
        const users = readExisting(file);
        if (!users.some((user) => user.username === username)) {
          throw new UsageError(`${username} is not in ${file}.`);
        }
        // The stamp is the message: each console re-reads the file and unlocks a changed one.
        const at = new Date().toISOString();
        writeUsersFile(
          file,
          users.map((user) =>
            user.username === username ? { ...user, signInUnlockedAt: at } : user,
          ),
        );
        print(`Unlocked ${username}'s sign-in; a running console applies it within a second.`);
        return 0;
      }
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof UsersFileError) {
      io.stderr.write(`${error.message}\n`);
      return error instanceof UsageError ? 2 : 1;
    }
    if ((error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      io.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
}

if (isProcessEntry(import.meta.url)) {
  const code = await runUsersCli(process.argv.slice(2), {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    defaultFile: loadUsersFilePath,
  });
  process.exit(code);
}
