// Two BFF processes behind one Redis (and again behind a three-master Redis Cluster) and one
// PostgreSQL (scripts/start-test-services.sh) and one mock upstream, as an operator runs them behind a load balancer: a burst split across both stays
// within each limit; a 429 seen by replica A reaches a browser connected to replica B; killing A
// mid-burst loses no incident and no audit record; Redis stopped mid-run engages the per-replica
// fallback without breaking a limit, and the replicas share again when it is back.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockRateLimits } from '../mocks/rate-limits/mock-rate-limits';
import { startMockUpstreamServer, type MockUpstreamServer } from '../mocks/server';
import { createMockState } from '../mocks/state';
import type { RateLimitRule } from '../shared/rate-limits';
import { liveConsoleEnv, writeHarnessUsersFile } from './test-support/bff-harness';
import { spawnBff, type BffProcess } from './test-support/bff-process';
import { PROCESS_TEST_TIMEOUT_MS } from './test-support/process-deadline';
import {
  createTestSchema,
  REDIS_ENGINES,
  SCALE_OUT_SERVICES,
  scaleOutTitle,
  TEST_DATABASE_URL,
  type RedisEngine,
} from './test-support/store-engines';
import { startTcpProxy, type TcpProxy } from './test-support/tcp-proxy';
import { withPurpose } from './test-support/lookup-purpose';

/** The limit both the replicas and the mock keep: 30 a minute. */
const LIMIT = 30;

/** The mock upstream refuses event types over 30 a minute, as the real one would a hard quota. */
const EVENT_TYPES_QUOTA: RateLimitRule = {
  id: 'scale-out-test',
  name: '30 per minute',
  area: 'Test',
  scope: 'module',
  method: 'GET',
  path: '/api/audit/v4/audits/event-types',
  kind: 'hard',
  limits: [{ period: 'MINUTE', limit: LIMIT, blockSeconds: 60, blockDocumented: true }],
  blocks: 'rule',
  violation: '429 with rate-limit id and blocked duration',
};

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

interface Deployment {
  upstream: MockUpstreamServer;
  a: BffProcess;
  b: BffProcess;
  cookie: string;
  /** The relay in front of a single Redis (a cluster's redirections would bypass one). */
  redisProxy: TcpProxy | undefined;
  /** Requests the upstream received, token requests included. */
  received(): number;
  refusedByUpstream(): number;
}

/**
 * One mock upstream, Redis (one server through a relay the test can cut, or a cluster),
 * PostgreSQL, and two replicas.
 */
async function deploy(engine: RedisEngine): Promise<Deployment> {
  const limits = createMockRateLimits({ moduleRules: [EVENT_TYPES_QUOTA] });
  const upstream = await startMockUpstreamServer({
    port: 0,
    state: createMockState({ admission: limits.admission }),
    rateLimits: limits,
  });
  cleanups.push(() => upstream.close());
  const users = await writeHarnessUsersFile();
  cleanups.push(async () => users.remove());
  const schema = await createTestSchema(TEST_DATABASE_URL!);
  cleanups.push(() => schema.drop());
  let redisProxy: TcpProxy | undefined;
  let redisUrl = engine.url!;
  if (engine.name === 'Redis') {
    const redis = new URL(redisUrl);
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port) });
    cleanups.push(() => proxy.close());
    redisProxy = proxy;
    redisUrl = `redis://127.0.0.1:${proxy.port}`;
  }
  const env = {
    ...liveConsoleEnv(upstream, users.path),
    DATABASE_URL: schema.url,
    REDIS_URL: redisUrl,
    REPLICAS: '2',
    ACCOUNT_MINUTE_LIMIT: String(LIMIT),
    EVENT_TYPES_CACHE_SECONDS: '0',
  };
  const start = async () => {
    const bff = await spawnBff(env);
    cleanups.push(async () => {
      bff.kill('SIGKILL');
      await bff.exited;
    });
    return bff;
  };
  const [a, b] = await Promise.all([start(), start()]);
  // One sign-in serves both replicas: sessions live in Redis.
  const cookie = await a.signIn('admin');
  return {
    upstream,
    a,
    b,
    cookie,
    redisProxy,
    received: () => {
      const { requests } = upstream.state.stats();
      return Object.values(requests).reduce((sum, n) => sum + n, 0);
    },
    refusedByUpstream: () => limits.snapshot().refused,
  };
}

