// The Redis readiness check asks every slot a replica depends on: on a cluster the console-wide
// keys (sessions, sign-in counts) and a connection's keys (windows, blocks) may live on different
// masters, and losing either is a Redis fault the operator must see on /readyz.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config';
import { createLogger } from '../observability/logger';
import type { RedisClient } from '../redis/redis-connection';
import { connectionRedisKeys, consoleRedisKeys } from '../redis/redis-keys';
import { createScaleOut } from './scale-out';

const connection = connectionRedisKeys('test:connection');
const consoleWide = consoleRedisKeys('test:console');

/** A Redis whose masters answer, except the one holding `lost`'s slot. */
function redisLosing(lost: string | undefined): RedisClient {
  const stand = {
    defineCommand: () => undefined,
    exists: (key: string) =>
      key === lost
        ? Promise.reject(new Error('CLUSTERDOWN The cluster is down'))
        : Promise.resolve(0),
  };
  return stand as unknown as RedisClient;
}

/** The `redis` readiness check of a replica on `redis`. */
function redisCheck(redis: RedisClient) {
  const scaleOut = createScaleOut({
    config: parseConfig({}),
    logger: createLogger('silent'),
    now: Date.now,
    redis,
    keys: connection,
    consoleProbe: consoleWide.probe,
  });
  return scaleOut.readiness.find((check) => check.name === 'redis')!.check;
}

describe('the Redis readiness check', () => {
  it('passes while every slot answers', async () => {
    expect(await redisCheck(redisLosing(undefined))()).toEqual({ ok: true });
  });

  it.each([
    ['the console-wide slot', consoleWide.probe],
    ['the connection’s slot', connection.probe],
  ])('fails when %s does not answer', async (_, lost) => {
    expect(await redisCheck(redisLosing(lost))()).toEqual({
      ok: false,
      error: 'CLUSTERDOWN The cluster is down',
    });
  });
});
