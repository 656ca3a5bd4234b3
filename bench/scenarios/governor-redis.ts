// Scenario: what keeping the limits in Redis adds to every upstream call, on one Redis and on a
// three-master Redis Cluster in the same run. One governor takes a v4 data-subject lookup (three
// windows: the account minute and hour, and the lookup's module rule) from its windows in this
// process's memory, then from Redis as replicas do; the difference of the medians is the latency
// Redis adds per acquire. "New second" moves the injected clock one bucket per acquire, so every
// acquire starts a new bucket (the worst case); "steady" runs on the real clock. Then two governors
// on one Redis, and again on the cluster, take 1,500 concurrent lookups under a 1,000-a-minute
// rule: exactly 1,000 may pass. Needs the servers: BENCH_REDIS_URL / BENCH_REDIS_CLUSTER_URL or
// TEST_REDIS_URL / TEST_REDIS_CLUSTER_URL (`npm run bench` starts them with
// scripts/start-test-services.sh); an engine without a server is reported as skipped.
import { randomBytes } from 'node:crypto';
import { createLogger } from '../../src/server/observability/logger';
import { FailoverWindows } from '../../src/server/governor/failover-windows';
import { Governor, type GovernedOperation } from '../../src/server/governor/governor';
import {
  createMemoryWindowStore,
  createRedisWindowStore,
} from '../../src/server/governor/window-store';
import type { WindowCounterStore } from '../../src/server/governor/window-store';
import {
  closeRedis,
  connectRedis,
  type RedisClient,
} from '../../src/server/redis/redis-connection';
import { connectionRedisKeys } from '../../src/server/redis/redis-keys';
import type { RateLimitRule } from '../../src/shared/rate-limits';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const LOOKUP: GovernedOperation = {
  id: 'data-subject-basic-details-v4',
  method: 'GET',
  path: '/rest/api/consent/v4/datasubjects/basic-details',
};

