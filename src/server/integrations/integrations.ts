// Builds the account-wide view's parts from the configuration: the integration store, the
// per-key ingest limiter (in Redis when replicas share one), the account usage, and the timer
// that deletes aggregates older than the retention.
import { accountMinuteCeiling } from '../../shared/rate-limits';
import type { RedisClient } from '../redis/redis-connection';
import type { RedisKeys } from '../redis/redis-keys';
import type { Logger } from '../observability/logger';
import type { SqlDatabase } from '../store/database';
import { AccountUsage, type GovernorView, type IncidentList } from './account-usage';
import type { WebSettings } from '../security/web-settings';
import { createFailedKeyGuard } from './failed-key-guard';
import { createIngestLimiter } from './ingest-limiter';
import { IntegrationStore } from './integration-store';
import type { AlsoRecordMinutes } from './report-aggregates';
import type { DemoBurstPort, IntegrationsRoutesDeps } from './integrations-port';

/** The account-wide view's settings (INTEGRATION_* variables). */
export interface IntegrationSettings {
  readonly retentionDays: number;
  readonly ingestPerMinute: number;
  readonly failedKeysPerMinute: number;
  readonly failedKeyHoldMs: number;
  readonly staleAfterSeconds: number;
}

export interface IntegrationsOptions {
  readonly settings: IntegrationSettings;
  readonly database: () => Promise<SqlDatabase>;
  readonly governor: GovernorView;
  readonly incidents: IncidentList;
  readonly logger: Logger;
  readonly now: () => number;
  /** How clients reach the console: which address a wrong key is counted against. */
  readonly web: WebSettings;
  readonly redis?: RedisClient;
  readonly keys?: RedisKeys;
  /** Written with every stored report, in its transaction (the planning area's account totals). */
  readonly alsoRecord?: AlsoRecordMinutes;
}

const PRUNE_EVERY_MS = 10 * 60_000;

/** The parts, and start/stop of the retention timer. */
export function createIntegrations(options: IntegrationsOptions) {
  const { settings, now, logger } = options;
  const store = new IntegrationStore(options.database, now, options.alsoRecord, () =>
    accountMinuteCeiling(options.governor.rules()),
  );
  const retentionMs = settings.retentionDays * 86_400_000;
  let demo: (DemoBurstPort & { list(): Array<{ id: string; name: string }> }) | undefined;
  const usage = new AccountUsage({
    store,
    governor: options.governor,
    incidents: options.incidents,
    now,
    staleAfterMs: settings.staleAfterSeconds * 1_000,
    demoBursts: () => demo?.list() ?? [],
  });
  const limiter = createIngestLimiter({
    perMinute: settings.ingestPerMinute,
    ...(options.redis ? { redis: options.redis, keys: options.keys } : {}),
  });
  const failedKeys = createFailedKeyGuard({
    perMinute: settings.failedKeysPerMinute,
    holdMs: settings.failedKeyHoldMs,
    now,
  });
  let timer: NodeJS.Timeout | undefined;
  const prune = async () => {
    try {
      const removed = await store.prune(now() - retentionMs);
      if (removed > 0)
        logger.info({ removed }, 'integration aggregates past the retention deleted');
    } catch (error) {
      logger.warn({ err: error }, 'could not delete old integration aggregates');
    }
  };
  return {
    store,
    usage,
    /** Routes' dependencies. */
    routes(): IntegrationsRoutesDeps {
      return {
        store,
        usage,
        limiter,
        failedKeys,
        web: options.web,
        logger,
        now,
        retentionMs,
        ...(demo ? { demo } : {}),
      };
    },
    /** Demo mode: the simulated integrations (set before the routes are built). */
    setDemo(port: DemoBurstPort & { list(): Array<{ id: string; name: string }> }) {
      demo = port;
    },
    start() {
      void prune();
      timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
