// The console's own requests, counted as integrations report theirs: per minute and operation
// template (never a concrete path), from the governor's events (every call it lets through is
// sent; every 429 the platform answered is told too). Counts are kept in memory and added to the
// store every few seconds, so a lookup never waits on this write; a crash loses at most those
// seconds of counts, which a replay over hours does not notice.
import { templateOfPath } from '../../shared/operation-templates';
import type { GovernorEvents } from '../governor/governor-events';
import type { Logger } from '../observability/logger';
import type { TrafficRow, TrafficStore } from './traffic-store';

/** How often the counts are written. */
const FLUSH_MS = 5_000;

export interface ConsoleTrafficOptions {
  readonly store: TrafficStore;
  readonly events: GovernorEvents;
  readonly logger: Logger;
  readonly now: () => number;
}

interface Count {
  minute: number;
  method: string;
  template: string;
  requests: number;
  throttled: number;
}

export class ConsoleTraffic {
  readonly #options: ConsoleTrafficOptions;
  #counts = new Map<string, Count>();
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: Array<() => void> = [];
  #flushing: Promise<void> = Promise.resolve();

  constructor(options: ConsoleTrafficOptions) {
    this.#options = options;
  }

  start(): void {
    const { events } = this.#options;
    this.#unsubscribe = [
      events.on('admitted', ({ operation }) => this.#count(operation.method, operation.path, 1, 0)),
      events.on('upstream-429', ({ operation }) => {
        if (operation) this.#count(operation.method, operation.path, 0, 1);
      }),
    ];
    this.#timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.#timer.unref();
  }

  #count(method: string, path: string, requests: number, throttled: number): void {
    const minute = Math.floor(this.#options.now() / 60_000) * 60_000;
    const upper = method.toUpperCase();
    const template = templateOfPath(path.split('?')[0] ?? '');
    const key = `${minute}|${upper}|${template}`;
    const count = this.#counts.get(key);
    if (count) {
      count.requests += requests;
      count.throttled += throttled;
    } else {
      this.#counts.set(key, { minute, method: upper, template, requests, throttled });
    }
  }

  /** Writes the counts gathered so far; a failed write keeps them for the next round. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(async () => {
      if (this.#counts.size === 0) return;
      const rows: TrafficRow[] = [...this.#counts.values()];
      this.#counts = new Map();
      try {
        await this.#options.store.addConsoleMinutes(rows);
      } catch (error) {
        for (const row of rows) {
          const key = `${row.minute}|${row.method}|${row.template}`;
          const count = this.#counts.get(key);
          if (count) {
            count.requests += row.requests;
            count.throttled += row.throttled;
          } else this.#counts.set(key, { ...row });
        }
        this.#options.logger.warn(
          { err: error },
          'console traffic counts not written; kept for the next round',
        );
      }
    });
    return this.#flushing;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    for (const stop of this.#unsubscribe) stop();
    await this.flush();
  }
}
