// Two platform connections of one console, with different limits, each with two replicas, all on
// ONE Redis (and again on a Redis Cluster), and in one process without Redis: a parallel burst
// against both is held to each connection's own limit exactly, and an upstream 429 in one blocks
// that connection everywhere and the other nowhere. Demo mode's two mock connections are the
// hardest case: they share the session secret their accounts are named by, so only the
// connection's name in the keys keeps them apart.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_TYPES_OPERATION } from '../../shared/event-types';
import { parseConfig, type Config } from '../config/config';
import type { ConnectionConfig } from '../config/connection-config';
import { HttpProblem } from '../http/problem';
import { createLogger } from '../observability/logger';
import { connectionSettings } from '../connection-stack';
import { closeRedis, connectRedis, type RedisClient } from '../redis/redis-connection';
import { connectionKeys } from '../redis/redis-keys';
import { openConsoleStore } from '../store/open-store';
import { listRedisKeys, REDIS_ENGINES } from '../test-support/store-engines';
import { createRateLimitsArea, type RateLimitsArea } from './rate-limits-module';

const logger = createLogger('silent');
/** Mid-minute, so a burst never straddles two minute buckets. */
const T0 = Date.UTC(2025, 0, 6, 9, 0, 30);
const PRODUCTION_MINUTE = 30;
const UAT_MINUTE = 12;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Demo mode's two connections, production held to 30 a minute and UAT to 12. */
function twoConnections() {
  const config = parseConfig({ SESSION_SECRET: randomBytes(32).toString('base64url') });
  const [first, second] = config.connections;
  const limited = (connection: ConnectionConfig, minute: number): ConnectionConfig => ({
    ...connection,
    rateLimits: { ...connection.rateLimits, accountOverride: { MINUTE: minute } },
  });
  return {
    config,
    production: limited(first!, PRODUCTION_MINUTE),
    uat: limited(second!, UAT_MINUTE),
  };
}

/** The settings one connection's area reads: the console's, with the connection's own. */
/** One replica's rate-limits area for `connection`, started (its blocks shared when on Redis). */
async function replica(
  config: Config,
  connection: ConnectionConfig,
  url: string | undefined,
): Promise<RateLimitsArea> {
  // Each replica has its own Redis connection, as separate processes do. The test machine may be
  // busy: a slow answer must not count as Redis being away here.
  let redis: RedisClient | undefined;
  if (url) {
    const opened = await connectRedis({ url, logger, commandTimeoutMs: 20_000 });
    cleanups.push(() => closeRedis(opened));
    redis = opened;
  }
  const store = openConsoleStore();
  const area = createRateLimitsArea({
    connection: connection.name,
    config: connectionSettings(config, connection),
    logger,
    now: () => T0,
    tokenUrl: new URL('http://platform.invalid/api/access/v1/oauth/token'),
    database: store.database,
    redis,
    keys: connectionKeys(config, connection),
    // The account limits alone: what each connection may send is then its minute limit.
    moduleRules: [],
    sessionAlive: () => Promise.resolve(true),
    recordChange: () => Promise.resolve(),
    observe: { fallbackChanged: () => {}, incidentStored: () => {}, incidentWriteFailed: () => {} },
  });
  await area.start();
  cleanups.push(async () => {
    await area.stop();
    await store.close();
  });
  return area;
}

/** Whether the governor let one event-types call go out (a refusal is a 429 of the console's). */
const send = (area: RateLimitsArea) =>
  area.rateLimiting.guard.beforeSend(EVENT_TYPES_OPERATION).then(
    () => true,
    (error: unknown) => {
      if (error instanceof HttpProblem && error.problem.status === 429) return false;
      throw error;
    },
  );

/** The account minute window's use as `area` reads it. */
const minuteUsed = async (area: RateLimitsArea) =>
  (await area.rateLimiting.governor.usage()).find((usage) => usage.ruleId === 'account-minute');

