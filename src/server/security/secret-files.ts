// Secrets from files: each secret variable NAME may instead be given as NAME_FILE, a path whose
// content is the value (Docker and Kubernetes secrets), read once at start and never printed.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * The variables that hold a secret, of the console and its operator tools. DATABASE_URL and
 * REDIS_URL carry their passwords inside the URL, so their files hold the whole URL: one fact in
 * one place, where a separate password variable would have to be spliced into a URL it also names.
 */
export const SECRET_VARIABLES = [
  'OAUTH_CLIENT_SECRET',
  'SESSION_SECRET',
  'AUDIT_KEY',
  'DATABASE_URL',
  'REDIS_URL',
  'OIDC_CLIENT_SECRET',
  'METRICS_TOKEN',
  'DEMO_PASSWORD',
  'ALERT_RECEIVER_SECRET',
] as const;

/**
 * The largest secret file read. Every secret here is a key, a token or a URL of at most a few
 * hundred bytes; 64 KiB leaves room for any of them (a long certificate-bearing URL included)
 * while a path to the wrong file (a log, a disk image, /dev/zero) is refused before it fills the
 * heap.
 */
export const SECRET_FILE_MAX_BYTES = 64 * 1024;

/** Thrown with the one line to print when a NAME_FILE cannot be used; never holds its content. */
export class SecretFileError extends Error {
  override name = 'SecretFileError';
}

/** What reading the secret files gave: the environment with their values, and start warnings. */
export interface SecretFilesResult {
  readonly env: Record<string, string | undefined>;
  readonly warnings: readonly string[];
}

/**
 * `env` with each NAME_FILE of `names` read into NAME (one trailing newline dropped, as `echo` and
 * editors leave one). Throws SecretFileError naming both variables when both are set, or naming
 * the path when the file is missing, unreadable, not a regular file, empty or over the limit. A
 * file that group or others may read gives a warning: the secret is no more private than it.
 */
export function readSecretFiles(
  env: Record<string, string | undefined>,
  names: readonly string[] = SECRET_VARIABLES,
): SecretFilesResult {
  const resolved = { ...env };
  const warnings: string[] = [];
  for (const name of names) {
    const fileVariable = `${name}_FILE`;
    const path = env[fileVariable];
    // An empty value counts as unset, as it does for every variable of the configuration.
    if (path === undefined || path === '') continue;
    if (env[name] !== undefined && env[name] !== '') {
      throw new SecretFileError(`${name} and ${fileVariable} are both set; set only one of them`);
    }
    const { value, mode } = readSecretFile(fileVariable, path);
    resolved[name] = value;
    delete resolved[fileVariable];
    const warning = readableByOthersWarning(fileVariable, path, mode);
    if (warning) warnings.push(warning);
  }
  return { env: resolved, warnings };
}

/**
 * The start warning for a file holding a secret that its group or others may read (the secret is
 * no more private than the file), or undefined when only its owner may.
 */
export function readableByOthersWarning(
  variable: string,
  path: string,
  mode: number,
): string | undefined {
  if ((mode & 0o044) === 0) return undefined;
  return `${variable} ${path} is readable by other users (mode ${(mode & 0o777).toString(8)}); make it readable by the console's user alone (chmod 400 or 600)`;
}

/**
 * The content of one secret file without one trailing newline, and the file's mode. Throws
 * SecretFileError naming `variable` (what named the file) and the path, never the content;
 * `holding` says what the file should hold, in the messages.
 */
export function readSecretFile(
  variable: string,
  path: string,
  holding = 'the secret',
): { value: string; mode: number } {
  let fd: number;
  try {
    // Non-blocking: a named pipe at the path is refused below instead of hanging the start.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new SecretFileError(`${variable} ${path} ${whyUnreadable(error)}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      throw new SecretFileError(
        `${variable} ${path} is ${stat.isDirectory() ? 'a directory' : 'not a regular file'}; it must name the file holding ${holding}`,
      );
    }
    // Read one byte past the limit rather than trusting the size: some files report 0.
    const buffer = Buffer.alloc(SECRET_FILE_MAX_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > SECRET_FILE_MAX_BYTES) {
        throw new SecretFileError(
          `${variable} ${path} is larger than ${SECRET_FILE_MAX_BYTES / 1024} KiB; it must hold ${holding} alone`,
        );
      }
    }
    const value = buffer.toString('utf8', 0, length).replace(/\r?\n$/, '');
    if (value === '') throw new SecretFileError(`${variable} ${path} is empty`);
    return { value, mode: stat.mode };
  } catch (error) {
    if (error instanceof SecretFileError) throw error;
    throw new SecretFileError(`${variable} ${path} ${whyUnreadable(error)}`);
  } finally {
    closeSync(fd);
  }
}

/** Why a file could not be read, in words; the error's own message may name more than the path. */
function whyUnreadable(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'does not exist';
    case 'EACCES':
    case 'EPERM':
      return "cannot be read by the console's user (permission denied)";
    case 'EISDIR':
      return 'is a directory; it must name the file holding the secret';
    default:
      return `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`;
  }
}
