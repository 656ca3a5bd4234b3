// The BFF as an operator runs it, as a real process: SIGTERM drains it gracefully (the request in
// flight is answered, live streams end so browsers reconnect elsewhere, what was stored survives,
// the process leaves well within 10 s), and a wrong DATABASE_URL or REDIS_URL stops start with one
// line that names the server but never its password.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstreamServer, type MockUpstreamServer } from '../mocks/server';
import { writeHarnessUsersFile } from './test-support/bff-harness';
import { runBff, spawnBff } from './test-support/bff-process';
import { freePort } from './test-support/free-port';
import { PROCESS_TEST_TIMEOUT_MS } from './test-support/process-deadline';
import { TEST_REDIS_CLUSTER_URL } from './test-support/store-engines';

let upstream: MockUpstreamServer;
let users: Awaited<ReturnType<typeof writeHarnessUsersFile>>;
let dataDir: string;

beforeAll(async () => {
  upstream = await startMockUpstreamServer({ port: 0 });
  users = await writeHarnessUsersFile();
  dataDir = mkdtempSync(join(tmpdir(), 'console-process-'));
});
afterAll(async () => {
  await upstream?.close();
  users?.remove();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A live-mode console against the test's mock upstream. */
function liveEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    UPSTREAM_BASE_URL: upstream.url,
    OAUTH_CLIENT_ID: upstream.state.clientId,
    OAUTH_CLIENT_SECRET: upstream.state.clientSecret,
    CONSOLE_USERS_FILE: users.path,
    SESSION_SECRET: 'process-test-session-secret-0123456789',
    AUDIT_KEY: 'process-test-audit-key-0123456789abcdef',
    DATA_DIR: dataDir,
    EVENT_TYPES_CACHE_SECONDS: '0',
    ...extra,
  };
}

/** Reads an SSE body until it ends; resolves to what it carried. */
async function readToEnd(body: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) text += decoder.decode(chunk, { stream: true });
  return text;
}

// Each test starts the console as a process: test-support/process-deadline.ts.
describe('graceful shutdown on SIGTERM', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('answers the request in flight, ends live streams, keeps what it stored, exits 0', async () => {
    const bff = await spawnBff(liveEnv());
    const cookie = await bff.signIn('admin');
    expect((await bff.request('/api/event-types', {}, cookie)).status).toBe(200);
    // A request in flight: the upstream has it and answers in 3 s.
    upstream.state.injectFault({ operation: 'event-types', status: 200, delayMs: 3_000 });
    const inFlight = bff.request('/api/event-types', {}, cookie);
    await expect.poll(() => upstream.state.pendingFaults()).toEqual([]);
    // An incident stored just before the signal (its block holds back only later calls).
    upstream.state.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 1 });
    // A filter never asked before: the last good answer of the unfiltered list would stand in.
    const refused = await bff.request('/api/event-types?modules=Consent', {}, cookie);
    expect(refused.status).toBe(429);
    const { incidentId } = await refused.json();

    const stream = await bff.request('/api/rate-limits/stream', {}, cookie);
    expect(stream.status).toBe(200);
    const streamed = readToEnd(stream.body!);

    const signalledAt = Date.now();
    bff.kill('SIGTERM');
    // The stream ends at once: the browser's EventSource reconnects to another replica.
    expect(await streamed).toContain('event: ready');
    expect(Date.now() - signalledAt).toBeLessThan(1_000);
    // No new connections…
    await expect(fetch(`${bff.url}/healthz`)).rejects.toThrow();
    // …but the request in flight gets its answer.
    expect((await inFlight).status).toBe(200);
    expect(await bff.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(10_000);

    // The next process on the same DATA_DIR has the incident.
    const next = await spawnBff(liveEnv());
    try {
      const history = await next.request('/api/rate-limits/incidents', {}, await next.signIn());
      expect((await history.json()).items.map((i: { key: string }) => i.key)).toContain(incidentId);
    } finally {
      next.kill('SIGTERM');
      await next.exited;
    }
  });
});

