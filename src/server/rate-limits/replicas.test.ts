// Two replicas of one console in one process, sharing a real Redis (one server, and a Redis
// Cluster) and a real PostgreSQL (the services of scripts/start-test-services.sh) and one mock upstream: one budget, one sign-in, one
// set of blocks and incidents, and the per-replica fallback while Redis is unreachable.
import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../redis/redis-connection';
import { afterEach, describe, expect, it } from 'vitest';
import type { Incident } from '../../shared/incident';
import { createLogger } from '../observability/logger';
import { closeRedis, connectRedis } from '../redis/redis-connection';
import type { SqlDatabase } from '../store/database';
import { openPostgresDatabase } from '../store/postgres-database';
import {
  startBffHarness,
  writeHarnessUsersFile,
  type BffHarness,
} from '../test-support/bff-harness';
import {
  createTestSchema,
  REDIS_ENGINES,
  SCALE_OUT_SERVICES,
  scaleOutTitle,
  TEST_DATABASE_URL,
} from '../test-support/store-engines';
import { startTcpProxy, type TcpProxy } from '../test-support/tcp-proxy';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts replicas A and B of one console against one mock upstream. */
async function replicas(options: {
  /** REDIS_URL: one server or a cluster's seeds. */
  redisUrl: string;
  env?: Record<string, string>;
  cutRedis?: boolean;
  cutDatabase?: boolean;
  sharedDatabase?: boolean;
}) {
  const logger = createLogger('silent');
  const schema = await createTestSchema(TEST_DATABASE_URL!);
  cleanups.push(() => schema.drop());
  let databaseProxy: TcpProxy | undefined;
  let databaseUrl = schema.url;
  if (options.cutDatabase) {
    const target = new URL(schema.url);
    databaseProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    cleanups.push(() => databaseProxy!.close());
    target.port = String(databaseProxy.port);
    databaseUrl = target.toString();
  }
  let proxy: TcpProxy | undefined;
  let redisUrl = options.redisUrl;
  if (options.cutRedis) {
    const target = new URL(options.redisUrl);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    cleanups.push(() => proxy!.close());
    redisUrl = `redis://127.0.0.1:${proxy.port}`;
  }
  // Both replicas' clock: a test moves it past a block instead of waiting the block out.
  const clock = { offsetMs: 0 };
  // Replicas of one console read one users file: a session is bound to the version of its user's
  // entry (the password hash's salt included), so each replica writing its own would disagree.
  const usersFile = await writeHarnessUsersFile();
  cleanups.push(async () => usersFile.remove());
  const env = {
    CONSOLE_USERS_FILE: usersFile.path,
    EVENT_TYPES_CACHE_SECONDS: '0',
    REPLICAS: '2',
    // Every replica of one console has the same secrets.
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    AUDIT_KEY: randomBytes(32).toString('base64url'),
    ...options.env,
  };
  const start = async (upstream?: BffHarness['upstream']) => {
    // Without a shared database each replica keeps its incidents in memory of its own.
    const database: SqlDatabase | undefined =
      options.sharedDatabase === false
        ? undefined
        : await openPostgresDatabase({ url: databaseUrl, logger });
    const redis: RedisClient = await connectRedis({ url: redisUrl, logger });
    const h = await startBffHarness({
      env,
      now: () => Date.now() + clock.offsetMs,
      redis,
      ...(database ? { database } : {}),
      ...(upstream ? { upstream } : {}),
    });
    cleanups.push(async () => {
      await h.close();
      await closeRedis(redis);
      await database?.close();
    });
    return h;
  };
  const a = await start();
  const b = await start(a.upstream);
  cleanups.push(() => a.upstream.close());
  return { a, b, proxy, databaseProxy, clock };
}

/** Requests that reached the upstream from either replica. */
const upstreamCalls = (...hs: BffHarness[]) => hs.reduce((sum, h) => sum + h.sent.length, 0);

// Event types under a filter never asked before: the console keeps the last good answer of each
// filter and serves it during a block, so a request meant to meet the limit must not have one.
let freshFilter = 0;
const freshEventTypes = () => `/api/event-types?modules=probe-${(freshFilter += 1)}`;

