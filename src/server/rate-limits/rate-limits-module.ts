// The rate-limits area (docs/product.md §7): the governor's wiring, every upstream 429 recorded as
// an incident, the live incident stream, blocks and incidents shared between replicas, and the
// incidents' retention. Every signed-in role reads it; forgetting the limits the platform
// reported changes what the governor keeps, so that is for admins.
import { Hono } from 'hono';
import type { RecordChange } from '../http/admin-change';
import type { RateLimitRule } from '../../shared/rate-limits';
import type { Incident } from '../../shared/incident';
import type { AppEnv } from '../http/app-env';
import type { AreaModule } from '../runtime/area-module';
import type { Config } from '../config/config';
import type { Logger } from '../observability/logger';
import type { RedisClient } from '../redis/redis-connection';
import type { ConnectionRedisKeys } from '../redis/redis-keys';
import type { SqlDatabase } from '../store/database';
import { createRateLimiting, type RateLimiting } from './rate-limiting';
import { rateLimitsRoutes } from './rate-limits-routes';
import { createScaleOut, type ScaleOut } from './scale-out';
import { StreamRegistry } from './stream-registry';

const HOUR_MS = 3_600_000;

export interface RateLimitsAreaDeps {
  /** The platform connection this area serves (its incidents and blocks are its own). */
  readonly connection: string;
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => number;
  /** The token endpoint's address: its requests count toward the account limits. */
  readonly tokenUrl: URL;
  /** The database every store borrows (store/open-store.ts). */
  readonly database: () => Promise<SqlDatabase>;
  /**
   * The database handed in by the process, when there is one: persistent blocks are restored at
   * start, and with PostgreSQL replicas hear each other's incidents through it.
   */
  readonly persistentDatabase?: SqlDatabase | undefined;
  /** REDIS_URL's connection, and the connection's key names: replicas share windows and blocks. */
  readonly redis?: RedisClient | undefined;
  readonly keys: ConnectionRedisKeys;
  /** The console-wide slot's probe key, which the Redis readiness check asks too (scale-out.ts). */
  readonly consoleProbe?: string | undefined;
  /** Module rules instead of the published ones (tests). */
  readonly moduleRules?: readonly RateLimitRule[] | undefined;
  /** Whether a session is still live, asked by the stream at every heartbeat. */
  readonly sessionAlive: (sessionId: string) => Promise<boolean>;
  /** Records administrative changes in the audit trail (compose.ts). */
  readonly recordChange: RecordChange;
  /** Told of governor fallback changes and of incidents stored or not (metrics). */
  readonly observe: {
    readonly fallbackChanged: (active: boolean) => void;
    readonly incidentStored: (incident: Incident) => void;
    readonly incidentWriteFailed: () => void;
  };
}

export interface RateLimitsArea extends AreaModule {
  readonly rateLimiting: RateLimiting;
  readonly scaleOut: ScaleOut;
  /** Live streams by session and user; a session's streams end when it signs out. */
  readonly streams: StreamRegistry;
}

export function createRateLimitsArea(deps: RateLimitsAreaDeps): RateLimitsArea {
  const { config, logger, now } = deps;
  const scaleOut = createScaleOut({
    config,
    logger,
    now,
    keys: deps.keys,
    ...(deps.consoleProbe === undefined ? {} : { consoleProbe: deps.consoleProbe }),
    ...(deps.redis ? { redis: deps.redis } : {}),
    onFallbackChange: deps.observe.fallbackChanged,
  });
  // Every upstream call, token requests included, passes through the governor.
  const rateLimiting = createRateLimiting({
    connection: deps.connection,
    config,
    logger,
    now,
    tokenUrl: deps.tokenUrl,
    database: deps.database,
    ...(deps.moduleRules ? { moduleRules: deps.moduleRules } : {}),
    ...scaleOut.governor,
    onIncidentStored: deps.observe.incidentStored,
    onIncidentWriteFailed: deps.observe.incidentWriteFailed,
  });
  const streams = new StreamRegistry();
  const routes = new Hono<AppEnv>();
  routes.route(
    '/',
    rateLimitsRoutes({
      governor: rateLimiting.governor,
      store: rateLimiting.store,
      hub: rateLimiting.hub,
      logger,
      now,
      streams,
      sessionAlive: deps.sessionAlive,
      recordChange: deps.recordChange,
    }),
  );
  // Incidents are kept INCIDENT_RETENTION_DAYS (the audit trail has its own retention): swept at
  // start and every hour, so the history and the stream's replay stay bounded.
  const sweep = () => {
    const at = now();
    rateLimiting.store
      .deleteOlderThan(at - config.incidentRetentionDays * 86_400_000, at)
      .then((deleted) => {
        if (deleted > 0) logger.info({ deleted }, 'incidents past their retention deleted');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'incident retention sweep failed'));
  };
  let sweepTimer: NodeJS.Timeout | undefined;

  return {
    rateLimiting,
    scaleOut,
    streams,
    routes: [{ path: '/api/rate-limits', app: routes }],
    async start() {
      // Blocks of incidents from before a restart still hold: nothing is sent before they end.
      if (deps.persistentDatabase) await rateLimiting.restoreBlocks();
      sweep();
      sweepTimer = setInterval(sweep, HOUR_MS).unref();
      // Then blocks and incidents start flowing between replicas.
      await scaleOut.start({
        governor: rateLimiting.governor,
        hub: rateLimiting.hub,
        store: rateLimiting.store,
        database: deps.persistentDatabase,
      });
    },
    async stop() {
      clearInterval(sweepTimer);
      await scaleOut.close();
      rateLimiting.close();
    },
    readiness: [...rateLimiting.readiness, ...scaleOut.readiness],
  };
}
