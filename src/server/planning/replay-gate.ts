// Shares the replica's replays fairly (docs/planning.md, "Replays share the console"): at most
// `limit` run at once; one more is refused with ReplayBusyError rather than queued (a queue would
// hold browsers for minutes and still let one user fill it); the same replay asked again while it
// runs joins it instead of starting another; and a replay whose every asker has gone (the request
// aborted: tab closed, navigation) is stopped, so nobody's work is done for nobody.

/** As many replays run as the replica allows; `retryAfterSeconds` says when to try again. */
export class ReplayBusyError extends Error {
  override name = 'ReplayBusyError';
  constructor(readonly retryAfterSeconds: number) {
    super(
      `A replay is already running; this console runs at most a few at once. Try again in ${retryAfterSeconds} s.`,
    );
  }
}

/** Starts the work of one replay; it stops (and rejects) when `signal` aborts. */
export type StartReplay<T> = (signal: AbortSignal) => Promise<T>;

interface Flight<T> {
  readonly result: Promise<T>;
  readonly controller: AbortController;
  askers: number;
}

/** Before any replay has finished, a refusal suggests this wait. */
const FIRST_RETRY_AFTER_SECONDS = 5;

export interface ReplayGateOptions {
  /** Replays that may run at once (REPLAY_CONCURRENCY). */
  readonly limit: number;
  readonly now?: () => number;
}

/** The replica's replays in flight, by key. */
export class ReplayGate<T> {
  readonly #limit: number;
  readonly #now: () => number;
  readonly #flights = new Map<string, Flight<T>>();
  #lastDurationMs: number | undefined;

  constructor(options: ReplayGateOptions) {
    this.#limit = options.limit;
    this.#now = options.now ?? Date.now;
  }

  /** Replays running now. */
  get running(): number {
    return this.#flights.size;
  }

  /**
   * The result of the replay `key` names: the one already running if there is one, else a new one
   * `start` begins. `key` must hold everything the result depends on (the request's canonical
   * form and what the asker may see), so a joined asker gets exactly what it would have computed.
   * Rejects with ReplayBusyError when a new one would exceed the limit, and with the abort reason
   * when `signal` (this asker's request) aborts; the work stops when no asker is left.
   */
  async run(key: string, signal: AbortSignal, start: StartReplay<T>): Promise<T> {
    signal.throwIfAborted();
    let flight = this.#flights.get(key);
    if (!flight) {
      if (this.#flights.size >= this.#limit) throw new ReplayBusyError(this.#retryAfterSeconds());
      flight = this.#begin(key, start);
    }
    return this.#ask(flight, signal);
  }

  #begin(key: string, start: StartReplay<T>): Flight<T> {
    const controller = new AbortController();
    const startedAt = this.#now();
    const result = start(controller.signal).finally(() => {
      if (this.#flights.get(key) === flight) this.#flights.delete(key);
      if (!controller.signal.aborted) this.#lastDurationMs = this.#now() - startedAt;
    });
    // An asker may be gone before the result settles; its rejection is handled by the others.
    result.catch(() => undefined);
    const flight: Flight<T> = { result, controller, askers: 0 };
    this.#flights.set(key, flight);
    return flight;
  }

  #ask(flight: Flight<T>, signal: AbortSignal): Promise<T> {
    flight.askers += 1;
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        flight.askers -= 1;
        reject(signal.reason as Error);
        if (flight.askers === 0) flight.controller.abort(signal.reason);
      };
      signal.addEventListener('abort', leave, { once: true });
      flight.result.then(
        (value) => {
          signal.removeEventListener('abort', leave);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(error as Error);
        },
      );
    });
  }

  /**
   * How long a refused asker should wait: as long as the last finished replay took (replays of
   * one console are alike in size, so that is the best guess at when a slot frees), whole seconds,
   * at least one.
   */
  #retryAfterSeconds(): number {
    if (this.#lastDurationMs === undefined) return FIRST_RETRY_AFTER_SECONDS;
    return Math.max(1, Math.ceil(this.#lastDurationMs / 1_000));
  }
}