describe.each(REDIS_ENGINES)('two replicas on $name and one PostgreSQL', (engine) => {
  /** Replicas on this engine. */
  const deploy = (options: Omit<Parameters<typeof replicas>[0], 'redisUrl'> = {}) =>
    replicas({ ...options, redisUrl: engine.url! });

  describe.skipIf(!SCALE_OUT_SERVICES || !engine.url)(scaleOutTitle(engine.title), () => {
    it('share one budget: a burst split across both stays within the account limit', async () => {
      const { a, b } = await deploy({ env: { ACCOUNT_MINUTE_LIMIT: '20' } });
      // Each replica holds its token first (two of the twenty), as in steady running.
      expect((await a.request('/api/event-types')).status).toBe(200);
      expect((await b.request('/api/event-types')).status).toBe(200);
      // Pairs at once, one to each replica (identical concurrent requests to one replica would be
      // coalesced into one upstream call).
      const statuses: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        const pair = await Promise.all([a, b].map((h) => h.request(freshEventTypes())));
        statuses.push(...pair.map((response) => response.status));
      }
      // Token requests count toward the account limit too.
      expect(upstreamCalls(a, b)).toBeLessThanOrEqual(20);
      expect(upstreamCalls(a, b)).toBeGreaterThanOrEqual(15);
      expect(statuses.filter((s) => s === 200).length).toBe(upstreamCalls(a, b) - 4);
      expect(new Set(statuses)).toEqual(new Set([200, 429]));
    }, 20_000);

    it('each replica records its own calls, and a what-if on either replays both once', async () => {
      const { a, b } = await deploy();
      for (const h of [a, b, a]) expect((await h.request(freshEventTypes())).status).toBe(200);
      await Promise.all([a, b].map((h) => h.planning.consoleTraffic.flush()));
      const replayed = await Promise.all(
        [a, b].map(async (h) => {
          const answer = await h.request('/api/planning/what-if', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({
              period: 'hour',
              policy: { kind: 'published', version: 'per-endpoint' },
            }),
          });
          expect(answer.status).toBe(200);
          return ((await answer.json()) as { requests: number }).requests;
        }),
      );
      // Token requests and event-type fetches of both replicas, each counted once.
      expect(replayed).toEqual([upstreamCalls(a, b), upstreamCalls(a, b)]);
    });

    it('sign in on one replica, signed in on both; sign out on one, signed out on both', async () => {
      const { a, b } = await deploy();
      const cookie = await a.signIn('support');
      const session = await b.request('/api/session', { headers: { Cookie: cookie } });
      expect(session.status).toBe(200);
      expect(await session.json()).toMatchObject({ username: 'support', role: 'support' });
      expect(
        (await b.request('/api/session', { method: 'DELETE', headers: { Cookie: cookie } })).status,
      ).toBeLessThan(300);
      expect((await a.request('/api/session', { headers: { Cookie: cookie } })).status).toBe(204);
    });

    it('a 429 on one replica blocks the other at once and reaches its live streams', async () => {
      const { a, b } = await deploy();
      const seenByB: Incident[] = [];
      b.rateLimiting.hub.subscribe((incident) => seenByB.push(incident));
      // B has its token already: what B sends from now on is visible in b.sent.
      expect((await b.request('/api/event-types')).status).toBe(200);
      const sentByB = b.sent.length;

      a.mock.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 30 });
      const refused = await a.request(freshEventTypes());
      expect(refused.status).toBe(429);
      const { incidentId } = await refused.json();

      await expect.poll(() => seenByB.map((incident) => incident.key)).toContain(incidentId);
      const held = await b.request(freshEventTypes());
      expect(held.status).toBe(429);
      expect(await held.json()).toMatchObject({ limitedBy: 'upstream-block', incidentId });
      expect(b.sent.length).toBe(sentByB);
      const history = await (await b.request('/api/rate-limits/incidents')).json();
      expect(history.items.map((i: Incident) => i.key)).toEqual([incidentId]);
    });

    it('blocks travel through Redis too, before the incident is even stored', async () => {
      const { a, b } = await deploy({ sharedDatabase: false });
      expect((await b.request('/api/event-types')).status).toBe(200);
      const sentByB = b.sent.length;
      a.mock.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 30 });
      const { incidentId } = await (await a.request(freshEventTypes())).json();
      // Only Redis can have told B (no shared database): on a cluster the announcement may cross
      // the cluster bus first, so wait for B to hold the block, then ask it.
      await expect.poll(() => b.rateLimiting.governor.activeBlocks().length).toBeGreaterThan(0);
      expect((await (await b.request(freshEventTypes())).json()).incidentId).toBe(incidentId);
      expect(b.sent.length).toBe(sentByB);
    });

    // A relay in front of a cluster is bypassed by its redirections: a cluster that loses a master is
    // in cluster-failover.test.ts.
    it.skipIf(engine.name === 'Redis Cluster')(
      'Redis unreachable: each keeps its share, users stay signed in; back: shared again',
      async () => {
        const { a, b, proxy } = await deploy({
          cutRedis: true,
          env: { ACCOUNT_MINUTE_LIMIT: '20' },
        });
        for (let i = 0; i < 4; i += 1) {
          expect((await a.request('/api/event-types')).status).toBe(200);
          expect((await b.request('/api/event-types')).status).toBe(200);
        }
        expect(upstreamCalls(a, b)).toBe(10);

        await proxy!.cut();
        const during = [];
        for (let i = 0; i < 10; i += 1) {
          during.push((await a.request(freshEventTypes())).status);
          during.push((await b.request(freshEventTypes())).status);
        }
        // Never more than the limit in all, however the two shares were used before.
        expect(upstreamCalls(a, b)).toBeLessThanOrEqual(20);
        expect(during).toContain(429);
        const ready = await a.app.request('/readyz');
        expect(ready.status).toBe(200);
        expect(await ready.json()).toMatchObject({
          status: 'degraded',
          checks: { redis: { ok: false }, governor: { ok: false, mode: 'fallback' } },
        });

        await proxy!.restore();
        await expect
          .poll(async () => (await (await b.app.request('/readyz')).json()).checks.governor.mode, {
            timeout: 15_000,
            interval: 250,
          })
          .toBe('shared');
        await expect
          .poll(async () => (await (await a.app.request('/readyz')).json()).status, {
            timeout: 15_000,
            interval: 250,
          })
          .toBe('ok');
        for (let i = 0; i < 5; i += 1) {
          await a.request('/api/event-types');
          await b.request('/api/event-types');
        }
        expect(upstreamCalls(a, b)).toBeLessThanOrEqual(20);
        expect(a.mock.stats().requests['event-types']).toBe(upstreamCalls(a, b) - 2);
      },
      40_000,
    );

    it('PostgreSQL unreachable at run time: /readyz fails, answers still reach the browser', async () => {
      const { a, b, databaseProxy, clock } = await deploy({ cutDatabase: true });
      const seenByB: Incident[] = [];
      b.rateLimiting.hub.subscribe((incident) => seenByB.push(incident));
      expect((await a.request('/api/event-types')).status).toBe(200);

      await databaseProxy!.cut();
      expect((await a.request('/api/event-types')).status).toBe(200);
      a.mock.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 1 });
      const refused = await a.request(freshEventTypes());
      expect(refused.status).toBe(429);
      expect((await refused.json()).incidentId).toEqual(expect.any(String));
      const ready = await a.app.request('/readyz');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({
        checks: { store: { ok: false }, incidentWrites: { ok: false } },
      });

      await databaseProxy!.restore();
      // The 1 s block ends on the replicas' clock, not by waiting.
      clock.offsetMs += 1_100;
      // The next incident is stored again, and reaches the other replica once its LISTEN is back.
      a.mock.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 1 });
      const later = await (await a.request(freshEventTypes())).json();
      await expect
        .poll(() => seenByB.map((incident) => incident.key), { timeout: 10_000 })
        .toContain(later.incidentId);
      await expect
        .poll(async () => (await a.app.request('/readyz')).status, { timeout: 10_000 })
        .toBe(200);
    }, 30_000);
  });
});
