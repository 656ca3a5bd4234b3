// Runs what-if replays off the event loop: each in a worker thread of its own (replay-worker.ts,
// started from the entry the composition root gives) that opens the console's database itself,
// so neither its queries nor its walk through the minutes hold up other requests. A replay that is stopped (its askers are gone: replay-gate.ts)
// ends its thread, which stops the work wherever it is.
import type { Worker } from 'node:worker_threads';
import type { WhatIfRequest, WhatIfResult } from '../../shared/planning';
import { traceStep } from '../observability/traced-steps';
import { StoreUnavailableError } from '../store/database';
import { PolicyRejectedError } from './policies';
import type { ReplayDatabase, ReplayJob, ReplayOutcome } from './replay-worker';
import { NoRecordedTrafficError, PeriodTooLongError, whatIf, type PlanningDeps } from './what-if';

/** Replays `request`; stops and rejects with the signal's reason when `signal` aborts. */
export type RunReplay = (request: WhatIfRequest, signal: AbortSignal) => Promise<WhatIfResult>;

/** The worker's refusal as the error the routes know, or a plain Error for anything else. */
function asError(error: { name: string; message: string; parameter?: string }): Error {
  if (error.name === 'NoRecordedTrafficError') return new NoRecordedTrafficError(error.message);
  if (error.name === 'PeriodTooLongError') return new PeriodTooLongError(error.message);
  if (error.name === 'PolicyRejectedError') {
    return new PolicyRejectedError(error.parameter ?? 'policy', error.message);
  }
  if (error.name === 'StoreUnavailableError') return new StoreUnavailableError(error.message);
  return new Error(`The replay failed: ${error.message}`);
}

/** Where replay threads open the database, and how one is started. */
export interface ReplayThreads {
  readonly database: ReplayDatabase;
  /**
   * Starts a thread whose entry serves one job (replay-worker.ts's serveReplayJob): the
   * composition root's, which chooses the reader of the integrations' reported minutes (tests
   * hand in a controllable one).
   */
  readonly spawn: () => Worker;
}

export interface WorkerReplaysOptions extends ReplayThreads {
  /** The platform connection whose recorded traffic the replays read. */
  readonly connection: string;
  readonly deps: Omit<PlanningDeps, 'store'>;
}

/** Replays, each in its own worker thread over `database`. */
export function workerReplays(options: WorkerReplaysOptions): RunReplay {
  // The "replay" span is around the thread, not inside it: the thread makes no calls out and has
  // no SDK of its own, so the span's duration is what a trace needs of it.
  const run: RunReplay = async (request, signal) => {
    signal.throwIfAborted();
    const job: ReplayJob = {
      database: options.database,
      connection: options.connection,
      request,
      inForce: options.deps.inForce,
      connections: options.deps.connections,
      retentionDays: options.deps.retentionDays,
      names: [...(await options.deps.integrationNames())],
      now: options.deps.now(),
    };
    signal.throwIfAborted();
    const worker = options.spawn();
    return new Promise<WhatIfResult>((resolve, reject) => {
      const stop = () => {
        reject(signal.reason as Error);
        void worker.terminate();
      };
      signal.addEventListener('abort', stop, { once: true });
      const settle = (outcome: ReplayOutcome | Error) => {
        signal.removeEventListener('abort', stop);
        void worker.terminate();
        if (outcome instanceof Error) reject(outcome);
        else if ('result' in outcome) resolve(outcome.result);
        else reject(asError(outcome.error));
      };
      worker.once('message', settle);
      worker.once('error', settle);
      worker.once('exit', (code) => settle(new Error(`The replay's thread ended (code ${code})`)));
      worker.postMessage(job);
    });
  };
  return tracedReplays(run);
}

/**
 * Replays on the event loop, for a database no worker can open (an in-memory one: tests and the
 * benchmark's harness). A stopped replay's result is dropped; its work runs to its end.
 */
export function inProcessReplays(deps: PlanningDeps): RunReplay {
  return tracedReplays(async (request, signal) => {
    signal.throwIfAborted();
    const result = await whatIf(deps, request);
    signal.throwIfAborted();
    return result;
  });
}

/** Each replay of `run` as a "replay" step of the request's trace. */
function tracedReplays(run: RunReplay): RunReplay {
  return (request, signal) => traceStep('replay', {}, () => run(request, signal));
}
