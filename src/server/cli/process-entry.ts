// Whether a command-line module was started as the process (`tsx src/server/cli/users.ts`) or
// imported (by its tests), so each CLI runs its command only in the first case.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Same file, symbolic links resolved; a path that cannot be resolved compares as written. */
function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

/** True when the module at `moduleUrl` (its `import.meta.url`) is the process entry. */
export function isProcessEntry(moduleUrl: string, entry = process.argv[1]): boolean {
  return entry !== undefined && sameFile(fileURLToPath(moduleUrl), entry);
}
