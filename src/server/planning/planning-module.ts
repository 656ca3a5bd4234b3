// The planning area (docs/planning.md): what would happen under another rate-limit policy, and
// how far the account has moved to v4. It records the console's own traffic per minute and
// template (the integrations' reports are added to the account's totals by the integrations
// area, through the port compose.ts hands it), prunes it with the reports' retention, and answers
// the what-if and readiness routes.
import type { DataSubjectOperation } from '../../shared/data-subject-operations';
import type { WhatIfResult } from '../../shared/planning';
import type { AreaModule } from '../runtime/area-module';
import type { GovernorEvents } from '../governor/governor-events';
import type { Logger } from '../observability/logger';
import type { SqlDatabase } from '../store/database';
import { ConsoleTraffic } from './console-traffic';
import { planningRoutes } from './planning-routes';
import type { PolicyInForce } from './policies';
import { ReplayGate } from './replay-gate';
import { inProcessReplays, workerReplays, type ReplayThreads } from './replay-runner';
import { TrafficStore, type ReportedMinutes } from './traffic-store';

const PRUNE_EVERY_MS = 60 * 60_000;

export interface PlanningAreaDeps {
  readonly database: () => Promise<SqlDatabase>;
  /** The integrations' reported minutes, read through their area (compose.ts fills it in). */
  /** The platform connection whose traffic the area records and replays. */
  readonly connection: string;
  /** That connection's integrations' reported minutes. */
  readonly reportedMinutes: ReportedMinutes;
  /** The governor's events: every call it lets through, every 429 it is told of. */
  readonly events: GovernorEvents;
  readonly inForce: PolicyInForce;
  /** Days traffic is kept: the integrations' reports' retention (INTEGRATION_RETENTION_DAYS). */
  readonly retentionDays: number;
  readonly operations: readonly DataSubjectOperation[];
  /** Each registered integration's name by id, a removed one's marked as removed. */
  readonly integrationNames: () => Promise<ReadonlyMap<string, string>>;
  readonly logger: Logger;
  readonly now: () => number;
  /** Replays this replica runs at once (REPLAY_CONCURRENCY). */
  readonly replayConcurrency: number;
  /**
   * Where replay threads open the database (the one `database` opens) and how one is started;
   * without it (an in-memory database, which no other thread can open) replays run on the event
   * loop.
   */
  readonly replayThreads?: ReplayThreads;
}

export interface PlanningArea extends AreaModule {
  readonly traffic: TrafficStore;
  readonly consoleTraffic: ConsoleTraffic;
}

export function createPlanningArea(deps: PlanningAreaDeps): PlanningArea {
  const traffic = new TrafficStore(deps.database, deps.reportedMinutes, {
    connection: deps.connection,
  });
  const consoleTraffic = new ConsoleTraffic({
    store: traffic,
    events: deps.events,
    logger: deps.logger,
    now: deps.now,
  });
  const planningDeps = {
    store: traffic,
    inForce: deps.inForce,
    retentionDays: deps.retentionDays,
    operations: deps.operations,
    integrationNames: deps.integrationNames,
    now: deps.now,
  };
  const replays = {
    gate: new ReplayGate<WhatIfResult>({ limit: deps.replayConcurrency, now: deps.now }),
    run: deps.replayThreads
      ? workerReplays({ ...deps.replayThreads, connection: deps.connection, deps: planningDeps })
      : inProcessReplays(planningDeps),
  };
  let timer: NodeJS.Timeout | undefined;
  const prune = async () => {
    try {
      const removed = await traffic.prune(deps.now() - deps.retentionDays * 86_400_000);
      if (removed > 0) deps.logger.info({ removed }, 'recorded traffic past the retention deleted');
    } catch (error) {
      deps.logger.warn({ err: error }, 'could not delete old recorded traffic');
    }
  };
  return {
    traffic,
    consoleTraffic,
    routes: [
      {
        path: '/api/planning',
        app: planningRoutes({ ...planningDeps, replays }),
      },
    ],
    start() {
      consoleTraffic.start();
      void prune();
      timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await consoleTraffic.stop();
    },
  };
}
