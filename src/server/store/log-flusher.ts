// Makes SQLite's commits durable without stopping the event loop. With `synchronous = FULL`,
// every COMMIT waited for the disk inside better-sqlite3's synchronous call: about 1 ms per commit
// on the reference machine, during which no other request of the process was served, so sixteen
// lookups at once queued behind each other's flushes. Instead the connection commits with
// `synchronous = NORMAL` (in write-ahead-log mode a commit is then written to the log, safe from a
// crash of the process but not yet from a power cut) and the commit is reported only after this
// flusher has had the log file `fdatasync`ed on libuv's thread pool. That is what FULL does, done
// off the event loop: fsync flushes the whole file whatever descriptor asks, so a flush that
// starts after a commit's COMMIT returned covers that commit and every earlier one.
//
// Flushes are shared: callers arriving while one runs wait for the next, which covers all of
// them (one that started before their commit would not). A failed flush is final: after an
// fsync error the kernel may have dropped the pages it could not write and report the next fsync
// as a success, so no later write can be promised durable. Every flush then fails with the same
// error until the console is restarted (PostgreSQL takes the same stance).
import { open, type FileHandle } from 'node:fs/promises';

/** Flushes a file's written data to the disk: `fdatasync` unless a test stands in for it. */
export type FlushFile = (file: FileHandle) => Promise<void>;

export interface LogFlusher {
  /** Resolves once everything committed before the call is on the disk. */
  flush(): Promise<void>;
  /** The error of a failed flush, after which nothing can be promised durable. */
  readonly failure: Error | undefined;
  close(): Promise<void>;
}

/**
 * A flusher of the write-ahead log at `path`. The log exists while the database is open in WAL
 * mode: SQLite removes it only when the last connection closes, and the console's stays open.
 * `explain` turns a failed flush into the error callers see.
 */
export function logFlusher(
  path: string,
  explain: (error: unknown) => Error,
  flushFile: FlushFile = (file) => file.datasync(),
): LogFlusher {
  let handle: Promise<FileHandle> | undefined;
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  let failure: Error | undefined;

  const flushOnce = async () => {
    try {
      handle ??= open(path, 'r');
      await flushFile(await handle);
    } catch (error) {
      failure ??= explain(error);
      throw failure;
    }
  };
  const flush = (): Promise<void> => {
    if (failure) return Promise.reject(failure);
    if (!running) {
      running = flushOnce().finally(() => {
        running = undefined;
      });
      return running;
    }
    // The running flush may have started before this caller's commit: it waits for the next.
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return flush();
      });
    return next;
  };
  return {
    flush,
    get failure() {
      return failure;
    },
    async close() {
      await Promise.allSettled([running, next]);
      const opened = await handle?.catch(() => undefined);
      await opened?.close();
    },
  };
}
