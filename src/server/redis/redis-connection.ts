// The connection to Redis (REDIS_URL) through which replicas share the governor's windows, the
// blocks of upstream 429s and console sessions. Commands fail at once while Redis is unreachable
// instead of queueing (the governor falls back, sign-in says it is unavailable), and the client
// reconnects by itself for as long as the process runs.
import { Redis } from 'ioredis';
import type { Logger } from '../logger';

/** Why Redis could not be reached at start; the message names the server, never the password. */
class RedisConnectError extends Error {
  override name = 'RedisConnectError';
}

/** Where a REDIS_URL points, without its credentials: `host:port/db`. */
function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const db = parsed.pathname.replace(/^\//, '') || '0';
    return `${parsed.hostname || 'localhost'}:${parsed.port || '6379'}/${db}`;
  } catch {
    return 'an unreadable REDIS_URL';
  }
}

export interface RedisConnectionOptions {
  readonly url: string;
  readonly logger: Logger;
  /** How long the first connection may take (default 3 s). */
  readonly connectTimeoutMs?: number;
  /** How long one command may take before it counts as failed (default 1 s). */
  readonly commandTimeoutMs?: number;
}

/**
 * Opens a connection and resolves once Redis answers; rejects with RedisConnectError when it
 * does not. Use `duplicate()` of the result for a subscriber connection.
 */
export async function connectRedis(options: RedisConnectionOptions): Promise<Redis> {
  const { url, logger } = options;
  const where = describeRedisUrl(url);
  const redis = new Redis(url, {
    lazyConnect: true,
    // A command issued while disconnected fails now rather than waiting for a reconnect: the
    // governor must decide on its fallback within the request, not seconds later.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    connectTimeout: options.connectTimeoutMs ?? 3_000,
    retryStrategy: (attempt) => Math.min(100 * attempt, 1_000),
    connectionName: 'privacy-api-console',
  });
  let lost = false;
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => {
    lastError = error;
    logger.debug({ err: error }, `Redis at ${where}: ${error.message}`);
  });
  let connected = false;
  redis.on('close', () => {
    if (!connected || lost || closing.has(redis)) return;
    lost = true;
    logger.warn(`lost the connection to Redis at ${where}; reconnecting`);
  });
  redis.on('ready', () => {
    connected = true;
    if (!lost) return;
    lost = false;
    logger.info(`reconnected to Redis at ${where}`);
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    connected = false;
    redis.disconnect();
    // ioredis reports "Connection is closed"; the socket's own error says why.
    const reason = lastError?.message ?? (error instanceof Error ? error.message : String(error));
    throw new RedisConnectError(`could not connect to Redis at ${where}: ${reason}`, {
      cause: error,
    });
  }
  return redis;
}

/** Connections being closed on purpose: their end is not a loss worth a warning. */
const closing = new WeakSet<Redis>();

/** Closes `redis` (shutdown), sending what is queued first when it can. */
export async function closeRedis(redis: Redis): Promise<void> {
  closing.add(redis);
  if (redis.status === 'ready') {
    await redis.quit().catch(() => redis.disconnect());
  } else {
    redis.disconnect();
  }
}

/** A second connection for SUBSCRIBE (a subscribed connection can run nothing else). */
export async function connectSubscriber(redis: Redis): Promise<Redis> {
  const subscriber = redis.duplicate();
  subscriber.on('error', () => undefined);
  await subscriber.connect();
  return subscriber;
}
