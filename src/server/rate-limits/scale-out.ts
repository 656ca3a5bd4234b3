// Wires what several replicas of the console share, so they act as one client of the upstream
// account. With REDIS_URL: the governor's windows (with a per-replica fallback while Redis is
// away) and the blocks of upstream 429s. With PostgreSQL: the incident feed
// that brings every replica's incidents to this replica's live streams and governor. With REPLICAS
// above 1 and no Redis: each replica keeps its share of every limit for good. With none of these
// it wires nothing and the console is one process, as in demo mode. Sessions and the sign-in
// throttle share the same Redis keys (redis/redis-keys.ts) but are built in auth/session-backends.ts.
//
// Access tokens are deliberately not shared: see the comment at the TokenManager in compose.ts.
import type { RedisClient } from '../redis/redis-connection';
import type { Incident } from '../../shared/incident';
import type { Config } from '../config/config';
import { FailoverWindows } from '../governor/failover-windows';
import type { Governor, GovernorFallback } from '../governor/governor';
import type { CheckResult, ReadinessCheck } from '../observability/readiness';
import { shareBlocks } from '../governor/shared-blocks';
import { createMemoryWindowStore, createRedisWindowStore } from '../governor/window-store';
import type { WindowCounterStore } from '../governor/window-store';
import { IncidentFeed } from './incident-feed';
import type { IncidentHub } from './incident-hub';
import type { Logger } from '../observability/logger';
import { closeRedis, connectSubscriber } from '../redis/redis-connection';
import type { RedisKeys } from '../redis/redis-keys';
import type { SqlDatabase } from '../store/database';
import { INCIDENT_CHANNEL, type IncidentStore } from './incident-store';
import { withinDeadline } from '../runtime/within-deadline';

export interface ScaleOutOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => number;
  /** The open Redis connection (REDIS_URL); index.ts opens it so a bad URL stops start. */
  readonly redis?: RedisClient;
  /** The deployment's Redis key names (redisKeys of the account's namespace). */
  readonly keys: RedisKeys;
  /** Told when the governor starts or stops keeping its per-replica share (metrics). */
  readonly onFallbackChange?: (active: boolean) => void;
}

/** What the rest of the BFF is handed, and when to start sharing. */
export interface ScaleOut {
  /** The governor's windows and fallback, for createRateLimiting. */
  readonly governor: { windowStore?: WindowCounterStore; fallback?: GovernorFallback };
  /** Starts sharing blocks and incidents; await before serving. */
  start(parts: {
    governor: Governor;
    hub: IncidentHub;
    store: IncidentStore;
    database: SqlDatabase | undefined;
  }): Promise<void>;
  /** Redis answers (with REDIS_URL), and the governor's mode, for /readyz and /api/health. */
  readonly readiness: readonly ReadinessCheck[];
  close(): Promise<void>;
}

/**
 * What names the upstream account in redisNamespace: its base URL, except in demo mode, where the
 * built-in mock listens on a new loopback port at every start, so its URL would move every key
 * (sessions, windows, blocks) to a new namespace at each restart. Demo mode names its account by
 * the session secret instead (required with REDIS_URL, the same on every replica, kept across
 * restarts); only a hash of it reaches Redis.
 */
export function accountName(config: Config, upstreamBaseUrl: string): string {
  return config.mode === 'demo' ? `demo\n${config.auth.sessionSecret}` : upstreamBaseUrl;
}

/** The block an incident announces, as the governor keeps it. */
function blockOf(incident: Incident) {
  return {
    scope: incident.scope,
    ruleId: incident.ruleId,
    period: incident.period,
    until: Date.parse(incident.blockedUntil),
    incidentKey: incident.key,
    stated: { requestsAllowed: incident.requestsAllowed },
  };
}

const REDIS_PING_TIMEOUT_MS = 1_000;

/**
 * Asks the node that holds the deployment's keys: on a cluster a PING goes to any node and would
 * answer while the one master that matters is gone. On one server it is a PING by another name.
 */
