// Moves the embedded store's checkpoints off the event loop. In write-ahead-log mode SQLite copies
// the log's pages back into the database file once the log holds 1,000 pages, and it does so on
// the connection that just committed, inside that COMMIT: on the console's one connection that is
// the event loop. Traced on the reference machine, every 30th audited lookup or so carried one:
// about a hundred pages read and written and two fsyncs (the log's, 0.4 ms, and the database
// file's, 0.8 ms), 2 to 5 ms during which no request of the process was served.
//
// Here the console's connection checkpoints nothing by itself (`wal_autocheckpoint = 0`); a worker
// thread with its own connection (wal-checkpoint-thread.ts) runs a PASSIVE checkpoint at most every
// CHECKPOINT_EVERY_MS while there are commits. Durability does not change: a commit is durable
// once the log is flushed (log-flusher.ts); a checkpoint only copies what is already durable.
//
// The log restarts from its beginning only when a write begins after a checkpoint copied all of
// it. Under writes that never pause (the store's group commit opens the next transaction as the
// last one commits), each of the thread's copies ends while a transaction is open, and a long read
// (a what-if replay's connection) keeps any copy from reaching the newest pages: the log grows.
// Should the thread report a log of LOG_LIMIT pages or more, the console's connection takes its
// checkpoints back (SQLite's own, after its next COMMIT: by then it copies only what the thread
// has not, and the following write restarts the log) until the thread reports a short log again;
// if the thread fails or ends, for good.
import type { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { CheckpointReply } from './wal-checkpoint-thread';

/** The longest the log grows between two of the thread's checkpoints, in time. */
export const CHECKPOINT_EVERY_MS = 250;
/** SQLite's own threshold (pages), what the console's connection uses when it checkpoints. */
export const SQLITE_AUTOCHECKPOINT = 1_000;
/** From this many pages (16 MB) in the log, the console's connection checkpoints again. */
export const LOG_LIMIT = 4_000;

export interface WalCheckpointer {
  /** Told after each commit: a checkpoint follows within CHECKPOINT_EVERY_MS. */
  committed(): void;
  /** Whether the thread checkpoints (false once it failed, or when the log is over its limit). */
  readonly offThread: boolean;
  /**
   * Ends the thread (after the checkpoint it runs, which SQLite cannot interrupt) and resolves
   * once its connection is closed; the console's connection checkpoints by itself again.
   */
  close(): Promise<void>;
}

export interface WalCheckpointerOptions {
  /** Starts the thread (wal-checkpoint-thread.ts) for `file`. */
  readonly start: () => Worker;
  /**
   * Told when a checkpoint fails (`threadEnded` false: the next one tries again) or the thread
   * does (true: the connection checkpoints by itself from then on).
   */
  readonly onFailure?: (message: string, threadEnded: boolean) => void;
  readonly everyMs?: number;
  readonly logLimit?: number;
}

/**
 * Checkpoints the log of `connection` (open in WAL mode) in a thread. The thread is started
 * here; until it says it is ready, and after it fails, the connection checkpoints by itself.
 */
export function walCheckpointer(
  connection: Database.Database,
  { start, onFailure, everyMs = CHECKPOINT_EVERY_MS, logLimit = LOG_LIMIT }: WalCheckpointerOptions,
): WalCheckpointer {
  let worker: Worker | undefined = start();
  let ready = false;
  let running = false;
  let pending = false;
  let lastAt = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let onConnection = true;
  const checkpointOnConnection = (yes: boolean) => {
    if (yes === onConnection || !connection.open) return;
    connection.pragma(`wal_autocheckpoint = ${yes ? SQLITE_AUTOCHECKPOINT : 0}`);
    onConnection = yes;
  };
  const run = () => {
    timer = undefined;
    if (!worker || !ready || running || !pending) return;
    const wait = lastAt + everyMs - performance.now();
    if (wait > 0) {
      timer = setTimeout(run, wait);
      timer.unref();
      return;
    }
    pending = false;
    running = true;
    lastAt = performance.now();
    worker.postMessage('checkpoint');
  };
  const fail = (message: string) => {
    if (!worker) return;
    const ended = worker;
    worker = undefined;
    clearTimeout(timer);
    checkpointOnConnection(true);
    onFailure?.(message, true);
    void ended.terminate();
  };
  worker.unref();
  worker.on('message', (reply: 'ready' | CheckpointReply) => {
    if (reply === 'ready') {
      ready = true;
      checkpointOnConnection(false);
      run();
      return;
    }
    running = false;
    if ('error' in reply) {
      // A checkpoint that failed (a full disk, say) leaves the log as it was: commits go on
      // into it, and the next checkpoint tries again.
      onFailure?.(reply.error, false);
    } else {
      // Even a log copied whole restarts only if the next write begins after the copy ended;
      // under writes that never pause each copy ends inside a transaction, and the log grows.
      checkpointOnConnection(reply.log >= logLimit);
    }
    run();
  });
  worker.on('error', (error) => fail(error.message));
  worker.on('exit', (code) => fail(`the checkpoint thread ended (exit code ${code})`));
  return {
    committed() {
      pending = true;
      if (!timer && !running) run();
    },
    get offThread() {
      return worker !== undefined && ready && !onConnection;
    },
    async close() {
      const ended = worker;
      worker = undefined;
      clearTimeout(timer);
      if (ended) {
        ended.removeAllListeners();
        // Held until it has closed its connection: unreferenced, the process could end first.
        ended.ref();
        const exited = new Promise((resolve) => ended.once('exit', resolve));
        ended.postMessage('close');
        await exited;
      }
      checkpointOnConnection(true);
    },
  };
}
