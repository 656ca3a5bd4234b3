// Group commit: writes that arrive while a transaction is committing wait, and the next
// transaction commits all of them with one durable write, instead of one after another under the
// same lock. The first write of a quiet moment goes alone and at once, so one request at a time
// waits for nothing new; sixteen at once share a handful of commits instead of queueing for
// sixteen. Each write runs inside a savepoint of the shared transaction: a write that fails by
// itself (a record already complete) is undone and fails alone; a transaction that cannot commit
// (a full disk, the server gone) fails every write in it, with the same error.
import type { SqlDatabase, SqlExecutor } from './database';

interface Waiting<T> {
  readonly work: (tx: SqlExecutor) => Promise<T>;
  readonly resolve: (value: T) => void;
  readonly reject: (error: unknown) => void;
}

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

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
        const batch = this.#waiting.splice(0, this.#maxBatch);
        let settled: Settled[];
        try {
          const db = await this.#db();
          settled = await db.transaction((tx) => runEach(tx, batch));
        } catch (error) {
          for (const waiting of batch) waiting.reject(error);
          continue;
        }
        batch.forEach((waiting, index) => {
          const outcome = settled[index]!;
          if (outcome.ok) waiting.resolve(outcome.value);
          else waiting.reject(outcome.error);
        });
      }
    } finally {
      this.#committing = false;
    }
  }
}

/**
 * Each write in a savepoint of `tx`. A write's own failure rolls back to its savepoint and is
 * kept for its caller; a failure to roll back (the connection lost) ends the whole transaction.
 */
async function runEach(tx: SqlExecutor, batch: readonly Waiting<unknown>[]): Promise<Settled[]> {
  if (batch.length === 1) {
    // Alone, the transaction is the write's own: no savepoint needed, its failure is the batch's.
    return [{ ok: true, value: await batch[0]!.work(tx) }];
  }
  const settled: Settled[] = [];
  for (const waiting of batch) {
    await tx.exec('SAVEPOINT group_write');
    try {
      settled.push({ ok: true, value: await waiting.work(tx) });
      await tx.exec('RELEASE SAVEPOINT group_write');
    } catch (error) {
      await tx.exec('ROLLBACK TO SAVEPOINT group_write');
      await tx.exec('RELEASE SAVEPOINT group_write');
      settled.push({ ok: false, error });
    }
  }
  return settled;
}