/** A hard minute rule on the lookup, like the published 1,000 a minute. */
const lookupQuota = (limit: number): RateLimitRule => ({
  id: 'bench-lookup-minute',
  name: '1k per minute',
  area: 'Bench',
  scope: 'module',
  method: 'GET',
  path: LOOKUP.path,
  kind: 'hard',
  limits: [{ period: 'MINUTE', limit, blockSeconds: 60, blockDocumented: false }],
  blocks: 'rule',
  violation: '429',
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Median ms per acquire of `count` sequential lookups on `store`. */
async function acquireMedian(
  store: WindowCounterStore,
  count: number,
  clock: 'steady' | 'new-second',
): Promise<number> {
  let now = Date.now();
  const governor = new Governor({
    tier: 'production',
    // Out of reach: every acquire takes from all three windows.
    accountOverride: { MINUTE: 1e9, HOUR: 1e9 },
    moduleRules: [lookupQuota(1e9)],
    store,
    now: clock === 'steady' ? Date.now : () => now,
  });
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    if (clock === 'new-second') now += 1_000;
    const started = performance.now();
    const refusal = await governor.acquire(LOOKUP);
    times.push(performance.now() - started);
    if (refusal) throw new Error('the bench governor refused a lookup');
  }
  return median(times);
}

/** The Redis deployments measured, each with its server's URL when there is one. */
function engines(): Array<{ name: 'Redis' | 'Redis Cluster'; url: string | undefined }> {
  const env = process.env;
  return [
    { name: 'Redis', url: env.BENCH_REDIS_URL ?? env.TEST_REDIS_URL },
    { name: 'Redis Cluster', url: env.BENCH_REDIS_CLUSTER_URL ?? env.TEST_REDIS_CLUSTER_URL },
  ];
}

/** A fresh namespace's governor prefix, tagged as the console tags its keys. */
const freshPrefix = () => connectionRedisKeys(`bench:${randomBytes(6).toString('hex')}`).governor;

/** The figures of one engine: latency added per acquire, and the two-replica burst. */
async function measure(
  ctx: BenchContext,
  engine: 'Redis' | 'Redis Cluster',
  redis: RedisClient,
  memoryMedians: Map<string, number[]>,
): Promise<Figure[]> {
  const logger = createLogger('silent');
  const opened: FailoverWindows[] = [];
  /** A store as replicas get it: Redis behind the per-replica fallback. */
  const redisStore = (prefix: string) => {
    const windows = new FailoverWindows({
      primary: createRedisWindowStore(redis, prefix),
      probe: () => redis.ping(),
      logger,
      replicas: 2,
    });
    opened.push(windows);
    return windows.shared;
  };
  const s = 'Governor on Redis and Redis Cluster (v4 lookup, three windows)';
  const on = engine === 'Redis' ? 'Redis' : 'Redis Cluster';
  const tag = engine === 'Redis' ? 'governor-redis' : 'governor-cluster';
  try {
    const figures: Figure[] = [];
    for (const clock of ['steady', 'new-second'] as const) {
      const count = ctx.smoke ? 50 : clock === 'steady' ? 1_000 : 300;
      const memory = memoryMedians.get(clock) ?? [];
      memoryMedians.set(clock, memory);
      const shared: number[] = [];
      for (let round = 0; round < ctx.rounds; round += 1) {
        memory.push(await acquireMedian(createMemoryWindowStore(), count, clock));
        shared.push(await acquireMedian(redisStore(freshPrefix()), count, clock));
      }
      const added = median(shared) - median(memory);
      ctx.log(`  ${tag} (${clock}): memory ${median(memory)} ms, ${on} ${median(shared)} ms`);
      const label = clock === 'steady' ? 'steady clock' : 'every acquire in a new second';
      figures.push(
        figure(s, `acquire p50, ${on} store, ${label}`, median(shared), 'ms'),
        figure(s, `added by ${on} per acquire p50, ${label}`, added, 'ms'),
      );
    }

    // Two replicas, one Redis (or cluster), one 1,000-a-minute rule, 1,500 lookups at once.
    const prefix = freshPrefix();
    const replicas = [0, 1].map(
      () =>
        new Governor({
          tier: 'production',
          moduleRules: [lookupQuota(1_000)],
          store: redisStore(prefix),
        }),
    );
    const results = await Promise.all(
      Array.from({ length: 1_500 }, (_, i) => replicas[i % 2]!.acquire(LOOKUP)),
    );
    const admitted = results.filter((refusal) => refusal === undefined).length;
    ctx.log(`  ${tag}: ${admitted} of 1,500 concurrent lookups admitted`);
    figures.push(
      figure(
        s,
        `two replicas on ${on}, 1,500 concurrent lookups, 1,000/min rule: admitted`,
        admitted,
        'lookups',
        { op: '==', value: 1_000 },
      ),
    );
    return figures;
  } finally {
    for (const windows of opened) windows.close();
  }
}

export async function governorRedisScenario(ctx: BenchContext): Promise<Figure[]> {
  const logger = createLogger('silent');
  const figures: Figure[] = [];
  // The memory store's medians, measured beside each engine's, one figure for both.
  const memoryMedians = new Map<string, number[]>();
  for (const { name, url } of engines()) {
    if (!url) {
      ctx.log(`  ${name}: skipped (no server; run it through npm run bench, which starts one)`);
      continue;
    }
    const redis = await connectRedis({ url, logger, commandTimeoutMs: 20_000 });
    try {
      figures.push(...(await measure(ctx, name, redis, memoryMedians)));
    } finally {
      await closeRedis(redis);
    }
  }
  const s = 'Governor on Redis and Redis Cluster (v4 lookup, three windows)';
  for (const [clock, values] of [...memoryMedians].reverse()) {
    const label = clock === 'steady' ? 'steady clock' : 'every acquire in a new second';
    figures.unshift(figure(s, `acquire p50, memory store, ${label}`, median(values), 'ms'));
  }
  return figures;
}
