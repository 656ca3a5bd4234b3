// The worker thread that checkpoints the embedded store's write-ahead log (wal-checkpointer.ts):
// it copies the committed pages from the log into the database file and flushes both, on a
// connection of its own, so that neither the copy nor its two fsyncs run on the event loop.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { runInBackground } from '../upstream/background-thread';

/** What the thread is started with. */
export interface CheckpointThreadData {
  /** The database file, which the console's own connection has opened and migrated. */
  readonly file: string;
}

/** One checkpoint's outcome, as SQLite reports it (frames of the log), or why it failed. */
export type CheckpointReply =
  | { readonly log: number; readonly checkpointed: number; readonly busy: boolean }
  | { readonly error: string };

// Requests come first: this thread takes the cores the event loop leaves (background-thread.ts).
runInBackground();

const { file } = workerData as CheckpointThreadData;
const connection = new Database(file, { fileMustExist: true });
// NORMAL: the log is flushed before its pages are copied and the database file after, as SQLite
// does for a checkpoint on the console's own connection.
connection.pragma('synchronous = NORMAL');

parentPort?.on('message', (message: 'checkpoint' | 'close') => {
  if (message === 'close') {
    // Closed before the console's connection, which then finds itself the last one and, as it
    // closes, checkpoints the rest and removes the log.
    connection.close();
    parentPort?.close();
    return;
  }
  let reply: CheckpointReply;
  try {
    // PASSIVE: copies what it can without waiting for (or holding up) the console's writes.
    const [row] = connection.pragma('wal_checkpoint(PASSIVE)') as Array<{
      busy: number;
      log: number;
      checkpointed: number;
    }>;
    reply = { log: row?.log ?? 0, checkpointed: row?.checkpointed ?? 0, busy: row?.busy === 1 };
  } catch (error) {
    reply = { error: (error as Error).message };
  }
  parentPort?.postMessage(reply);
});
parentPort?.postMessage('ready');
