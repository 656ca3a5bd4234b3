// The BFF as a real process (`node --import tsx src/server/index.ts`) on a loopback port, for the
// tests that need what only a process has: signals, a graceful shutdown, a crash, startup errors,
// several replicas side by side.
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port';
import { HARNESS_USERS } from './bff-harness';
import { PROCESS_START_DEADLINE_MS } from './process-deadline';
import type { Role } from '../../shared/session';

/** A running BFF process. */
export interface BffProcess {
  readonly url: string;
  readonly pid: number;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** A request with `X-CSRF: 1` and, when given, the session cookie. */
  request(path: string, init?: RequestInit, cookie?: string): Promise<Response>;
  /** Signs in as a harness user; resolves to the Cookie header value. */
  signIn(role?: Role): Promise<string>;
  /** Resolves with the exit code (null when killed by a signal) once the process has ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): void;
}

/** Runs the BFF with `env` (on top of a minimal environment) until it exits. */
export function runBff(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: BffProcess['exited'];
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/index.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      STATIC_DIR: 'does-not-exist',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** Starts the BFF and resolves once it listens. */
export async function spawnBff(
  env: Record<string, string>,
  {
    startTimeoutMs = PROCESS_START_DEADLINE_MS,
    port: fixedPort,
  }: { startTimeoutMs?: number; port?: number } = {},
): Promise<BffProcess> {
  // A fixed port: the same address after a restart, as a browser sees it.
  const port = fixedPort ?? (await freePort());
  const { child, output, exited } = runBff({ HOST: '127.0.0.1', PORT: String(port), ...env });
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`the BFF exited at start with ${child.exitCode}:\n${output()}`);
    }
    if (output().includes('listening on')) break;
    if (Date.now() - started > startTimeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`the BFF did not start in time:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const request = (path: string, init: RequestInit = {}, cookie?: string) =>
    fetch(`${url}${path}`, {
      ...init,
      headers: {
        'X-CSRF': '1',
        ...(cookie ? { Cookie: cookie } : {}),
        ...(init.headers as Record<string, string> | undefined),
      },
    });
  return {
    url,
    pid: child.pid!,
    output,
    request,
    async signIn(role: Role = 'admin') {
      const response = await request('/api/session', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(HARNESS_USERS[role]),
      });
      const cookie = response.headers.get('set-cookie')?.split(';', 1)[0];
      if (response.status !== 200 || !cookie) throw new Error(`sign-in failed: ${response.status}`);
      return cookie;
    },
    exited,
    kill: (signal = 'SIGTERM') => child.kill(signal),
  };
}
