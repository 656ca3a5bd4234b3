// Scenario: what keeping the limits in Redis adds to every upstream call. One governor takes a v4
// data-subject lookup (three windows: the account minute and hour, and the lookup's module rule)
// from its windows in this process's memory, then from Redis as replicas do; the difference of the
// medians is the latency Redis adds per acquire. "New second" moves the injected clock one bucket
// per acquire, so every acquire starts a new bucket (the worst case); "steady" runs on the real
// clock. Then two governors on one Redis take 1,500 concurrent lookups under a 1,000-a-minute rule:
// exactly 1,000 may pass. Needs a Redis: BENCH_REDIS_URL or TEST_REDIS_URL
// (`eval "$(scripts/start-test-services.sh)"`); without one the scenario reports nothing.
import { randomBytes } from 'node:crypto';
import { createLogger } from '../../src/server/logger';
import { FailoverWindows } from '../../src/server/governor/failover-windows';
import { Governor, type GovernedOperation } from '../../src/server/governor/governor';
import {
  createMemoryWindowStore,
  createRedisWindowStore,
} from '../../src/server/governor/window-store';
import type { WindowCounterStore } from '../../src/server/governor/window-store';
import { closeRedis, connectRedis } from '../../src/server/redis/redis-connection';
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

export async function governorRedisScenario(ctx: BenchContext): Promise<Figure[]> {
  const url = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
  if (!url) {
    ctx.log('  governor-redis: skipped (no BENCH_REDIS_URL or TEST_REDIS_URL)');
    return [];
  }
  const logger = createLogger('silent');
  const redis = await connectRedis({ url, logger, commandTimeoutMs: 20_000 });
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
  try {
    const s = 'Governor on Redis (v4 lookup, three windows)';
    const figures: Figure[] = [];
    for (const clock of ['steady', 'new-second'] as const) {
      const count = ctx.smoke ? 50 : clock === 'steady' ? 1_000 : 300;
      const memory: number[] = [];
      const shared: number[] = [];
      for (let round = 0; round < ctx.rounds; round += 1) {
        const prefix = `bench:${randomBytes(6).toString('hex')}`;
        memory.push(await acquireMedian(createMemoryWindowStore(), count, clock));
        shared.push(await acquireMedian(redisStore(prefix), count, clock));
      }
      const added = median(shared) - median(memory);
      ctx.log(
        `  governor-redis (${clock}): memory ${median(memory)} ms, Redis ${median(shared)} ms`,
      );
      const label = clock === 'steady' ? 'steady clock' : 'every acquire in a new second';
      figures.push(
        figure(s, `acquire p50, memory store, ${label}`, median(memory), 'ms'),
        figure(s, `acquire p50, Redis store, ${label}`, median(shared), 'ms'),
        figure(s, `added by Redis per acquire p50, ${label}`, added, 'ms'),
      );
    }

    // Two replicas, one Redis, one 1,000-a-minute rule, 1,500 lookups at once.
    const prefix = `bench:${randomBytes(6).toString('hex')}`;
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
    ctx.log(`  governor-redis: ${admitted} of 1,500 concurrent lookups admitted`);
    figures.push(
      figure(
        s,
        'two replicas, 1,500 concurrent lookups, 1,000/min rule: admitted',
        admitted,
        'lookups',
        {
          op: '==',
          value: 1_000,
        },
      ),
    );
    return figures;
  } finally {
    for (const windows of opened) windows.close();
    await closeRedis(redis);
  }
}
