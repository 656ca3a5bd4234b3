// Sessions in a real Redis (TEST_REDIS_URL) and a real Redis Cluster (TEST_REDIS_CLUSTER_URL):
// seen by every replica, ended everywhere by a sign-out, expired by idle time and maximum age,
// stored under a hash of the id only, and kept for the users a replica has seen while Redis is
// unreachable; and failed sign-ins counted across replicas.
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../observability/logger';
import { HttpProblem } from '../http/problem';
import { closeRedis, connectRedis, type RedisClient } from '../redis/redis-connection';
import { consoleRedisKeys } from '../redis/redis-keys';
import {
  listRedisKeys,
  REDIS_ENGINES,
  testNamespace,
  type RedisEngine,
} from '../test-support/store-engines';
import {
  CONTRACT_IDLE_MS,
  CONTRACT_MAX_AGE_MS,
  sessionStoreContract,
} from '../test-support/session-store-contract';
import { startTcpProxy } from '../test-support/tcp-proxy';
import { RedisSessionStore } from './redis-session-store';
import { DEFAULT_SIGN_IN_THROTTLE, SignInThrottle } from './sign-in-throttle';

const user = { username: 'admin', role: 'admin' as const };
const password = { method: 'password' as const };
const logger = createLogger('silent');

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(REDIS_ENGINES)('RedisSessionStore on $title', (engine: RedisEngine) => {
  const connect = async (url = engine.url!): Promise<RedisClient> => {
    const redis = await connectRedis({ url, logger });
    cleanups.push(() => closeRedis(redis));
    return redis;
  };

  /** Two replicas' stores on one Redis, under a namespace of their own. */
  const replicas = async (clock: { now: number }, url?: string) => {
    const keys = consoleRedisKeys(testNamespace());
    const store = async () =>
      new RedisSessionStore({
        redis: await connect(url),
        keys,
        idleMs: CONTRACT_IDLE_MS,
        maxAgeMs: CONTRACT_MAX_AGE_MS,
        now: () => clock.now,
      });
    return { a: await store(), b: await store(), keys };
  };

  describe.skipIf(!engine.url)(engine.name, () => {
    sessionStoreContract(
      async (clock) => {
        const { a, b, keys: names } = await replicas(clock);
        const dump = async () => {
          const redis = await connect();
          const keys = await listRedisKeys(redis, `${names.tag}:*`);
          const values = await Promise.all(
            keys.map(async (key) =>
              (await redis.type(key)) === 'zset'
                ? redis.zrangebyscore(key, '-inf', '+inf')
                : redis.get(key),
            ),
          );
          return JSON.stringify({ keys, values });
        };
        return { a, b, dump };
      },
      { outlivesProcess: true },
    );

    // A relay in front of a cluster is bypassed by its redirections: the cluster's own fault (a
    // master lost) is in scale-out/cluster-failover.test.ts.
    it.skipIf(engine.name === 'Redis Cluster')(
      'while Redis is away: seen users stay signed in, sign-outs apply when it is back',
      async () => {
        const target = new URL(engine.url!);
        const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
        cleanups.push(() => proxy.close());
        const clock = { now: Date.now() };
        const { a, b } = await replicas(clock, `redis://127.0.0.1:${proxy.port}`);
        const alice = await a.create(user, password);
        const bob = await a.create({ username: 'support' }, password);
        expect(await b.touch(alice.id)).toBeDefined();

        await proxy.cut();
        expect(await b.touch(alice.id)).toMatchObject({ username: 'admin' });
        // B has never seen Bob's session: it cannot tell, and says so instead of signing him out.
        const unknown = await b.touch(bob.id).catch((error: unknown) => error);
        expect(unknown).toBeInstanceOf(HttpProblem);
        expect((unknown as HttpProblem).problem).toMatchObject({
          status: 503,
          type: '/problems/store-unavailable',
        });
        await expect(a.create(user, password)).rejects.toBeInstanceOf(HttpProblem);
        await a.delete(alice.id);
        expect(await a.touch(alice.id)).toBeUndefined();

        await proxy.restore();
        // Once Redis answers, A's sign-out reaches it, and B no longer accepts the session.
        await expect
          .poll(async () => (await b.touch(alice.id).catch(() => 'down')) ?? 'signed out', {
            timeout: 10_000,
          })
          .toBe('signed out');
        expect(await b.touch(bob.id)).toMatchObject({ username: 'support' });
      },
      20_000,
    );

    /** The sign-in throttles of two replicas sharing one Redis namespace of their own. */
    async function throttlesOfTwoReplicas(): Promise<[SignInThrottle, SignInThrottle]> {
      const keys = consoleRedisKeys(testNamespace());
      const shared = async () =>
        new SignInThrottle(DEFAULT_SIGN_IN_THROTTLE, { redis: await connect(), keys });
      return [await shared(), await shared()];
    }

    it('counts failed sign-ins across replicas: guesses spread over both lock out as on one', async () => {
      const [a, b] = await throttlesOfTwoReplicas();
      const attempt = { username: 'admin', address: '192.0.2.7' };
      for (let failure = 1; failure <= 3; failure += 1) {
        const replica = failure % 2 === 0 ? b : a;
        const { reserved } = await replica.reserve(attempt);
        await replica.recordFailure(reserved!);
      }
      // The third failure started the slow-down: both replicas make the next attempt wait.
      expect(await a.secondsToWait(attempt)).toBeGreaterThan(0);
      expect(await b.secondsToWait(attempt)).toBeGreaterThan(0);
    });

    it('reserves parallel guesses on both replicas at once: no more than the policy pass', async () => {
      const [a, b] = await throttlesOfTwoReplicas();
      const attempt = { username: 'admin', address: '192.0.2.8' };
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, n) => (n % 2 === 0 ? a : b).reserve(attempt)),
      );
      expect(results.filter((result) => result.reserved)).toHaveLength(10);
    });
  });
});
