// The connection to Redis (REDIS_URL) through which replicas share the governor's windows, the
// blocks of upstream 429s and console sessions: one server, or a Redis Cluster through ioredis's
// Cluster client (redis-target.ts says which). Commands fail at once while Redis is unreachable
// instead of queueing (the governor falls back, sign-in says it is unavailable), and the client
// reconnects by itself for as long as the process runs.
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from '../observability/logger';
import { describeRedisTarget, parseRedisTarget, type RedisTarget } from './redis-target';

/**
 * A connection to one server or to a cluster. Every key the console uses carries one hash tag
 * (redis-keys.ts), so the commands it sends work the same on both.
 */
export type RedisClient = Redis | Cluster;

/** Why Redis could not be reached at start; the message names the server, never the password. */
class RedisConnectError extends Error {
  override name = 'RedisConnectError';
}

export interface RedisConnectionOptions {
  /** REDIS_URL: a server, or a cluster's seeds (redis+cluster://host1:6379,host2:6379). */
  readonly url: string;
  /** REDIS_CLUSTER: a plain redis:// URL names a cluster's seeds. */
  readonly cluster?: boolean;
  readonly logger: Logger;
  /** How long the first connection may take (default 3 s). */
  readonly connectTimeoutMs?: number;
  /** How long one command may take before it counts as failed (default 1 s). */
  readonly commandTimeoutMs?: number;
}

/** Reconnect delays: quick at first, then once a second, for as long as the process runs. */
const retryDelay = (attempt: number) => Math.min(100 * attempt, 1_000);

/**
 * ioredis, loaded when the first connection is opened: a console without REDIS_URL (most of them)
 * never loads it, nor the resident memory its modules take (bench/findings/memory.md).
 */
const loadDriver = () => import('ioredis');

async function createClient(
  target: RedisTarget,
  options: RedisConnectionOptions,
): Promise<RedisClient> {
  const { Cluster, Redis } = await loadDriver();
  const perConnection = {
    // A command issued while disconnected fails now rather than waiting for a reconnect: the
    // governor must decide on its fallback within the request, not seconds later.
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    connectTimeout: options.connectTimeoutMs ?? 3_000,
    connectionName: 'privacy-api-console',
  };
  if (target.kind === 'single') {
    return new Redis(target.url, {
      ...perConnection,
      lazyConnect: true,
      enableOfflineQueue: false,
      retryStrategy: retryDelay,
    });
  }
  return new Cluster(
    target.nodes.map(({ host, port }) => ({ host, port })),
    {
      lazyConnect: true,
      enableOfflineQueue: false,
      clusterRetryStrategy: retryDelay,
      // A node that restarts without slot changes is reconnected to; a lost master whose slots
      // moved is found through the MOVED answers and the periodic slot refresh.
      clusterNodeRetryStrategy: retryDelay,
      // One retry after a failover or CLUSTERDOWN, not sixteen: past the command timeout the
      // governor has already fallen back to its share.
      maxRedirections: 4,
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      slotsRefreshTimeout: options.connectTimeoutMs ?? 3_000,
      redisOptions: {
        ...perConnection,
        ...(target.username ? { username: target.username } : {}),
        ...(target.password ? { password: target.password } : {}),
        ...(target.tls ? { tls: {} } : {}),
      },
    },
  );
}

/**
 * Opens a connection and resolves once Redis answers; rejects with RedisConnectError when it
 * does not. Use `connectSubscriber` for a subscriber connection.
 */
export async function connectRedis(options: RedisConnectionOptions): Promise<RedisClient> {
  const { logger } = options;
  const target = parseRedisTarget(options.url, options.cluster);
  const where = describeRedisTarget(target);
  const redis = await createClient(target, options);
  let lost = false;
  let lastError: Error | undefined;
  // A cluster reports each node's own failure as a node error (a refused password, say); its own
  // error then only says "Failed to refresh slots cache". A seed that refuses the connection shows
  // only as "Connection is closed", which is put in plain words below.
  let lastNodeError: Error | undefined;
  redis.on('error', (error: Error) => {
    lastError = error;
    logger.debug({ err: error }, `${where}: ${error.message}`);
  });
  redis.on('node error', (error: Error) => {
    lastNodeError = error;
    logger.debug({ err: error }, `${where}: ${error.message}`);
  });
  let connected = false;
  redis.on('close', () => {
    if (!connected || lost || closing.has(redis)) return;
    lost = true;
    logger.warn(`lost the connection to ${where}; reconnecting`);
  });
  redis.on('ready', () => {
    connected = true;
    if (!lost) return;
    lost = false;
    logger.info(`reconnected to ${where}`);
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    connected = false;
    closing.add(redis);
    redis.disconnect();
    // ioredis reports "Connection is closed" or "None of startup nodes is available"; the
    // socket's own error says why.
    let reason =
      (lastNodeError ?? lastError)?.message ??
      (error instanceof Error ? error.message : String(error));
    if (target.kind === 'cluster' && /^Connection is closed/.test(reason)) {
      reason = 'no seed node accepted a connection';
    }
    throw new RedisConnectError(`could not connect to ${where}: ${reason}`, { cause: error });
  }
  if (target.kind === 'single' && (await isClusterNode(redis))) {
    closing.add(redis);
    redis.disconnect();
    throw new RedisConnectError(
      `${where} is a node of a Redis Cluster: name its nodes as redis+cluster://host1:port,host2:port in REDIS_URL, or set REDIS_CLUSTER=true`,
    );
  }
  return redis;
}

/**
 * Whether one server is a cluster node: a plain client would be answered MOVED for most keys. A
 * server that refuses INFO (some managed offerings rename it) is taken at its word.
 */
async function isClusterNode(redis: RedisClient): Promise<boolean> {
  try {
    return /^cluster_enabled:1\b/m.test(await redis.info('cluster'));
  } catch {
    return false;
  }
}

/** Connections being closed on purpose: their end is not a loss worth a warning. */
const closing = new WeakSet<RedisClient>();

/** Closes `redis` (shutdown), sending what is queued first when it can. */
export async function closeRedis(redis: RedisClient): Promise<void> {
  closing.add(redis);
  if (redis.status === 'ready') {
    await redis.quit().catch(() => redis.disconnect());
  } else {
    redis.disconnect();
  }
}

/**
 * A second connection for SUBSCRIBE (a subscribed connection can run nothing else). On a cluster
 * ioredis subscribes through one node; Redis Cluster carries every PUBLISH to every node, so it
 * hears what any replica publishes through any node.
 */
export async function connectSubscriber(redis: RedisClient): Promise<RedisClient> {
  const { Cluster } = await loadDriver();
  const subscriber: RedisClient = redis instanceof Cluster ? redis.duplicate() : redis.duplicate();
  subscriber.on('error', () => undefined);
  subscriber.on('node error', () => undefined);
  await subscriber.connect();
  return subscriber;
}
