// A Redis Cluster that loses a master mid-burst: the replicas' shared windows live on one master
// (every key of a deployment shares one hash tag), so when it dies each replica falls back to its
// share of every limit (limit ÷ REPLICAS), as with one Redis that goes away, says so on /readyz,
// and nothing goes over a limit. The cluster is the test's own (redis-cluster.ts), so killing a
// node harms no other test file.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../observability/logger';
import { closeRedis, connectRedis } from '../redis/redis-connection';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';
import { REDIS_SERVER_INSTALLED, startTestRedisCluster } from '../test-support/redis-cluster';
import { listRedisKeys, NEEDS_SERVICES } from '../test-support/store-engines';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const LIMIT = 20;

/** Requests that reached the upstream from either replica, token requests included. */
const upstreamCalls = (...hs: BffHarness[]) => hs.reduce((sum, h) => sum + h.sent.length, 0);

// Each under a filter never asked before, so no cached answer stands in for an upstream call.
let freshFilter = 0;
const freshEventTypes = () => `/api/event-types?modules=probe-${(freshFilter += 1)}`;

describe.skipIf(!REDIS_SERVER_INSTALLED)(
  REDIS_SERVER_INSTALLED
    ? 'two replicas on a Redis Cluster that loses a master'
    : `two replicas on a Redis Cluster that loses a master (skipped: redis-server is not installed; ${NEEDS_SERVICES})`,
  () => {
    it('fall back to their share, say so on /readyz, and stay within the limit', async () => {
      const cluster = await startTestRedisCluster();
      cleanups.push(() => cluster.stop());
      const logger = createLogger('silent');
      const env = {
        EVENT_TYPES_CACHE_SECONDS: '0',
        REPLICAS: '2',
        ACCOUNT_MINUTE_LIMIT: String(LIMIT),
        SESSION_SECRET: randomBytes(32).toString('base64url'),
        AUDIT_KEY: randomBytes(32).toString('base64url'),
      };
      const start = async (upstream?: BffHarness['upstream']) => {
        const redis = await connectRedis({ url: cluster.url, logger });
        const h = await startBffHarness({ env, redis, ...(upstream ? { upstream } : {}) });
        cleanups.push(async () => {
          await h.close();
          await closeRedis(redis);
        });
        return { h, redis };
      };
      const { h: a, redis } = await start();
      const { h: b } = await start(a.upstream);
      cleanups.push(() => a.upstream.close());

      for (let i = 0; i < 4; i += 1) {
        expect((await a.request(freshEventTypes())).status).toBe(200);
        expect((await b.request(freshEventTypes())).status).toBe(200);
      }
      // Two tokens and eight event-type calls, counted in the shared windows.
      expect(upstreamCalls(a, b)).toBe(10);
      const [counter] = await listRedisKeys(redis, '*:governor:*');
      expect(counter).toMatch(/^\{console:[0-9a-f]{16}\}:governor:/);
      const master = await cluster.portOfKey(counter!);

      const statuses: number[] = [];
      for (let i = 0; i < 12; i += 1) {
        // Mid-burst, the master holding the deployment's slot dies.
        if (i === 2) cluster.kill(master);
        const pair = await Promise.all([a, b].map((h) => h.request(freshEventTypes())));
        statuses.push(...pair.map((response) => response.status));
      }
      // Never more than the limit in all: each replica kept at most 10 of the 20, counting what
      // it had sent while the windows were shared.
      expect(upstreamCalls(a, b)).toBeLessThanOrEqual(LIMIT);
      expect(statuses).toContain(429);
      for (const h of [a, b]) {
        const ready = await h.app.request('/readyz');
        // Still serving: every replica on its fallback at once must not empty the load balancer.
        expect(ready.status).toBe(200);
        expect(await ready.json()).toMatchObject({
          status: 'degraded',
          checks: {
            redis: { ok: false },
            governor: {
              ok: false,
              mode: 'fallback',
              detail: 'Redis unreachable: this replica keeps 1/2 of every limit',
            },
          },
        });
      }
      // A cluster of three masters started, joined and then cut takes seconds on a quiet machine
      // and far longer on a busy one; the deadline only bounds a hang.
    }, 180_000);
  },
);