/** In-process memory, one Redis, a Redis Cluster; the Redis ones skipped (saying why) if absent. */
const ENGINES = [
  { title: 'one process without Redis', url: undefined, needsRedis: false },
  ...REDIS_ENGINES.map(({ title, url }) => ({ title, url, needsRedis: true })),
];

describe.each(ENGINES)('two connections on $title', ({ url, needsRedis }) => {
  const skipped = needsRedis && url === undefined;
  // Without Redis, replicas of one connection cannot share: one each is the console as it runs.
  const replicasEach = url ? 2 : 1;
  const both = async () => {
    const { config, production, uat } = twoConnections();
    const start = (connection: ConnectionConfig) =>
      Promise.all(Array.from({ length: replicasEach }, () => replica(config, connection, url)));
    return { config, production, uat, prod: await start(production), test: await start(uat) };
  };

  it.skipIf(skipped)(
    'hold each one’s limit exactly and independently under one parallel burst',
    async () => {
      const { config, production, uat, prod, test } = await both();
      // 200 calls at once, interleaved over both connections and every replica.
      const calls = Array.from({ length: 200 }, (_, i) => {
        const areas = i % 2 === 0 ? prod : test;
        return send(areas[Math.floor(i / 2) % areas.length]!).then((sent) => ({
          connection: i % 2 === 0 ? 'default' : 'uat',
          sent,
        }));
      });
      const results = await Promise.all(calls);
      const sentBy = (connection: string) =>
        results.filter((result) => result.connection === connection && result.sent).length;
      expect({ default: sentBy('default'), uat: sentBy('uat') }).toEqual({
        default: PRODUCTION_MINUTE,
        uat: UAT_MINUTE,
      });
      // Every replica reads its own connection's count, against its own limit.
      for (const area of prod) {
        expect(await minuteUsed(area)).toMatchObject({ used: PRODUCTION_MINUTE, limit: 30 });
      }
      for (const area of test) {
        expect(await minuteUsed(area)).toMatchObject({ used: UAT_MINUTE, limit: 12 });
      }
      // Redis answered throughout: no replica fell back to a share of its own.
      for (const area of [...prod, ...test]) {
        expect(area.rateLimiting.governor.fallbackActive).toBe(false);
      }
      if (url) {
        // An operator reading the keys sees whose each count is.
        const redis = await connectRedis({ url, logger });
        cleanups.push(() => closeRedis(redis));
        const uatCounters = await listRedisKeys(redis, `${connectionKeys(config, uat).tag}:*`);
        expect(uatCounters.length).toBeGreaterThan(0);
        expect(uatCounters.every((key) => key.startsWith('{console:uat:'))).toBe(true);
        const productionCounters = await listRedisKeys(
          redis,
          `${connectionKeys(config, production).tag}:governor:*`,
        );
        expect(productionCounters.length).toBeGreaterThan(0);
      }
    },
    30_000,
  );

  it.skipIf(skipped)(
    'a 429 in one connection blocks it on every replica and leaves the other sending',
    async () => {
      const { config, production, uat, prod, test } = await both();
      const refused = prod[0]!.rateLimiting.guard.afterAnswer(EVENT_TYPES_OPERATION, {
        status: 429,
        headers: { 'retry-after': '30' },
        body: '',
      });
      await expect(refused).rejects.toMatchObject({ problem: { status: 429 } });
      // Every replica of production holds the block (the others hear it through Redis)…
      for (const area of prod) {
        await expect.poll(() => area.rateLimiting.governor.activeBlocks().length).toBe(1);
        expect(await send(area)).toBe(false);
      }
      // …and so does one that starts later, from the block Redis keeps.
      if (url) {
        const later = await replica(config, production, url);
        expect(later.rateLimiting.governor.activeBlocks()).toHaveLength(1);
      }
      // UAT holds nothing, on its running replicas nor on a new one, and keeps sending.
      const uatReplicas = url ? [...test, await replica(config, uat, url)] : test;
      for (const area of uatReplicas) {
        expect(area.rateLimiting.governor.activeBlocks()).toEqual([]);
        expect(await send(area)).toBe(true);
      }
    },
    30_000,
  );
});
