// Which build of the console the scenarios measure: this checkout's, or, with
// `npm run bench -- --baseline=REF`, an earlier commit's, built in a temporary git worktree, so the
// figures before and after a change come from one run on one machine, measured by the same
// scenario code, side by side in RESULTS.md.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

let root = '.';

/** The checkout whose built console (dist/) the scenarios start. */
export function consoleRoot(): string {
  return root;
}

/** Runs `measure` with the consoles started from `dir`'s build. */
export async function measuringBuildIn<T>(dir: string, measure: () => Promise<T>): Promise<T> {
  const previous = root;
  root = dir;
  try {
    return await measure();
  } finally {
    root = previous;
  }
}

/**
 * Checks `ref` out into a temporary worktree and builds it with this checkout's node_modules (an
 * earlier commit's dependencies are the same or fewer). Returns its directory and how to remove it.
 */
export function buildBaseline(ref: string, log: (line: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'console-baseline-'));
  rmSync(dir, { recursive: true });
  log(`baseline: building ${ref} in a temporary worktree…`);
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { stdio: 'ignore' });
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: dir, stdio: 'ignore' });
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { encoding: 'utf8' }).trim();
  return {
    dir,
    commit,
    remove() {
      execFileSync('git', ['worktree', 'remove', '--force', dir], { stdio: 'ignore' });
    },
  };
}
