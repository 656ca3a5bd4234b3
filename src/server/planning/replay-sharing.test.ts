// How replays share a replica, as an operator sees it: a replay's work runs in its own thread, so
// the console answers /healthz while one is busy; one replay too many is a 429 with Retry-After
// saying a replay is already running; the same request while one runs gets that one's result
// from one computation; and a replay whose browser went away has its thread ended. The replays
// run in a controllable stand-in worker that blocks until the test releases it.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { Hono } from 'hono';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { WhatIfResult } from '../../shared/planning';
import { ProblemSchema } from '../../shared/problem';
import type { AppEnv } from '../http/app-env';
import { HttpProblem, problemResponse } from '../http/problem';
import { planningDeps } from '../test-support/planning-deps';
import { openDatabase } from '../store/database';
import { IntegrationStore } from '../integrations/integration-store';
import { planningRoutes } from './planning-routes';
import { ReplayGate } from './replay-gate';
import { workerReplays } from './replay-runner';

// The stand-in: counts the replays it starts, then blocks its thread (as a replay's synchronous
// queries would) until the test sets the release flag, and answers a fixed result.
const STAND_IN = `
const { parentPort, workerData } = require('node:worker_threads');
const flags = new Int32Array(workerData.shared);
parentPort.once('message', (job) => {
  Atomics.add(flags, 0, 1);
  Atomics.notify(flags, 0);
  while (Atomics.load(flags, 1) === 0) Atomics.wait(flags, 1, 0, 20);
  parentPort.postMessage({ result: { period: job.request.period, requests: 42 } });
});
`;

/** Atomics.waitAsync (Node 16+), which the project's ES2023 library types do not declare yet. */
const { waitAsync } = Atomics as unknown as {
  waitAsync: (array: Int32Array, index: number, value: number) => { value: Promise<unknown> };
};

const request = (period: 'hour' | 'day') => ({
  policy: { kind: 'published', version: 'per-endpoint' },
  period,
});

async function setUp(limit: number) {
  const shared = new SharedArrayBuffer(8);
  const flags = new Int32Array(shared);
  const workers: Worker[] = [];
  const db = await openDatabase();
  const deps = planningDeps(db, new IntegrationStore(db, Date.now), Date.now());
  const app = new Hono<AppEnv>()
    .get('/healthz', (c) => c.text('ok'))
    .route(
      '/api/planning',
      planningRoutes({
        ...deps,
        replays: {
          gate: new ReplayGate<WhatIfResult>({ limit }),
          run: workerReplays({
            database: { kind: 'sqlite', dataDir: 'unused-by-the-stand-in' },
            connection: DEFAULT_CONNECTION,
            deps,
            spawn: () => {
              const worker = new Worker(STAND_IN, { eval: true, workerData: { shared } });
              workers.push(worker);
              return worker;
            },
          }),
        },
      }),
    );
  app.onError((error, c) =>
    error instanceof HttpProblem
      ? problemResponse(c, error.problem, error.headers)
      : c.text('', 500),
  );
  const replay = (body: unknown, signal?: AbortSignal) =>
    Promise.resolve(
      app.request('/api/planning/what-if', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      }),
    );
  /** Resolves once `count` replays have started their work in a thread. */
  const started = async (count: number) => {
    for (;;) {
      const now = Atomics.load(flags, 0);
      if (now >= count) return;
      await waitAsync(flags, 0, now).value;
    }
  };
  const release = () => {
    Atomics.store(flags, 1, 1);
    Atomics.notify(flags, 1);
  };
  return {
    app,
    replay,
    started,
    release,
    workers,
    close: async () => {
      release();
      await Promise.all(workers.map((worker) => worker.terminate()));
      await db.close();
    },
  };
}

describe('replays sharing a replica', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('answers /healthz while a replay’s work blocks its thread', async () => {
    const h = await setUp(2);
    close = h.close;
    const pending = h.replay(request('day'));
    await h.started(1);
    const health = await h.app.request('/healthz');
    expect(health.status).toBe(200);
    h.release();
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ period: 'day', requests: 42 });
  });

  it('refuses one replay too many with 429, Retry-After and a message saying one is running', async () => {
    const h = await setUp(1);
    close = h.close;
    const first = h.replay(request('day'));
    await h.started(1);
    const refused = await h.replay(request('hour'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const problem = ProblemSchema.parse(await refused.json());
    expect(problem.type).toBe('/problems/replay-busy');
    expect(problem.detail).toContain('A replay is already running');
    expect(problem.retryAfterSeconds).toBe(Number(refused.headers.get('retry-after')));
    h.release();
    expect((await first).status).toBe(200);
    expect(h.workers).toHaveLength(1);
  });

  it('gives two identical requests one computation and the same answer', async () => {
    const h = await setUp(1);
    close = h.close;
    const first = h.replay(request('day'));
    await h.started(1);
    // Identical once read: the same fields, written in another order.
    const second = h.replay({
      period: 'day',
      policy: { version: 'per-endpoint', kind: 'published' },
    });
    h.release();
    const [a, b] = await Promise.all([first, second]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await b.json()).toEqual(await a.json());
    expect(h.workers).toHaveLength(1);
  });

  it('ends a replay’s thread when its browser goes away, and frees its turn', async () => {
    const h = await setUp(1);
    close = h.close;
    const browser = new AbortController();
    const abandoned = h.replay(request('day'), browser.signal).catch((error: unknown) => error);
    await h.started(1);
    const [worker] = h.workers;
    const exited = new Promise((resolve) => worker?.once('exit', resolve));
    browser.abort();
    await abandoned;
    await exited; // the thread was ended while its work still blocked it
    const next = h.replay(request('hour'));
    await h.started(2);
    h.release();
    expect((await next).status).toBe(200);
  });
});
