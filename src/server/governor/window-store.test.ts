// The window stores keep one contract: a take over several windows counts in all of them or in
// none, and crowds of concurrent callers never share the last slot. Checked on the memory store
// always, and on one Redis (TEST_REDIS_URL) and a Redis Cluster (TEST_REDIS_CLUSTER_URL), where two
// replicas' governors share one limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimitRule } from '../../shared/rate-limits';
import { createLogger } from '../observability/logger';
import { closeRedis, connectRedis, type RedisClient } from '../redis/redis-connection';
import { connectionRedisKeys } from '../redis/redis-keys';
import { REDIS_ENGINES, testNamespace } from '../test-support/store-engines';
import { FailoverWindows } from './failover-windows';
import { Governor } from './governor';
import {
  createMemoryWindowStore,
  createRedisWindowStore,
  type WindowCounterStore,
} from './window-store';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 30);
const LOOKUP = {
  id: 'data-subject-basic-details-v4',
  method: 'GET',
  path: '/rest/api/consent/v4/datasubjects/basic-details',
};

/** The lookup's 1,000-a-minute rule, kept hard. */
const LOOKUP_RULE: RateLimitRule = {
  id: 'lookup-minute',
  name: '1k per minute',
  area: 'Test',
  scope: 'module',
  method: 'GET',
  path: LOOKUP.path,
  kind: 'hard',
  limits: [{ period: 'MINUTE', limit: 1_000, blockSeconds: 60, blockDocumented: false }],
  blocks: 'rule',
  violation: '429',
};

const logger = createLogger('silent');
/** One connection per Redis engine that is configured, opened before the suites run. */
const connections = new Map<string, RedisClient>();
beforeAll(async () => {
  for (const { name, url } of REDIS_ENGINES) {
    if (url) connections.set(name, await connectRedis({ url, logger }));
  }
});
afterAll(async () => {
  for (const connection of connections.values()) await closeRedis(connection);
});

/** A store under a namespace of its own, named as the console names its governor's keys. */
const redisStore = (name: string) => () =>
  createRedisWindowStore(connections.get(name)!, connectionRedisKeys(testNamespace()).governor);

const engines: Array<[string, () => WindowCounterStore]> = [
  ['memory', () => createMemoryWindowStore()],
  ...REDIS_ENGINES.filter(({ url }) => url).map(({ name }): [string, () => WindowCounterStore] => [
    name,
    redisStore(name),
  ]),
];

describe.each(engines)('%s window store', (_, makeStore) => {
  it('counts a take in every window, or in none when one window is full', async () => {
    const store = makeStore();
    const roomy = { keys: ['a:1', 'a:2'], limit: 10, ttlSeconds: 60 };
    const tight = { keys: ['b:1', 'b:2'], limit: 2, ttlSeconds: 60 };
    const counted = { keys: ['c:2'], limit: null, ttlSeconds: 60 };
    await store.add('b:1', 1, 60);
    expect(await store.take([roomy, tight, counted])).toEqual({
      taken: true,
      counts: [[0, 0], [1, 0], [0]],
    });
    // b holds 2 of 2 now: the next take is refused and counts nowhere.
    expect(await store.take([roomy, tight, counted])).toEqual({
      taken: false,
      counts: [[0, 1], [1, 1], [1]],
    });
    expect(await store.read(['a:2', 'b:2', 'c:2'])).toEqual([1, 1, 1]);
    // A window only counted never refuses.
    expect((await store.take([{ ...counted, limit: null }])).taken).toBe(true);
    expect(await store.add('c:2', -1, 60)).toBe(1);
  });

  it('gives exactly the limit to a crowd of concurrent takes', async () => {
    const store = makeStore();
    const window = { keys: ['w:1', 'w:2'], limit: 50, ttlSeconds: 60 };
    const results = await Promise.all(Array.from({ length: 120 }, () => store.take([window])));
    expect(results.filter((result) => result.taken)).toHaveLength(50);
    expect(await store.read(['w:1', 'w:2'])).toEqual([0, 50]);
  });
});

describe.each(REDIS_ENGINES)('two replicas on $title', ({ url }) => {
  describe.skipIf(!url)('sharing one limit', () => {
    it('hold a 1,000-a-minute rule exactly under 1,500 concurrent lookups', async () => {
      const prefix = connectionRedisKeys(testNamespace()).governor;
      const clock = { now: T0 };
      const opened: FailoverWindows[] = [];
      const replica = async () => {
        // Each replica has its own connection, as separate processes do. The test machine may be
        // busy: a slow answer must not count as Redis being away here.
        const connection = await connectRedis({
          url: url!,
          logger,
          commandTimeoutMs: 20_000,
        });
        const windows = new FailoverWindows({
          primary: createRedisWindowStore(connection, prefix),
          probe: () => connection.ping(),
          logger,
          replicas: 2,
          now: () => clock.now,
        });
        opened.push(windows);
        const governor = new Governor({
          tier: 'production',
          moduleRules: [LOOKUP_RULE],
          now: () => clock.now,
          store: windows.shared,
          fallback: { store: windows.local, share: 2, active: () => windows.isFallback() },
        });
        return { governor, windows, connection };
      };
      const replicas = [await replica(), await replica()];
      try {
        const results = await Promise.all(
          Array.from({ length: 1_500 }, (_, i) => replicas[i % 2]!.governor.acquire(LOOKUP)),
        );
        const refusals = results.filter((refusal) => refusal !== undefined);
        expect(results.length - refusals.length).toBe(1_000);
        expect(refusals.every((refusal) => refusal.refusing?.rule.id === 'lookup-minute')).toBe(
          true,
        );
        // Redis stayed reachable throughout: no replica fell back to its share.
        expect(replicas.map(({ windows }) => windows.isFallback())).toEqual([false, false]);
        // Both replicas see the one shared count, and the account limits counted only what passed.
        for (const { governor } of replicas) {
          const usage = await governor.usage();
          expect(usage.find((u) => u.ruleId === 'lookup-minute')?.used).toBe(1_000);
          expect(usage.find((u) => u.ruleId === 'account-minute')?.used).toBe(1_000);
        }
        // A minute later the window has room again.
        clock.now += 61_000;
        expect(await replicas[1]!.governor.acquire(LOOKUP)).toBeUndefined();
      } finally {
        for (const { windows, connection } of replicas) {
          windows.close();
          await closeRedis(connection);
        }
      }
    }, 30_000);
  });
});
