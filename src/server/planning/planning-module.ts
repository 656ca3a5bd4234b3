// The planning area of one platform connection (docs/planning.md): what would happen under
// another rate-limit policy, and how far that account has moved to v4. It records the console's
// own traffic to that connection per minute and template (the integrations' reports are added to
// the account's totals by the integrations area, through the port compose.ts hands it), prunes the
// connection's rows with the reports' retention, and answers the what-if and readiness routes.
// compose.ts builds one per connection and mounts each under its connection's prefix.
import type { DataSubjectOperation } from '../../shared/data-subject-operations';
import type { WhatIfResult } from '../../shared/planning';
import type { AreaModule } from '../runtime/area-module';
import type { GovernorEvents } from '../governor/governor-events';
import type { Logger } from '../observability/logger';
import type { SqlDatabase } from '../store/database';
import { ConsoleTraffic } from './console-traffic';
import { planningRoutes } from './planning-routes';
import type { ConnectionPolicy, PolicyInForce } from './policies';
import type { ReplayGate } from './replay-gate';
import { inProcessReplays, workerReplays, type ReplayThreads } from './replay-runner';
import { TrafficStore, type ReportedMinutes } from './traffic-store';

const PRUNE_EVERY_MS = 60 * 60_000;

export interface PlanningAreaDeps {
  readonly database: () => Promise<SqlDatabase>;
  /** The platform connection whose traffic the area records and replays. */
  readonly connection: string;
  /** That connection's integrations' reported minutes. */
  readonly reportedMinutes: ReportedMinutes;
  /** That connection's governor's events: every call it lets through, every 429 it is told of. */
  readonly events: GovernorEvents;
  /** That connection's policy in force. */
  readonly inForce: PolicyInForce;
  /** Every connection's policy in force, this one's included (a replay under another's). */
  readonly connections: readonly ConnectionPolicy[];
  /** Days traffic is kept: the integrations' reports' retention (INTEGRATION_RETENTION_DAYS). */
  readonly retentionDays: number;
  readonly operations: readonly DataSubjectOperation[];
  /** Each registered integration's name by id, a removed one's marked as removed. */
  readonly integrationNames: () => Promise<ReadonlyMap<string, string>>;
  readonly logger: Logger;
  readonly now: () => number;
  /**
   * The replica's replays in flight (REPLAY_CONCURRENCY at once): one gate for every connection's
   * planning area, since the limit protects the replica's CPU and database, which all share.
   */
  readonly replayGate: ReplayGate<WhatIfResult>;
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
    connections: deps.connections,
    retentionDays: deps.retentionDays,
    operations: deps.operations,
    integrationNames: deps.integrationNames,
    now: deps.now,
  };
  const replays = {
    gate: deps.replayGate,
    run: deps.replayThreads
      ? workerReplays({ ...deps.replayThreads, connection: deps.connection, deps: planningDeps })
      : inProcessReplays(planningDeps),
  };
  let timer: NodeJS.Timeout | undefined;
  // Each connection's area prunes its own connection's rows (TrafficStore.prune is scoped to it):
  // N areas never delete the same rows twice, and one connection's failing prune leaves the
  // others' to run.
  const prune = async () => {
    try {
      const removed = await traffic.prune(deps.now() - deps.retentionDays * 86_400_000);
      if (removed > 0) {
        deps.logger.info(
          { removed, connection: deps.connection },
          'recorded traffic past the retention deleted',
        );
      }
    } catch (error) {
      deps.logger.warn(
        { err: error, connection: deps.connection },
        'could not delete old recorded traffic',
      );
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
