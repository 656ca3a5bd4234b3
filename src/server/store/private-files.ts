// Files that hold the audit trail, keys or secrets (the SQLite store, demo mode's audit key, the
// checkpoint file) are the owner's alone: directories 0700, files 0600, made so from the start,
// and tightened (with a warning) when an older version or an operator left them readable by others
// and they are the console user's own; never through a link, never another account's.
import { chmodSync, lstatSync, mkdirSync, statSync, writeFileSync, type Stats } from 'node:fs';

/** Creates `dir` (and its parents) owner-only when missing. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Creates `file` empty and owner-only when missing, so whatever writes it next inherits 0600. */
export function ensurePrivateFile(file: string): void {
  try {
    writeFileSync(file, '', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** What tightening found: each path that others could read or write, and whether it was fixed. */
export interface LoosePath {
  readonly path: string;
  /** Its mode before, octal (`644`). */
  readonly mode: string;
  readonly tightened: boolean;
  /** Why it was left as it was, when it was. */
  readonly why?: string;
}

/** Why the console must not change `stat`'s mode, or undefined when it may. */
function notOurs(stat: Stats): string | undefined {
  // A link is never followed: as root, chmod would change whatever file it points to.
  if (stat.isSymbolicLink()) return 'it is a symbolic link; replace it with the file itself';
  const own = process.getuid?.();
  if (own !== undefined && stat.uid !== own) {
    // Root could change the mode, but the owner would still control the file.
    return `it is owned by another account (uid ${stat.uid}); give it to the console's user (uid ${own})`;
  }
  return undefined;
}

/**
 * Makes each existing path owner-only (directories 0700, files 0600) where group or others had
 * any access, when it is the console user's own and not a link; returns those it found so, for
 * the start-up warning, saying which were made owner-only and why the others were not.
 */
export function tightenPrivatePaths(paths: readonly string[]): LoosePath[] {
  const loose: LoosePath[] = [];
  for (const path of paths) {
    let stat: Stats;
    let target: Stats;
    try {
      stat = lstatSync(path);
      // A link's own mode means nothing: what it points to is what others could read.
      target = stat.isSymbolicLink() ? statSync(path) : stat;
    } catch {
      continue;
    }
    if ((target.mode & 0o077) === 0) continue;
    const mode = (target.mode & 0o777).toString(8);
    const why = notOurs(stat);
    if (why) {
      loose.push({ path, mode, tightened: false, why });
      continue;
    }
    try {
      chmodSync(path, stat.isDirectory() ? 0o700 : 0o600);
      loose.push({ path, mode, tightened: true });
    } catch (error) {
      loose.push({ path, mode, tightened: false, why: (error as Error).message });
    }
  }
  return loose;
}
