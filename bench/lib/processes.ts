// Child processes for the benchmark: the mock upstream, console instances and the baseline proxy,
// each a separate Node process so the load generator does not share their event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface RunningProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
  /** Resident set size in MB, read from /proc (Linux). */
  rssMb(): number;
  /** CPU time the process has used so far (user + system), in ms, read from /proc (Linux). */
  cpuMs(): number;
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

/** The Node flags of `npm start` (package.json), e.g. `--max-old-space-size=96`. */
const START_FLAGS = (
  JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }
).scripts.start
  .split(/\s+/)
  .filter((word) => word.startsWith('--'));

/** Whether anything answers `url` at all. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `url` answers 2xx, or fails after `timeoutMs`. */
export async function waitForUrl(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up within ${timeoutMs} ms`);
}

/**
 * Starts `node <entry>` (through tsx for TypeScript) with `env`, waits for `readyPath`, and returns a handle. One
 * process (no npx wrapper), so stopping it stops the server.
 */
export async function startNodeProcess(
  entry: string,
  {
    port,
    env,
    readyPath,
    name,
    cwd,
    nodeFlags = [],
  }: {
    port: number;
    env: Record<string, string>;
    readyPath: string;
    name: string;
    /** The checkout to run it in (`entry` is relative to it); default this one. */
    cwd?: string;
    /** Node flags added to `npm start`'s, e.g. `--cpu-prof` (not allowed in NODE_OPTIONS). */
    nodeFlags?: string[];
  },
): Promise<RunningProcess> {
  const url = `http://127.0.0.1:${port}`;
  // Something left listening there (a run stopped half-way) would answer the readiness check, and
  // every figure after it would be that process's, not this build's.
  if (await answers(`${url}${readyPath}`)) {
    throw new Error(`${name} cannot start: port ${port} is already taken by another process`);
  }
  // Built JavaScript runs on plain Node with the flags `npm start` gives it (its heap sizes among
  // them), so the figures are those of the console as users run it; TypeScript goes through tsx.
  const args = entry.endsWith('.js')
    ? [...START_FLAGS, ...nodeFlags, entry]
    : [...nodeFlags, '--import', 'tsx', entry];
  const child = spawn(process.execPath, args, {
    ...(cwd ? { cwd } : {}),
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  try {
    await waitForUrl(`${url}${readyPath}`);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${name} failed to start: ${(error as Error).message}\n${stderr}`);
  }
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    child,
    rssMb() {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb / 1024;
    },
    cpuMs() {
      // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
    },
    stop() {
      return new Promise((resolve) => {
        // Ended already, by an exit or by a signal (an out-of-memory abort ends it with SIGABRT).
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      });
    },
  };
}