function probeRedis(redis: RedisClient, keys: RedisKeys): Promise<unknown> {
  return redis.exists(keys.probe);
}

/** Whether Redis answers for the deployment's keys in time. */
async function pingRedis(redis: RedisClient, keys: RedisKeys): Promise<CheckResult> {
  try {
    await withinDeadline(probeRedis(redis, keys), REDIS_PING_TIMEOUT_MS, () => {
      throw new Error('Redis did not answer in time');
    });
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : 'no answer' };
  }
}

/** Which windows decide, as /readyz shows it. */
function governorCheck(failover: FailoverWindows | undefined, replicas: number): CheckResult {
  if (failover?.isFallback()) {
    const { since } = failover.status();
    return {
      ok: false,
      mode: 'fallback',
      detail: `Redis unreachable: this replica keeps 1/${replicas} of every limit`,
      ...(since === null ? {} : { since: new Date(since).toISOString() }),
    };
  }
  if (failover) return { ok: true, mode: 'shared' };
  if (replicas > 1) {
    return {
      ok: true,
      mode: 'fallback',
      detail: `no REDIS_URL: this replica keeps 1/${replicas} of every limit`,
    };
  }
  return { ok: true, mode: 'single' };
}

/** Builds the shared parts from the configuration. */
export function createScaleOut(options: ScaleOutOptions): ScaleOut {
  const { config, logger, redis, now } = options;
  const replicas = config.scaleOut.replicas;
  const { keys } = options;
  const stops: Array<() => unknown> = [];

  let failover: FailoverWindows | undefined;
  let governor: ScaleOut['governor'] = {};
  if (redis) {
    const windows = new FailoverWindows({
      primary: createRedisWindowStore(redis, keys.governor),
      probe: () => probeRedis(redis, keys),
      logger,
      replicas,
      now,
      onModeChange: (mode) => options.onFallbackChange?.(mode === 'fallback'),
    });
    failover = windows;
    governor = {
      windowStore: windows.shared,
      fallback: { store: windows.local, share: replicas, active: () => windows.isFallback() },
    };
  } else if (replicas > 1) {
    // Nothing to share the counts through: each replica keeps its share of every limit for good.
    governor = {
      fallback: { store: createMemoryWindowStore(), share: replicas, active: () => true },
    };
    logger.warn(
      { replicas },
      `REPLICAS=${replicas} without REDIS_URL: this replica keeps 1/${replicas} of every limit`,
    );
    options.onFallbackChange?.(true);
  }

  return {
    governor,

    async start(parts) {
      if (redis) {
        const subscriber = await connectSubscriber(redis);
        stops.push(() => closeRedis(subscriber));
        stops.push(
          await shareBlocks({
            redis,
            subscriber,
            governor: parts.governor,
            keys,
            now,
            logger,
          }),
        );
      }
      const database = parts.database;
      if (database?.listen) {
        const feed = new IncidentFeed({
          hub: parts.hub,
          read: (seq, limit) => parts.store.changesSince(seq, limit),
          startSeq: await parts.store.latestSeq(),
          logger,
        });
        parts.hub.routeThrough((incident) => feed.offer(incident));
        // Another replica's 429 blocks this one too, even while Redis is away.
        stops.push(
          parts.hub.observe((incident) => parts.governor.block(blockOf(incident), 'shared')),
        );
        stops.push(
          await database.listen(INCIDENT_CHANNEL, {
            notification: (payload) => feed.announce(Number(payload)),
            reconnected: () => void feed.catchUp(),
          }),
        );
        stops.push(() => parts.hub.routeThrough(undefined));
      }
    },

    // Neither is required: Redis away would take every replica out at once, while each still
    // serves on its share of the limits.
    readiness: [
      ...(redis ? [{ name: 'redis', required: false, check: () => pingRedis(redis, keys) }] : []),
      {
        name: 'governor',
        required: false,
        health: 'governor',
        check: () => Promise.resolve(governorCheck(failover, replicas)),
      },
    ],

    async close() {
      failover?.close();
      for (const stop of stops.splice(0).reverse()) await stop();
    },
  };
}