/** A live incident stream as a browser reads it. */
function openStream(bff: BffProcess, cookie: string) {
  let text = '';
  const controller = new AbortController();
  const ready = bff
    .request('/api/rate-limits/stream', { signal: controller.signal }, cookie)
    .then(async (response) => {
      const decoder = new TextDecoder();
      for await (const chunk of response.body!) {
        text += decoder.decode(chunk as Uint8Array, { stream: true });
      }
    })
    .catch(() => undefined);
  cleanups.push(async () => {
    controller.abort();
    await ready;
  });
  return {
    text: () => text,
    /** The keys of the incidents the stream delivered. */
    keys: () =>
      [...text.matchAll(/^event: incident\ndata: (.*)$/gm)].map(
        (match) => (JSON.parse(match[1]!) as { key: string }).key,
      ),
  };
}

// Each under a filter never asked before: the console keeps the last good answer of each filter and
// serves it during a block, so a request meant to meet the limit must not have one.
let freshFilter = 0;
const eventTypes = (bff: BffProcess, cookie: string) =>
  bff.request(`/api/event-types?modules=probe-${(freshFilter += 1)}`, {}, cookie);

describe.each(REDIS_ENGINES)('two BFF processes on $name and one PostgreSQL', (engine) => {
  // Each test starts two consoles as processes: test-support/process-deadline.ts.
  describe.skipIf(!SCALE_OUT_SERVICES || !engine.url)(
    scaleOutTitle(engine.title),
    { timeout: PROCESS_TEST_TIMEOUT_MS },
    () => {
      it('a burst split across both replicas stays within the limit, drawing no 429', async () => {
        const d = await deploy(engine);
        // Each replica fetches its token (two requests of the budget), as in steady running.
        expect((await eventTypes(d.a, d.cookie)).status).toBe(200);
        expect((await eventTypes(d.b, d.cookie)).status).toBe(200);
        const statuses: number[] = [];
        for (let i = 0; i < 30; i += 1) {
          const pair = await Promise.all([eventTypes(d.a, d.cookie), eventTypes(d.b, d.cookie)]);
          statuses.push(...pair.map((response) => response.status));
        }
        expect(d.received()).toBeLessThanOrEqual(LIMIT);
        expect(d.received()).toBeGreaterThanOrEqual(LIMIT - 4);
        expect(d.refusedByUpstream()).toBe(0);
        expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(30);
      });

      it('a 429 seen by replica A appears on the live stream of a browser on replica B', async () => {
        const d = await deploy(engine);
        const onB = openStream(d.b, d.cookie);
        await expect.poll(() => onB.text()).toContain('event: ready');
        d.upstream.state.injectFault({
          operation: 'event-types',
          status: 429,
          retryAfterSeconds: 5,
        });
        const refused = await eventTypes(d.a, d.cookie);
        expect(refused.status).toBe(429);
        const { incidentId } = await refused.json();
        await expect.poll(() => onB.keys(), { timeout: 2_000, interval: 20 }).toContain(incidentId);
        // And B honours the block without sending.
        const before = d.received();
        expect(await (await eventTypes(d.b, d.cookie)).json()).toMatchObject({
          limitedBy: 'upstream-block',
          incidentId,
        });
        expect(d.received()).toBe(before);
      });

      it('killing replica A mid-burst loses no incident and no audit record', async () => {
        const d = await deploy(engine);
        const onB = openStream(d.b, d.cookie);
        await expect.poll(() => onB.text()).toContain('event: ready');
        const answered: Array<{
          kind: 'lookup' | 'event-types';
          identifier?: string;
          body: unknown;
        }> = [];
        const send = async (bff: BffProcess, i: number) => {
          if (i % 3 === 0) {
            d.upstream.state.injectFault({
              operation: 'event-types',
              status: 429,
              retryAfterSeconds: 1,
            });
          }
          try {
            if (i % 2 === 0) {
              const identifier = `subject-${i}-${randomBytes(3).toString('hex')}@example.com`;
              const response = await bff.request(
                '/api/data-subjects/lookups',
                {
                  method: 'POST',
                  headers: { 'Content-Type': 'application/json' },
                  body: JSON.stringify(
                    withPurpose({ operation: 'v4-details', params: { identifier } }),
                  ),
                },
                d.cookie,
              );
              answered.push({ kind: 'lookup', identifier, body: await response.json() });
            } else {
              const response = await eventTypes(bff, d.cookie);
              answered.push({ kind: 'event-types', body: await response.json() });
            }
          } catch {
            // A's connections die with it: no answer, nothing promised.
          }
        };
        // No pacing is needed: the first 21 requests are in flight together, and A is killed once it
        // has answered some of its lookups while the rest of them are still open; the other 19 then
        // meet a dead A (refused at once) or a live B.
        const burst: Array<Promise<void>> = [];
        for (let i = 0; i < 40; i += 1) {
          burst.push(send(i % 2 === 0 ? d.a : d.b, i));
          if (i === 20) {
            // Mid-burst, once A has answered some lookups: each writes its audit intent and outcome
            // through the chain head's lock, so on a loaded machine they take a while.
            await expect
              .poll(() => answered.filter((entry) => entry.kind === 'lookup').length, {
                timeout: 20_000,
              })
              .toBeGreaterThan(5);
            d.a.kill('SIGKILL');
          }
        }
        await Promise.all(burst);
        expect((await d.a.exited).signal).toBe('SIGKILL');

        // Every incident a browser was told about is stored, and reached B's live stream.
        const told = answered
          .map(({ body }) => (body as { incidentId?: string }).incidentId)
          .filter((id): id is string => id !== undefined);
        expect(told.length).toBeGreaterThan(0);
        const history = await (
          await d.b.request('/api/rate-limits/incidents?limit=200', {}, d.cookie)
        ).json();
        const stored = history.items.map((incident: { key: string }) => incident.key);
        for (const id of told) expect(stored).toContain(id);
        await expect.poll(() => new Set(onB.keys())).toEqual(new Set(stored));

        // Every lookup that was answered, by either replica, is in the audit trail.
        const lookups = answered.filter((entry) => entry.kind === 'lookup');
        expect(lookups.length).toBeGreaterThan(5);
        for (const { identifier } of lookups) {
          const found = await d.b.request(
            '/api/audit-trail/search',
            {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ identifier }),
            },
            d.cookie,
          );
          expect((await found.json()).items).toHaveLength(1);
        }
      });

      // A cluster that loses a master mid-burst: scale-out/cluster-failover.test.ts.
      it.skipIf(engine.name === 'Redis Cluster')(
        'Redis stopped mid-run: fallback engaged, the limit kept; shared again when it is back',
        async () => {
          const d = await deploy(engine);
          const ready = async (bff: BffProcess) => (await fetch(`${bff.url}/readyz`)).json();
          for (let i = 0; i < 4; i += 1) {
            expect((await eventTypes(d.a, d.cookie)).status).toBe(200);
            expect((await eventTypes(d.b, d.cookie)).status).toBe(200);
          }
          expect(await ready(d.a)).toMatchObject({
            status: 'ok',
            checks: { governor: { mode: 'shared' } },
          });

          await d.redisProxy!.cut();
          for (let i = 0; i < 15; i += 1) {
            await Promise.all([eventTypes(d.a, d.cookie), eventTypes(d.b, d.cookie)]);
          }
          expect(d.received()).toBeLessThanOrEqual(LIMIT);
          for (const bff of [d.a, d.b]) {
            const response = await fetch(`${bff.url}/readyz`);
            // Still serving: every replica on its fallback at once must not empty the load balancer.
            expect(response.status).toBe(200);
            expect(await response.json()).toMatchObject({
              status: 'degraded',
              checks: { redis: { ok: false }, governor: { mode: 'fallback' } },
            });
          }

          await d.redisProxy!.restore();
          for (const bff of [d.a, d.b]) {
            await expect
              .poll(async () => (await ready(bff)).checks.governor.mode, { timeout: 15_000 })
              .toBe('shared');
          }
          for (let i = 0; i < 10; i += 1) {
            await Promise.all([eventTypes(d.a, d.cookie), eventTypes(d.b, d.cookie)]);
          }
          expect(d.received()).toBeLessThanOrEqual(LIMIT);
          expect(d.refusedByUpstream()).toBe(0);
        },
      );
    },
  );
});
