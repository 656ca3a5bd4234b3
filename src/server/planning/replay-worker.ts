// The work of the worker thread a what-if replay runs in (replay-runner.ts). A week-long replay
// reads millions of rows and walks ten thousand minutes twice; on the event loop, SQLite's
// synchronous queries and the walk stalled every other request, /healthz included, for seconds.
// There they stall nothing but that thread, which opens its own connection to the console's
// database and runs at a lower priority than the requests (background-thread.ts). The thread's
// entry is the composition root's (replay-thread.ts): it says which reader of the integrations'
// reported minutes the replay reads through, as compose.ts does for the console.
import { parentPort } from 'node:worker_threads';
import type { WhatIfRequest, WhatIfResult } from '../../shared/planning';
import { openReadOnlyDatabase, type SqlDatabase } from '../store/database';
import { openPostgresDatabase } from '../store/postgres-database';
import { runInBackground } from '../upstream/background-thread';
import type { ConnectionPolicy, PolicyInForce } from './policies';
import { TrafficStore, type ReportedMinutes } from './traffic-store';
import { whatIf } from './what-if';

/** Where the console's database is: what the worker opens (the same one the console has open). */
export type ReplayDatabase =
  | { readonly kind: 'sqlite'; readonly dataDir: string }
  | { readonly kind: 'postgres'; readonly url: string };

/** One replay: the request, and what the console's planning area would have handed `whatIf`. */
export interface ReplayJob {
  readonly database: ReplayDatabase;
  /** The platform connection whose recorded traffic is replayed. */
  readonly connection: string;
  readonly request: WhatIfRequest;
  readonly inForce: PolicyInForce;
  /** Every connection's policy in force, for a replay under another connection's. */
  readonly connections: readonly ConnectionPolicy[];
  readonly retentionDays: number;
  /** Each integration's name by id, read by the console before the job starts. */
  readonly names: ReadonlyArray<readonly [string, string]>;
  readonly now: number;
}

/** Its outcome: the result, or the refusal's class name, message and refused parameter. */
export type ReplayOutcome =
  | { readonly result: WhatIfResult }
  | { readonly error: { name: string; message: string; parameter?: string } };

async function open(database: ReplayDatabase): Promise<SqlDatabase> {
  // One connection is all a replay uses: its queries run one after another, and only read.
  return database.kind === 'sqlite'
    ? openReadOnlyDatabase(database.dataDir)
    : openPostgresDatabase({ url: database.url, poolSize: 1 });
}

/**
 * The integrations' reported minutes read on a database connection the thread opened, those of
 * the integrations reporting to the platform connection `connection`.
 */
export type ReportedMinutesOn = (db: SqlDatabase, connection: string) => ReportedMinutes;

async function replayJob(job: ReplayJob, reportedOn: ReportedMinutesOn): Promise<ReplayOutcome> {
  let db: SqlDatabase | undefined;
  try {
    const opened = (db = await open(job.database));
    const result = await whatIf(
      {
        store: new TrafficStore(() => Promise.resolve(opened), reportedOn(opened, job.connection), {
          connection: job.connection,
        }),
        inForce: job.inForce,
        connections: job.connections,
        retentionDays: job.retentionDays,
        integrationNames: () => Promise.resolve(new Map(job.names)),
        now: () => job.now,
      },
      job.request,
    );
    return { result };
  } catch (error) {
    const { name, message, parameter } = error as Error & { parameter?: string };
    return { error: { name, message, ...(typeof parameter === 'string' ? { parameter } : {}) } };
  } finally {
    await db?.close();
  }
}

/**
 * Makes the calling worker thread a replay's: lowers its priority, then replays the one job its
 * parent posts, reading the integrations' reported minutes through `reportedOn`, and posts back
 * the outcome. One job per thread: the console ends the thread when the replay's askers are gone,
 * which stops its work wherever it is.
 */
export function serveReplayJob(reportedOn: ReportedMinutesOn): void {
  runInBackground();
  parentPort?.once('message', (job: ReplayJob) => {
    void replayJob(job, reportedOn).then((outcome) => parentPort?.postMessage(outcome));
  });
}
