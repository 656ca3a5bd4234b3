// The standalone mock upstream over real sockets: what a live-mode BFF, an e2e test or a benchmark
// sees, including the mock-only control routes and running the file as a process.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PATH } from './handlers/auth';
import { EVENT_TYPES_PATH } from './handlers/event-types';
import { startMockUpstreamServer, type MockUpstreamServer } from './server';
import { createMockState } from './state';
import { PROCESS_TEST_TIMEOUT_MS } from '../server/test-support/process-deadline';

let server: MockUpstreamServer;

beforeAll(async () => {
  server = await startMockUpstreamServer({
    port: 0,
    state: createMockState({ eventTypeCount: 1_000 }),
  });
});
afterEach(() => server.state.reset());
afterAll(() => server.close());

async function token(): Promise<string> {
  const response = await fetch(`${server.url}${TOKEN_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${btoa('demo-client:demo-secret')}`,
    },
    body: 'grant_type=client_credentials',
  });
  expect(response.status).toBe(200);
  return (await response.json()).access_token;
}

function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('startMockUpstreamServer', () => {
  it('listens on an ephemeral loopback port when asked for port 0', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('issues tokens and serves event types over HTTP with keep-alive', async () => {
    const accessToken = await token();
    const response = await fetch(
      `${server.url}${EVENT_TYPES_PATH}?modules=Assessments,Vendor%20Risk&objectTypes=Vendor`,
      { headers: { authorization: `Bearer ${accessToken}` } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('connection')).toBe('keep-alive');
    const rows = await response.json();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row: { objectTypeName?: string }) => row.objectTypeName === 'Vendor')).toBe(
      true,
    );

    const all = await fetch(`${server.url}${EVENT_TYPES_PATH}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(await all.json()).toHaveLength(1_000);
  });

  it('answers 401 without a token, and 404 JSON for a path the upstream does not have', async () => {
    expect((await fetch(`${server.url}${EVENT_TYPES_PATH}`)).status).toBe(401);
    const missing = await fetch(`${server.url}/api/unknown`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/json');
    expect(await missing.json()).toMatchObject({ status: 404 });
  });

  it('injects, lists and clears faults through the control routes', async () => {
    const created = await postJson('/__mock/faults', {
      operation: 'event-types',
      status: 429,
      count: 2,
    });
    expect(created.status).toBe(201);
    const fault = await created.json();
    expect(fault).toMatchObject({ operation: 'event-types', status: 429, remaining: 2 });

    const accessToken = await token();
    const limited = await fetch(`${server.url}${EVENT_TYPES_PATH}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ot-ratelimit-event-id')).toBe(fault.rateLimitEventId);
    expect(limited.headers.get('retry-after')).toBe('60');

    const pending = await (await fetch(`${server.url}/__mock/faults`)).json();
    expect(pending).toMatchObject([{ id: fault.id, remaining: 1 }]);

    expect((await fetch(`${server.url}/__mock/faults`, { method: 'DELETE' })).status).toBe(204);
    const after = await fetch(`${server.url}${EVENT_TYPES_PATH}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(after.status).toBe(200);
  });

  it('refuses an invalid fault with 400 naming the field', async () => {
    const response = await postJson('/__mock/faults', { operation: 'event-types', status: 'x' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: 'invalid_fault',
      issues: [expect.objectContaining({ path: 'status' })],
    });
    const notJson = await fetch(`${server.url}/__mock/faults`, { method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
  });

  it('reports counters and resets them', async () => {
    await token();
    await fetch(`${server.url}${EVENT_TYPES_PATH}`);
    const stats = await (await fetch(`${server.url}/__mock/stats`)).json();
    expect(stats).toMatchObject({
      tokenRequests: 1,
      tokensIssued: 1,
      requests: { token: 1, 'event-types': 1 },
    });

    expect((await fetch(`${server.url}/__mock/reset`, { method: 'POST' })).status).toBe(204);
    const cleared = await (await fetch(`${server.url}/__mock/stats`)).json();
    expect(cleared).toMatchObject({ tokenRequests: 0, requests: { 'event-types': 0 } });
  });

  it('stops accepting connections once closed', async () => {
    const other = await startMockUpstreamServer({ port: 0 });
    expect((await fetch(`${other.url}/__mock/stats`)).status).toBe(200);
    await other.close();
    await expect(fetch(`${other.url}/__mock/stats`)).rejects.toThrow();
  });
});

// Each test starts the mock as a process: test-support/process-deadline.ts.
describe('running src/mocks/server.ts directly', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const entry = fileURLToPath(new URL('./server.ts', import.meta.url));

  function run(env: Record<string, string>) {
    return spawn(process.execPath, ['--import', 'tsx', entry], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  it('prints its URL, serves, and exits cleanly on SIGTERM', async () => {
    const child = run({ MOCK_PORT: '0', MOCK_EVENT_TYPES: '50' });
    let output = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        output += chunk;
        const match = /^Mock upstream listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', () => reject(new Error(`exited early: ${output}`)));
    });
    const stats = await fetch(`${url}/__mock/stats`);
    expect(stats.status).toBe(200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('exits with one line naming a bad variable', async () => {
    const child = run({ MOCK_PORT: 'eighty' });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'Invalid MOCK_PORT: expected an integer from 0 to 65535',
    ]);
  });
});
