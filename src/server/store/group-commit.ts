// Group commit: writes that arrive while a transaction is committing wait, and the next
// transaction commits all of them with one durable write, instead of one after another under the
// same lock. The first write of a quiet moment goes alone and at once, so one request at a time
// waits for nothing new; sixteen at once share a handful of commits instead of queueing for
// sixteen. The writes of a batch run one after the other in its transaction, with nothing between
// them: a savepoint around each would cost two more statements a write, and on PostgreSQL two more
// round trips while the batch holds its locks. A write that fails by itself (a record already
// complete) fails alone: the batch's transaction is undone, and each of the other writes runs
// again in a transaction of its own. A transaction that cannot commit (a full disk, the server
// gone) fails every write in it, with the same error.
import type { SqlDatabase, SqlExecutor } from './database';

interface Waiting<T> {
  readonly work: (tx: SqlExecutor) => Promise<T>;
  readonly resolve: (value: T) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Batches several small transactions' worth of `work` into one transaction. Keeps arrival order:
 * the writes run in the order `run` was called, so an append-only chain stays one sequence.
 */
export class GroupCommit {
  readonly #db: () => Promise<SqlDatabase>;
  readonly #maxBatch: number;
  #waiting: Waiting<unknown>[] = [];
  #committing = false;

  /**
   * `maxBatch` bounds a transaction's length, so a burst never holds the database's write lock
   * (SQLite) or the chain head's row lock (PostgreSQL) for longer than a few dozen writes.
   */
  constructor(db: () => Promise<SqlDatabase>, maxBatch = 64) {
    this.#db = db;
    this.#maxBatch = maxBatch;
  }

  /** Runs `work` in the next commit; resolves once that commit is durable. */
  run<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({ work, resolve, reject } as Waiting<unknown>);
      if (!this.#committing) void this.#commitWaiting();
    });
  }

  async #commitWaiting(): Promise<void> {
    this.#committing = true;
    try {
      while (this.#waiting.length > 0) {
        await this.#commit(this.#waiting.splice(0, this.#maxBatch));
      }
    } finally {
      this.#committing = false;
    }
  }

  /** Commits `batch` in one transaction; on a write's own failure, the others one by one. */
  async #commit(batch: readonly Waiting<unknown>[]): Promise<void> {
    let failed: { readonly index: number; readonly error: unknown } | undefined;
    let values: unknown[];
    try {
      const db = await this.#db();
      values = await db.transaction(async (tx) => {
        const done: unknown[] = [];
        for (const [index, waiting] of batch.entries()) {
          try {
            done.push(await waiting.work(tx));
          } catch (error) {
            failed = { index, error };
            throw error;
          }
        }
        return done;
      });
    } catch (error) {
      if (!failed || batch.length === 1) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      // Undone with the transaction, the writes before it and after it were never committed:
      // each runs again alone, in arrival order, and the one that failed is told why.
      const { index: failedAt, error: reason } = failed;
      batch[failedAt]!.reject(reason);
      for (const [index, waiting] of batch.entries()) {
        if (index !== failedAt) await this.#commit([waiting]);
      }
      return;
    }
    batch.forEach((waiting, index) => waiting.resolve(values[index]));
  }
}