describe(
  'a wrong DATABASE_URL or REDIS_URL stops start with one line',
  { timeout: PROCESS_TEST_TIMEOUT_MS },
  () => {
    /** The lines the process printed (ignoring blank ones), and its exit. */
    async function startFails(env: Record<string, string>) {
      const run = runBff(liveEnv({ PORT: String(await freePort()), ...env }));
      const exit = await run.exited;
      return {
        exit,
        lines: run
          .output()
          .split('\n')
          .filter((line) => line.trim() !== ''),
      };
    }

    it('a PostgreSQL server that does not answer', async () => {
      const port = await freePort();
      const password = randomBytes(8).toString('hex');
      const { exit, lines } = await startFails({
        DATABASE_URL: `postgres://console:${password}@127.0.0.1:${port}/console`,
      });
      expect(exit.code).toBe(1);
      expect(lines).toEqual([
        `Storage error: could not open PostgreSQL at 127.0.0.1:${port}/console: connect ECONNREFUSED 127.0.0.1:${port}`,
      ]);
      expect(lines.join('\n')).not.toContain(password);
    });

    it('a Redis server that does not answer', async () => {
      const port = await freePort();
      const password = randomBytes(8).toString('hex');
      const { exit, lines } = await startFails({
        REDIS_URL: `redis://:${password}@127.0.0.1:${port}/2`,
      });
      expect(exit.code).toBe(1);
      expect(lines).toEqual([
        `Redis error: could not connect to Redis at 127.0.0.1:${port}/2: connect ECONNREFUSED 127.0.0.1:${port}`,
      ]);
      expect(lines.join('\n')).not.toContain(password);
    });

    it('a Redis Cluster none of whose seed nodes answers', async () => {
      const ports = [await freePort(), await freePort()];
      const password = randomBytes(8).toString('hex');
      const { exit, lines } = await startFails({
        REDIS_URL: `redis+cluster://:${password}@127.0.0.1:${ports[0]},127.0.0.1:${ports[1]}`,
      });
      expect(exit.code).toBe(1);
      expect(lines).toEqual([
        `Redis error: could not connect to the Redis Cluster in REDIS_URL (tried 127.0.0.1:${ports[0]}, 127.0.0.1:${ports[1]}): no seed node accepted a connection`,
      ]);
      expect(lines.join('\n')).not.toContain(password);
    });

    // Before: "Startup error: CROSSSLOT Keys in request don't hash to the same slot".
    it.skipIf(!TEST_REDIS_CLUSTER_URL)(
      'a plain redis:// URL naming a node of a Redis Cluster',
      async () => {
        const node = TEST_REDIS_CLUSTER_URL!.replace(/^redis\+cluster:\/\//, '').split(',')[0]!;
        const { exit, lines } = await startFails({ REDIS_URL: `redis://${node}` });
        expect(exit.code).toBe(1);
        expect(lines).toEqual([
          `Redis error: Redis at ${node}/0 is a node of a Redis Cluster: name its nodes as redis+cluster://host1:port,host2:port in REDIS_URL, or set REDIS_CLUSTER=true`,
        ]);
      },
    );

    it('a URL of the wrong kind', async () => {
      const { exit, lines } = await startFails({ DATABASE_URL: 'mysql://root:hunter2@db/console' });
      expect(exit.code).toBe(1);
      expect(lines).toEqual([
        'Configuration error: DATABASE_URL must be a postgres:// or postgresql:// URL',
      ]);
    });
  },
);

describe('a store that cannot be opened at start', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('says what is wrong in one line and keeps serving what does not need the store', async () => {
    const garbageDir = mkdtempSync(join(tmpdir(), 'console-garbage-'));
    writeFileSync(join(garbageDir, 'console.sqlite'), 'not a database at all '.repeat(300));
    const bff = await spawnBff(liveEnv({ DATA_DIR: garbageDir }));
    try {
      const storageLines = bff
        .output()
        .split('\n')
        .filter((line) => line.startsWith('Storage error'));
      expect(storageLines).toEqual([
        `Storage error: ${join(garbageDir, 'console.sqlite')} is not a SQLite database: move it aside (the console then starts with an empty store) or restore it from a backup. Serving without the store (no incidents or lookups recorded) and retrying every 5 s.`,
      ]);
      const cookie = await bff.signIn('admin');
      expect((await bff.request('/api/event-types', {}, cookie)).status).toBe(200);
      const ready = await bff.request('/readyz');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({
        checks: { store: { ok: false, error: expect.stringContaining('not a SQLite database') } },
      });
      const incidents = await bff.request('/api/rate-limits/incidents', {}, cookie);
      expect(incidents.status).toBe(503);
      expect(await incidents.text()).not.toContain(garbageDir);
    } finally {
      bff.kill();
      await bff.exited;
      rmSync(garbageDir, { recursive: true, force: true });
    }
  });
});
