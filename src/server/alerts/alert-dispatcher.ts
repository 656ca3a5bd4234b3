// Sends what the outbox holds: claims due deliveries, attempts each once, and records the outcome
// — delivered, retrying after an exponential backoff, or dead after the last attempt. Runs on an
// injected clock and scheduler, so tests move time instead of sleeping. Every process runs one;
// the claim in the store keeps two from sending the same attempt.
import type { Logger } from '../observability/logger';
import { postAlert, type AlertHttpOptions, type AlertHttpResult } from './alert-http';
import { formatAlert, type AlertPayload } from './alert-payload';
import { ORDERED_EVENTS, type AlertStore, type ClaimedDelivery } from './alert-store';

/** Timers, injectable so tests drive them. */
export interface AlertScheduler {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's timers, unref'd so they never hold the process open. */
export const realScheduler: AlertScheduler = {
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface AlertDispatcherOptions {
  readonly store: AlertStore;
  readonly http: AlertHttpOptions;
  readonly logger: Logger;
  readonly now: () => number;
  /** Attempts in all, the first included (ALERT_MAX_ATTEMPTS); then the delivery is dead. */
  readonly maxAttempts: number;
  /** Wait after the first failed attempt; doubles after each (default 30 s). */
  readonly retryBaseMs?: number;
  /** Longest wait between two attempts (default 1 hour). */
  readonly maxBackoffMs?: number;
  /** How often the outbox is looked at for due alerts (default 2 s). */
  readonly pollMs?: number;
  readonly scheduler?: AlertScheduler;
  /** The HTTP attempt (tests may wrap it); default postAlert. */
  readonly send?: typeof postAlert;
  /** Told each attempt's outcome (the console_alert_deliveries_total counter). */
  readonly onOutcome?: (outcome: 'delivered' | 'retrying' | 'dead') => void;
}

/** Most deliveries attempted in one pass. */
const BATCH = 20;

/** The wait before attempt `attempts + 1` after `attempts` failed ones. */
function backoffMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

/** The outbox worker of this process. */
export class AlertDispatcher {
  readonly #options: AlertDispatcherOptions;
  readonly #scheduler: AlertScheduler;
  readonly #retryBaseMs: number;
  readonly #maxBackoffMs: number;
  #timer: unknown;
  #running: Promise<number> | undefined;
  #again = false;
  #stopped = true;

  constructor(options: AlertDispatcherOptions) {
    this.#options = options;
    this.#scheduler = options.scheduler ?? realScheduler;
    this.#retryBaseMs = options.retryBaseMs ?? 30_000;
    this.#maxBackoffMs = options.maxBackoffMs ?? 3_600_000;
  }

  /** Starts polling the outbox (what was due before a restart goes out at once). */
  start(): void {
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Stops polling; an attempt in flight finishes (or its lease runs out for another process). */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#scheduler.clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  /** Looks at the outbox now rather than at the next poll (something was just queued). */
  kick(): void {
    if (!this.#stopped) this.#schedule(0);
  }

  /**
   * One pass: attempts every delivery due now, once each. Resolves to how many attempts were made.
   * A pass asked for while one runs runs again after it.
   */
  runDue(): Promise<number> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      let attempted = 0;
      do {
        this.#again = false;
        for (;;) {
          const now = this.#options.now();
          const lease = now + this.#options.http.timeoutMs + 30_000;
          const claimed = await this.#options.store.claimDue(now, lease, BATCH);
          await Promise.all(claimed.map((delivery) => this.#attempt(delivery)));
          attempted += claimed.length;
          if (claimed.length < BATCH) break;
        }
      } while (this.#again);
      return attempted;
    })().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  #schedule(ms: number): void {
    if (this.#timer !== undefined) this.#scheduler.clearTimeout(this.#timer);
    this.#timer = this.#scheduler.setTimeout(() => {
      this.#timer = undefined;
      void this.runDue()
        .catch((error: unknown) =>
          this.#options.logger.warn({ err: error }, 'could not read the alert outbox'),
        )
        .finally(() => {
          if (!this.#stopped && this.#timer === undefined) {
            this.#schedule(this.#options.pollMs ?? 2_000);
          }
        });
    }, ms);
  }

  async #attempt(delivery: ClaimedDelivery): Promise<void> {
    const { store, logger, now } = this.#options;
    const destination = await store.getDestination(delivery.destinationId);
    let result: AlertHttpResult;
    if (!destination) {
      result = { ok: false, status: null, error: 'The destination was removed', latencyMs: 0 };
    } else {
      const payload = JSON.parse(delivery.payload) as AlertPayload;
      const request = formatAlert(payload, destination, now());
      const send = this.#options.send ?? postAlert;
      result = await send(destination.url, request.headers, request.body, this.#options.http, now);
    }
    const attempts = delivery.attempts + 1;
    const at = now();
    // An ordered event (audit.entry) is never given up on for its attempts: those behind it would
    // overtake it. It retries, at most maxBackoffMs apart, while its queue's bound drops new ones.
    const ordered = ORDERED_EVENTS.includes(delivery.event);
    const last = !destination || (!ordered && attempts >= this.#options.maxAttempts);
    const status = result.ok ? 'delivered' : last ? 'dead' : 'retrying';
    await store.finish(delivery.id, {
      status,
      at,
      nextAttemptAt:
        status === 'retrying'
          ? at + backoffMs(attempts, this.#retryBaseMs, this.#maxBackoffMs)
          : null,
      responseStatus: result.status,
      error: result.error,
      latencyMs: result.latencyMs,
    });
    this.#options.onOutcome?.(status);
    // Never the URL (a Slack URL is a credential) nor the payload: the id and event suffice.
    const fields = { delivery: delivery.id, event: delivery.event, attempts, status };
    // The next in line is due now: one more pass sends it rather than the next poll.
    if (ordered && status === 'delivered') this.#again = true;
    if (status === 'dead') logger.warn({ ...fields, error: result.error }, 'alert dead-lettered');
    else if (status === 'retrying')
      logger.info({ ...fields, error: result.error }, 'alert retrying');
    else logger.info(fields, 'alert delivered');
  }
}
