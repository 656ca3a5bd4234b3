// A restart signs nobody out and loses no live incident. The console runs as a real process with
// no configuration beyond its DATA_DIR and port (demo mode); a browser's stream is played by the
// `eventsource` package, a standards-following EventSource client, with the session cookie. The
// console is stopped (SIGTERM, and separately SIGKILL) while incidents keep happening, restarted
// on the same address, and the client must reconnect by itself (Last-Event-ID) and end up with
// every incident once. Demo mode with REDIS_URL keeps its sessions across a restart too.
import { randomBytes } from 'node:crypto';
import { EventSource, type FetchLike } from 'eventsource';
import { afterEach, describe, expect, it } from 'vitest';
import { INCIDENT_EVENT } from '../shared/incident';
import { spawnBff, type BffProcess } from './test-support/bff-process';
import { freePort } from './test-support/free-port';
import { PROCESS_TEST_TIMEOUT_MS } from './test-support/process-deadline';
import { NEEDS_SERVICES, TEST_REDIS_URL } from './test-support/store-engines';
import { tempDirsPerTest } from './test-support/temp-dirs';

const tempDir = tempDirsPerTest('console-restart-');
const running = new Set<BffProcess>();
const sources = new Set<EventSource>();
afterEach(async () => {
  for (const source of sources) source.close();
  sources.clear();
  for (const bff of running) {
    bff.kill('SIGKILL');
    await bff.exited;
  }
  running.clear();
});

/** Demo mode with nothing configured but where it keeps its data and where it listens. */
async function startConsole(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<BffProcess> {
  const bff = await spawnBff({ DATA_DIR: dataDir, MOCK_BACKGROUND_RPM: '0', ...env }, { port });
  running.add(bff);
  return bff;
}

/** Stops `bff` with `signal` and waits until it is gone. */
async function stop(bff: BffProcess, signal: NodeJS.Signals): Promise<void> {
  bff.kill(signal);
  await bff.exited;
  running.delete(bff);
}

/** Signs in as a demo user (password "demo"); resolves to the Cookie header value. */
async function signIn(bff: BffProcess, username: 'admin' | 'support'): Promise<string> {
  const response = await bff.request('/api/session', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: 'demo' }),
  });
  expect(response.status).toBe(200);
  return response.headers.get('set-cookie')!.split(';', 1)[0]!;
}

/** Makes the built-in mock answer the next call with a 429; resolves to the incident's key. */
async function provokeIncident(bff: BffProcess, cookie: string): Promise<string> {
  // End the previous incident's block first (restored from the store after a restart too).
  expect((await bff.request('/api/demo-controls/reset', { method: 'POST' }, cookie)).status).toBe(
    204,
  );
  const response = await bff.request(
    '/api/demo-controls',
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ scenario: 'account-minute' }),
    },
    cookie,
  );
  expect(response.status).toBe(200);
  const { probe } = await response.json();
  expect(probe).toMatchObject({ outcome: 'answered', status: 429 });
  return probe.incidentKey as string;
}

/**
 * The page's live stream, as an EventSource with the session cookie. While `hold` is set, its
 * connection attempts wait: the test decides when the reconnect happens, so incidents can be made
 * while the browser is certainly away.
 */
function openStream(url: string, cookie: string) {
  const received: string[] = [];
  const connections: Array<string | null> = [];
  let hold: Promise<void> | undefined;
  let release: () => void = () => {};
  const fetchWithCookie: FetchLike = async (input, init) => {
    await hold;
    connections.push(init.headers['Last-Event-ID'] ?? null);
    return fetch(input, { ...init, headers: { ...init.headers, Cookie: cookie } });
  };
  const source = new EventSource(`${url}/api/rate-limits/stream`, { fetch: fetchWithCookie });
  sources.add(source);
  source.addEventListener(INCIDENT_EVENT, (event) => {
    received.push((JSON.parse(event.data) as { key: string }).key);
  });
  const readies: number[] = [];
  source.addEventListener('ready', () => readies.push(Date.now()));
  return {
    source,
    received,
    /** Last-Event-ID sent by each connection attempt that reached the console's address. */
    connections,
    /** How many times the stream was opened and ready. */
    readyCount: () => readies.length,
    holdReconnects() {
      hold = new Promise((resolve) => {
        release = resolve;
      });
    },
    releaseReconnects() {
      hold = undefined;
      release();
    },
  };
}

// Each test starts the console twice: test-support/process-deadline.ts.
describe.each(['SIGTERM', 'SIGKILL'] as const)(
  'a restart by %s',
  { timeout: PROCESS_TEST_TIMEOUT_MS },
  (signal) => {
    it('keeps the user signed in, and the stream reconnects and gets every incident once', async () => {
      const dataDir = tempDir();
      const port = await freePort();
      const first = await startConsole(dataDir, port);
      const cookie = await signIn(first, 'admin');
      const stream = openStream(first.url, cookie);
      await expect.poll(() => stream.readyCount()).toBe(1);

      const before = [await provokeIncident(first, cookie)];
      await expect.poll(() => stream.received).toEqual(before);
      // One more just before the signal: it may or may not reach the browser before the end.
      before.push(await provokeIncident(first, cookie));
      stream.holdReconnects();
      await stop(first, signal);

      // Back on the same address; the cookie from before the restart still works.
      const second = await startConsole(dataDir, port);
      expect((await second.request('/api/session', {}, cookie)).status).toBe(200);
      // Incidents while the browser is away.
      const whileAway = [
        await provokeIncident(second, cookie),
        await provokeIncident(second, cookie),
      ];
      const heldBeforeReconnect = stream.received.length;
      stream.releaseReconnects();
      await expect.poll(() => stream.readyCount(), { timeout: 15_000 }).toBe(2);
      const live = await provokeIncident(second, cookie);

      const expected = [...before, ...whileAway, live];
      await expect.poll(() => stream.received).toHaveLength(expected.length);
      // Every incident, in order, none twice.
      expect(stream.received).toEqual(expected);
      // It reconnected by itself, telling the console the last incident it had.
      expect(stream.connections[0]).toBeNull();
      expect(stream.connections.at(-1)).toMatch(/^\d+$/);
      console.info(
        `${signal}: ${new Set(stream.received).size} of ${expected.length} incidents received, ${
          stream.received.length - new Set(stream.received).size
        } twice; ${expected.length - 1 - heldBeforeReconnect} missed while away and replayed on reconnect`,
      );
    });
  },
);

describe.skipIf(!TEST_REDIS_URL)(
  `demo mode with REDIS_URL${TEST_REDIS_URL ? '' : ` (skipped: TEST_REDIS_URL is not set; ${NEEDS_SERVICES})`}`,
  { timeout: PROCESS_TEST_TIMEOUT_MS },
  () => {
    it('keeps sessions across a restart: its Redis keys do not move', async () => {
      const env = {
        REDIS_URL: TEST_REDIS_URL!,
        SESSION_SECRET: randomBytes(32).toString('base64url'),
      };
      const dataDir = tempDir();
      const port = await freePort();
      const first = await startConsole(dataDir, port, env);
      const cookie = await signIn(first, 'support');
      await stop(first, 'SIGTERM');
      // A new DATA_DIR: the session can only have come from Redis.
      const second = await startConsole(tempDir(), port, env);
      const session = await second.request('/api/session', {}, cookie);
      expect(session.status).toBe(200);
      expect(await session.json()).toMatchObject({ username: 'support' });
    });
  },
);
