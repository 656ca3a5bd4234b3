// A bound on upstream loads that hold large answers: at most `running` at once, and at most
// `waiting` more queued for a turn, in arrival order, each until its deadline. Past that a load is
// refused at once. Without it, every distinct request ran its own upstream call and held its
// answer (up to UPSTREAM_MAX_ANSWER_BYTES) in memory at the same time: 64 distinct filtered lists
// of 16 MB asked for at once took the console to 1.4 GB of memory (bench/findings/large-answers.md).

/** Why a load did not get its turn: the queue was full, or its deadline passed while it waited. */
export class LoadRefused extends Error {
  constructor(readonly reason: 'queue-full' | 'deadline') {
    super(reason === 'queue-full' ? 'too many loads waiting' : 'no turn before the deadline');
    this.name = 'LoadRefused';
  }
}

export interface BoundedLoadsOptions {
  /** Loads run at once. */
  running: number;
  /** Loads queued behind them; one more is refused at once. */
  waiting: number;
  now?: () => number;
}

interface Waiter {
  readonly start: () => void;
  timer?: ReturnType<typeof setTimeout>;
}

export class BoundedLoads {
  readonly #options: BoundedLoadsOptions;
  readonly #now: () => number;
  #running = 0;
  readonly #queue: Waiter[] = [];

  constructor(options: BoundedLoadsOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Runs `load` when it has a turn and returns what it returns; rejects with LoadRefused when the
   * queue is full or `deadlineAt` (ms, as `now` counts) passes before its turn comes.
   */
  async run<T>(load: () => Promise<T>, deadlineAt: number): Promise<T> {
    await this.#turn(deadlineAt);
    try {
      return await load();
    } finally {
      this.#release();
    }
  }

  // Taking a turn and counting it happen in one synchronous step, and a finished load hands its
  // turn straight to the first waiter, so no load can slip in between a check and its count.
  #turn(deadlineAt: number): Promise<void> {
    if (this.#running < this.#options.running) {
      this.#running += 1;
      return Promise.resolve();
    }
    if (this.#queue.length >= this.#options.waiting) {
      return Promise.reject(new LoadRefused('queue-full'));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { start: resolve };
      waiter.timer = setTimeout(
        () => {
          const at = this.#queue.indexOf(waiter);
          if (at !== -1) this.#queue.splice(at, 1);
          reject(new LoadRefused('deadline'));
        },
        Math.max(0, deadlineAt - this.#now()),
      );
      this.#queue.push(waiter);
    });
  }

  #release(): void {
    const next = this.#queue.shift();
    if (!next) {
      this.#running -= 1;
      return;
    }
    clearTimeout(next.timer);
    next.start();
  }
}
