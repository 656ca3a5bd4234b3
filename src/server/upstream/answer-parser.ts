// Reads event-types answers without blocking the event loop. A small answer is read at once on
// the main thread (a worker round trip would cost more than it saves); a large one is moved, as
// bytes, to a worker thread, one at a time per worker, in arrival order, each with the deadline of
// its request: a job still queued at its deadline is dropped unstarted, and a job still running at
// it is stopped (its worker is ended and a fresh one takes the next job), so nothing is worked on
// for a request that has already been answered with a timeout. Measured in bench/ (scenario
// large-answers) against the alternatives: see docs/architecture.md, "Large answers".
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../runtime/start-worker';
import type { AnswerJob, AnswerResult } from './answer-worker';
import { checkedEventTypesBody, withItems, type EventTypesBody } from './event-types-json';
import { bufferView, ownedWhole } from './owned-bytes';

/** Answers of at least this many bytes are read off the main thread. */
export const OFF_THREAD_FROM_BYTES = 256 * 1024;

/** The deadline passed before the answer was read. */
export class AnswerDeadlineExceeded extends Error {
  override name = 'AnswerDeadlineExceeded';
}

/** The worker: the TypeScript source from a checkout, the bundled file after a build. */
const startAnswerWorker = () =>
  startWorker(
    new URL('./answer-worker.ts', import.meta.url),
    new URL('./upstream/answer-worker.js', import.meta.url),
  );

interface Job {
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly fetchedAt: string;
  readonly deadlineAt: number;
  readonly resolve: (list: EventTypesBody | undefined) => void;
  readonly reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
}

/** One worker slot: its thread (started on first use) and the job it runs. */
interface Slot {
  worker: Worker | undefined;
  job: Job | undefined;
}

/** What the parser has in hand, for tests and metrics. */
export interface ParserLoad {
  readonly running: number;
  readonly queued: number;
}

export interface AnswerParserOptions {
  /** Worker threads (default: one fewer than the cores, at least 1, at most 2). */
  readonly workers?: number;
  readonly now?: () => number;
}

/** The event-types answer reader; `close()` ends its threads. */
export class AnswerParser {
  readonly #slots: Slot[];
  readonly #queue: Job[] = [];
  readonly #now: () => number;
  #nextId = 1;

  constructor(options: AnswerParserOptions = {}) {
    const workers = options.workers ?? Math.min(2, Math.max(1, availableParallelism() - 1));
    this.#slots = Array.from({ length: workers }, () => ({ worker: undefined, job: undefined }));
    this.#now = options.now ?? Date.now;
  }

  /** Jobs running and waiting now. */
  load(): ParserLoad {
    return {
      running: this.#slots.filter((slot) => slot.job).length,
      queued: this.#queue.length,
    };
  }

  /**
   * The body of `GET /api/event-types` for the answer `bytes` (UTF-8 JSON) that arrived at
   * `fetchedAt`, or undefined when it is not a list of event types. Rejects with
   * AnswerDeadlineExceeded when it cannot be read by `deadlineAt`. A large answer's bytes are
   * moved to the worker: the caller cannot read them afterwards.
   */
  read(bytes: Buffer, fetchedAt: string, deadlineAt: number): Promise<EventTypesBody | undefined> {
    if (bytes.byteLength < OFF_THREAD_FROM_BYTES) {
      return Promise.resolve(checkedEventTypesBody(bytes, fetchedAt));
    }
    return new Promise((resolve, reject) => {
      const job: Job = {
        id: this.#nextId++,
        bytes: ownedWhole(bytes),
        fetchedAt,
        deadlineAt,
        resolve,
        reject,
      };
      const wait = deadlineAt - this.#now();
      if (wait <= 0) {
        reject(new AnswerDeadlineExceeded());
        return;
      }
      job.timer = setTimeout(() => this.#expire(job), wait);
      this.#queue.push(job);
      this.#dispatch();
    });
  }

  /** Ends the threads; jobs in hand are refused. */
  async close(): Promise<void> {
    for (const job of this.#queue.splice(0)) this.#settle(job, new AnswerDeadlineExceeded());
    await Promise.all(
      this.#slots.map(async (slot) => {
        if (slot.job) this.#settle(slot.job, new AnswerDeadlineExceeded());
        slot.job = undefined;
        const worker = slot.worker;
        slot.worker = undefined;
        await worker?.terminate();
      }),
    );
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (slot.job) continue;
      const job = this.#queue.shift();
      if (!job) return;
      slot.job = job;
      const worker = (slot.worker ??= this.#spawn(slot));
      const message: AnswerJob = { id: job.id, bytes: job.bytes, fetchedAt: job.fetchedAt };
      worker.postMessage(message, [job.bytes.buffer as ArrayBuffer]);
    }
  }

  #spawn(slot: Slot): Worker {
    const worker = startAnswerWorker();
    worker.unref();
    worker.on('message', (result: AnswerResult) => {
      const job = slot.job;
      if (!job || job.id !== result.id) return;
      slot.job = undefined;
      this.#settle(
        job,
        result.body ? withItems(bufferView(result.body), job.fetchedAt) : undefined,
      );
      this.#dispatch();
    });
    worker.on('error', (error) => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      const job = slot.job;
      slot.job = undefined;
      if (job) this.#settle(job, error);
      this.#dispatch();
    });
    return worker;
  }

  /** The job's deadline passed: drop it from the queue, or stop the worker running it. */
  #expire(job: Job): void {
    const queued = this.#queue.indexOf(job);
    if (queued !== -1) this.#queue.splice(queued, 1);
    const slot = this.#slots.find((candidate) => candidate.job === job);
    if (slot) {
      const worker = slot.worker;
      slot.worker = undefined;
      slot.job = undefined;
      void worker?.terminate();
    }
    this.#settle(job, new AnswerDeadlineExceeded());
    this.#dispatch();
  }

  #settle(job: Job, outcome: EventTypesBody | undefined | Error): void {
    clearTimeout(job.timer);
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
  }
}
