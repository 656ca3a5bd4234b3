// The ingest limiter counts one integration's reports across replicas: on one Redis
// (TEST_REDIS_URL) and on a Redis Cluster (TEST_REDIS_CLUSTER_URL), two replicas' limiters together
// let through exactly the per-minute allowance, however the reports are spread between them.
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../observability/logger';
import { closeRedis, connectRedis } from '../redis/redis-connection';
import { consoleRedisKeys } from '../redis/redis-keys';
import { REDIS_ENGINES, testNamespace } from '../test-support/store-engines';
import { createIngestLimiter } from './ingest-limiter';

const logger = createLogger('silent');
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(REDIS_ENGINES)('the ingest limiter on $title', ({ url }) => {
  it.skipIf(!url)('lets two replicas together take exactly the allowance', async () => {
    const keys = consoleRedisKeys(testNamespace());
    const replica = async () => {
      const redis = await connectRedis({ url: url!, logger });
      cleanups.push(() => closeRedis(redis));
      return createIngestLimiter({ perMinute: 12, redis, keys });
    };
    const [a, b] = [await replica(), await replica()];
    const verdicts = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).take('integration-1')),
    );
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(12);
    // Another integration has its own allowance.
    expect(await b.take('integration-2')).toEqual({ allowed: true });
  });
});
