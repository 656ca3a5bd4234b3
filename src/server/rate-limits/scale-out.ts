// Wires what several replicas of the console share, so they act as one client of the upstream
// account. With REDIS_URL: the governor's windows (with a per-replica fallback while Redis is
// away) and the blocks of upstream 429s. With PostgreSQL: the incident feed
// that brings every replica's incidents to this replica's live streams and governor. With REPLICAS
// above 1 and no Redis: each replica keeps its share of every limit for good. With none of these
// it wires nothing and the console is one process, as in demo mode. Its Redis keys are one
// connection's (redis/redis-keys.ts): each connection's limits and blocks stay apart. Sessions and
// the sign-in throttle live under the console-wide keys, built in auth/session-backends.ts.
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
import type { ConnectionRedisKeys } from '../redis/redis-keys';
import type { SqlDatabase } from '../store/database';
import { INCIDENT_CHANNEL, type IncidentStore } from './incident-store';
import { withinDeadline } from '../runtime/within-deadline';

export interface ScaleOutOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => number;
  /** The open Redis connection (REDIS_URL); index.ts opens it so a bad URL stops start. */
  readonly redis?: RedisClient;
  /** The connection's Redis key names (redis-keys.ts connectionKeys). */
  readonly keys: ConnectionRedisKeys;
  /**
   * The probe key of the console-wide slot (sessions, sign-in throttle): on a cluster it may sit
   * on another master than the connection's, and the Redis check asks both.
   */
  readonly consoleProbe?: string;
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
  /** Which windows decide now, as the governor check says (no Redis round trip). */
  mode(): NonNullable<CheckResult['mode']>;
  close(): Promise<void>;
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
 * Asks the node that holds `probe`'s slot: on a cluster a PING goes to any node and would answer
 * while the one master that matters is gone. On one server it is a PING by another name.
 */
function probeRedis(redis: RedisClient, probe: string): Promise<unknown> {
  return redis.exists(probe);
}

/** Whether Redis answers for every slot of `probes` in time. */
async function pingRedis(redis: RedisClient, probes: readonly string[]): Promise<CheckResult> {
  try {
    const answers = Promise.all(probes.map((probe) => probeRedis(redis, probe)));
    await withinDeadline(answers, REDIS_PING_TIMEOUT_MS, () => {
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
  const { keys, consoleProbe } = options;
  const slotProbes = [keys.probe, ...(consoleProbe === undefined ? [] : [consoleProbe])];
  const stops: Array<() => unknown> = [];

  let failover: FailoverWindows | undefined;
  let governor: ScaleOut['governor'] = {};
  if (redis) {
    const windows = new FailoverWindows({
      primary: createRedisWindowStore(redis, keys.governor),
      probe: () => probeRedis(redis, keys.probe),
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
    mode: () => governorCheck(failover, replicas).mode ?? 'single',

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
      ...(redis
        ? [
            {
              name: 'redis',
              required: false,
              check: () => pingRedis(redis, slotProbes),
            },
          ]
        : []),
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
