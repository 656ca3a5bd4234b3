// Files that hold the audit trail, keys or secrets (the SQLite store, demo mode's audit key, the
// checkpoint file) are the owner's alone: directories 0700, files 0600, made so from the start,
// and tightened (with a warning) when an older version or an operator left them readable by others.
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';

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
}

/**
 * Makes each existing path owner-only (directories 0700, files 0600) where group or others had
 * any access; returns those it found so, for the start-up warning.
 */
export function tightenPrivatePaths(paths: readonly string[]): LoosePath[] {
  const loose: LoosePath[] = [];
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const stat = statSync(path);
    if ((stat.mode & 0o077) === 0) continue;
    const mode = (stat.mode & 0o777).toString(8);
    try {
      chmodSync(path, stat.isDirectory() ? 0o700 : 0o600);
      loose.push({ path, mode, tightened: true });
    } catch {
      loose.push({ path, mode, tightened: false });
    }
  }
  return loose;
}
