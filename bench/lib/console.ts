// Starts console instances for the benchmark in live mode against a given upstream, with a
// throwaway users file, and signs in so load runs carry a real session like a browser would.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectionPagePath, DEFAULT_CONNECTION } from '../../src/shared/connections';
import { startNodeProcess, type RunningProcess } from './processes';
import { consoleRoot } from './under-test';

const BENCH_USER = 'bench-admin';
const BENCH_PASSWORD = 'bench-password-not-secret';

let usersFile: string | undefined;

/** Creates (once per run) a users file with one admin, through the real `users` command. */
function benchUsersFile(): string {
  if (usersFile) return usersFile;
  const file = join(mkdtempSync(join(tmpdir(), 'console-bench-')), 'users.json');
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/server/cli/users.ts',
      'add',
      BENCH_USER,
      '--role',
      'admin',
      '--file',
      file,
    ],
    { input: `${BENCH_PASSWORD}\n`, encoding: 'utf8' },
  );
  if (result.status !== 0)
    throw new Error(`could not create the bench users file: ${result.stderr}`);
  usersFile = file;
  return file;
}

/**
 * The path of one of the default connection's pages (`page` as `event-types`): the address the
 * start banner prints and the navigation links to. The addresses from before connections
 * (`/event-types`) still work for old bookmarks, by a redirect that first waits for the list of
 * connections; a browser sent there measures that round trip too, which no user arriving from the
 * banner, the navigation or a shared link makes.
 */
export function consolePagePath(page: string): string {
  return connectionPagePath(DEFAULT_CONNECTION, page);
}

export interface RunningConsole extends RunningProcess {
  /** Headers a signed-in browser sends on /api requests. */
  apiHeaders: Record<string, string>;
}

/** Signs in on a running console and returns the session cookie pair. */
export async function signIn(url: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Error(`sign-in failed with ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** Starts a live-mode console on `port` against `upstreamUrl`, signed in as an admin. */
export async function startConsole(
  port: number,
  upstreamUrl: string,
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
): Promise<RunningConsole> {
  const running = await startNodeProcess('dist/server/index.js', {
    cwd: consoleRoot(),
    nodeFlags,
    name: `console on ${port}`,
    port,
    readyPath: '/healthz',
    env: {
      PORT: String(port),
      UPSTREAM_BASE_URL: upstreamUrl,
      OAUTH_CLIENT_ID: 'demo-client',
      OAUTH_CLIENT_SECRET: 'demo-secret',
      CONSOLE_USERS_FILE: benchUsersFile(),
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789',
      AUDIT_KEY: 'bench-audit-key-0123456789abcdef0123456789abcdef',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'console-bench-data-')),
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  const cookie = await signIn(running.url, BENCH_USER, BENCH_PASSWORD);
  return { ...running, apiHeaders: { cookie, 'x-csrf': '1' } };
}

/** Starts the standalone mock upstream on `port`. */
export function startMockUpstream(port: number, env: Record<string, string> = {}) {
  return startNodeProcess('src/mocks/server.ts', {
    name: `mock upstream on ${port}`,
    port,
    readyPath: '/__mock/stats',
    env: { MOCK_PORT: String(port), ...env },
  });
}

/** The mock's request counters. */
export async function mockStats(mockUrl: string): Promise<{
  tokenRequests: number;
  requests: Record<string, number>;
}> {
  return (await fetch(`${mockUrl}/__mock/stats`)).json() as never;
}

/** Forgets the mock's tokens and counters: every token the console holds becomes invalid. */
export async function resetMock(mockUrl: string): Promise<void> {
  await fetch(`${mockUrl}/__mock/reset`, { method: 'POST' });
}
