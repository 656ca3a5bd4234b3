// Wires the rate-limit side of the BFF in one place for compose.ts: the governor, the incident
// store, recorder and live hub, the guard the upstream client calls, and the readiness check. The
// database the incidents are kept in is borrowed (store/open-store.ts), never opened here.
import type { Incident } from '../../shared/incident';
import type { RateLimitRule } from '../../shared/rate-limits';
import type { Config } from '../config/config';
import { IncidentHub } from './incident-hub';
import { IncidentRecorder } from './incident-recorder';
import type { Logger } from '../observability/logger';
import type { CheckResult, ReadinessCheck } from '../observability/readiness';
import type { SqlDatabase } from '../store/database';
import { SqlIncidentStore } from './incident-store';
import { withinDeadline } from '../runtime/within-deadline';
import { Governor, type GovernedOperation, type GovernorFallback } from '../governor/governor';
import { createUpstreamGuard } from './upstream-guard';
import type { WindowCounterStore } from '../governor/window-store';

export interface RateLimitingOptions {
  /** The platform connection whose limits these are: its incidents are stored as its. */
  readonly connection: string;
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => number;
  /** The token endpoint's address: its requests count toward the account limits. */
  readonly tokenUrl: URL;
  /** The database incidents are kept in (store/open-store.ts), shared with the other stores. */
  readonly database: () => Promise<SqlDatabase>;
  /** Module rules instead of the published ones of docs/rate-limit-model.md (tests). */
  readonly moduleRules?: readonly RateLimitRule[];
  /** Where the governor's counters live (default this process's memory). */
  readonly windowStore?: WindowCounterStore;
  /** The per-replica share of the limits (scale-out.ts); see GovernorOptions.fallback. */
  readonly fallback?: GovernorFallback;
  /** Told of every incident stored, and of every failed write (metrics). */
  readonly onIncidentStored?: (incident: Incident) => void;
  readonly onIncidentWriteFailed?: () => void;
}

const PING_TIMEOUT_MS = 2_000;
/** A readiness probe of the store, failed when the store does not answer in time. */
const inTime = (probe: Promise<unknown>) =>
  withinDeadline(probe, PING_TIMEOUT_MS, () => {
    throw new Error('the store did not answer in time');
  });
/** How often readiness tries a write while the last incident write failed. */
const WRITE_PROBE_EVERY_MS = 2_000;

/** Builds the rate-limit parts. */
export function createRateLimiting(options: RateLimitingOptions) {
  const { config, logger, now } = options;
  const store = new SqlIncidentStore(options.database, { connection: options.connection });
  let lastProbe = -Infinity;
  const hub = new IncidentHub();
  const recorder = new IncidentRecorder({
    store,
    hub,
    logger,
    now,
    ...(options.onIncidentStored ? { onStored: options.onIncidentStored } : {}),
    ...(options.onIncidentWriteFailed ? { onFailed: options.onIncidentWriteFailed } : {}),
  });
  const governor = new Governor({
    tier: config.upstream.accountTier,
    policy: config.rateLimits.policy,
    ...(config.rateLimits.endpointMinuteLimit === undefined
      ? {}
      : { endpointMinuteLimit: config.rateLimits.endpointMinuteLimit }),
    keepSoftLimits: config.rateLimits.keepSoftLimits,
    accountOverride: config.rateLimits.accountOverride,
    now,
    ...(options.moduleRules ? { moduleRules: options.moduleRules } : {}),
    ...(options.windowStore ? { store: options.windowStore } : {}),
    ...(options.fallback ? { fallback: options.fallback } : {}),
  });
  const tokenOperation: GovernedOperation = {
    id: 'token',
    method: 'POST',
    path: options.tokenUrl.pathname,
  };
  const guard = createUpstreamGuard({
    governor,
    recorder,
    now,
    tokenOperation,
    ...(options.moduleRules ? { moduleRules: options.moduleRules } : {}),
  });

  return {
    governor,
    store,
    hub,
    recorder,
    guard,
    tokenOperation,

    /**
     * Re-applies the blocks of stored incidents that have not ended: a restart must not send
     * before a Retry-After received by the previous process has passed. Only worth calling when
     * the store outlives the process.
     */
    async restoreBlocks(): Promise<void> {
      try {
        for (const incident of await store.activeBlocks(now())) {
          governor.block({
            scope: incident.scope,
            ruleId: incident.ruleId,
            period: incident.period,
            until: Date.parse(incident.blockedUntil),
            incidentKey: incident.key,
            stated: { requestsAllowed: incident.requestsAllowed },
          });
        }
      } catch (error) {
        logger.error({ err: error }, 'could not restore rate-limit blocks from the store');
      }
    },

    /** What /readyz and /api/health ask of the incident store: it answers, and takes writes. */
    readiness: [
      {
        name: 'store',
        required: true,
        async check(): Promise<CheckResult> {
          try {
            await inTime(store.ping());
            return { ok: true };
          } catch (error) {
            return { ok: false, error: error instanceof Error ? error.message : String(error) };
          }
        },
      },
      {
        name: 'incidentWrites',
        required: true,
        async check(): Promise<CheckResult> {
          // After failed writes, probe the write path (at most every few seconds): readiness then
          // recovers within seconds of the store recovering, not at the next upstream 429. The
          // probe has the ping's deadline, so a store that hangs does not hold the answer up.
          if (!recorder.health().ok && now() - lastProbe >= WRITE_PROBE_EVERY_MS) {
            lastProbe = now();
            try {
              await inTime(store.probeWrite(now()));
              recorder.writesRecovered();
            } catch {
              // Still refused: the failed write's reason stays the one shown.
            }
          }
          const writes = recorder.health();
          return writes.ok
            ? { ok: true }
            : {
                ok: false,
                ...(writes.failedAt === null
                  ? {}
                  : { failedAt: new Date(writes.failedAt).toISOString() }),
                ...(writes.error === null ? {} : { error: writes.error }),
              };
        },
      },
    ] satisfies readonly ReadinessCheck[],

    /** Ends the open live streams. */
    close(): void {
      hub.closeAll();
    },
  };
}

export type RateLimiting = ReturnType<typeof createRateLimiting>;
