// Turns events into outbox rows: one per destination that subscribed to the event, deduplicated
// by a key per destination (one per incident, one per threshold crossing, see alert-conditions.ts). Also the
// one-click test and the entry point other parts of the console call to raise an event (the
// account-wide reporters will raise `reporter.silent` through reporterSilent()).
import { randomUUID } from 'node:crypto';
import type { AlertEventType, Delivery } from '../../shared/alerts';
import { sortableId } from '../store/sortable-id';
import type { AlertDispatcher } from './alert-dispatcher';
import type { AlertEvent, AlertPayload } from './alert-payload';
import type { AlertStore, StoredDestination } from './alert-store';

export interface AlertServiceOptions {
  readonly store: AlertStore;
  readonly dispatcher: AlertDispatcher;
  readonly now: () => number;
  /** PUBLIC_URL's origin: alerts link to the console's pages when it is set. */
  readonly publicOrigin?: string;
}

/** How an event is queued. */
export interface EmitOptions {
  /** Same key, same destination: queued once (e.g. `incident:<key>`). */
  readonly dedupKey: string;
  /** When the alert is due (default now). */
  readonly dueAt?: number;
  /** An alert with this key still waiting moves to the later `dueAt` (a lengthened block). */
  readonly postpone?: boolean;
  /** Only destinations this accepts (e.g. their hold-back threshold). */
  readonly filter?: (destination: StoredDestination) => boolean;
}

/** Raises alerts. */
export class AlertService {
  readonly #options: AlertServiceOptions;

  constructor(options: AlertServiceOptions) {
    this.#options = options;
  }

  /** The console page to link alerts of a kind to, when PUBLIC_URL is known. */
  link(path: string): string | null {
    return this.#options.publicOrigin ? `${this.#options.publicOrigin}${path}` : null;
  }

  /**
   * Queues `event` for every enabled destination subscribed to its type; resolves to how many
   * new alerts were queued (0 when every one was a duplicate).
   */
  async emit(event: AlertEvent & { type: AlertEventType }, options: EmitOptions): Promise<number> {
    const { store, now } = this.#options;
    const destinations = (await store.listDestinations()).filter(
      (destination) =>
        destination.enabled &&
        destination.events.includes(event.type) &&
        (options.filter?.(destination) ?? true),
    );
    let queued = 0;
    for (const destination of destinations) {
      const id = sortableId(now());
      const payload = (alertId: string) => JSON.stringify({ id: alertId, ...event });
      const added = await store.enqueue({
        id,
        destinationId: destination.id,
        event: event.type,
        dedupKey: options.dedupKey,
        summary: event.summary,
        payload: payload(id),
        createdAt: now(),
        dueAt: options.dueAt ?? now(),
      });
      if (added) queued += 1;
      else if (options.postpone && options.dueAt !== undefined) {
        await store.postpone(
          destination.id,
          options.dedupKey,
          options.dueAt,
          event.summary,
          payload,
        );
      }
    }
    if (queued > 0) this.#options.dispatcher.kick();
    return queued;
  }

  /** Queues a test alert to one destination (any events it subscribes to) and sends it now. */
  async sendTest(destination: StoredDestination): Promise<Delivery | undefined> {
    const { store, now } = this.#options;
    const id = sortableId(now());
    const payload: AlertPayload = {
      id,
      type: 'test',
      occurredAt: new Date(now()).toISOString(),
      summary: `Test alert for "${destination.name}": if you read this, alerts reach you.`,
      data: { destination: destination.name },
      link: this.link('/alerts'),
    };
    await store.enqueue({
      id,
      destinationId: destination.id,
      event: 'test',
      // Every press of the button is its own alert.
      dedupKey: `test:${randomUUID()}`,
      summary: payload.summary,
      payload: JSON.stringify(payload),
      createdAt: now(),
      dueAt: now(),
    });
    await this.#options.dispatcher.runDue();
    return store.getDelivery(id);
  }

  /**
   * An integration stopped reporting (account-wide view). `name` is the integration's display
   * name; `silentSince` the time of its last report (epoch ms). One alert per silence.
   */
  reporterSilent(name: string, silentSince: number): Promise<number> {
    const since = new Date(silentSince).toISOString();
    return this.emit(
      {
        type: 'reporter.silent',
        occurredAt: new Date(this.#options.now()).toISOString(),
        summary: `The integration "${name}" has not reported since ${since}; the account-wide numbers miss its requests.`,
        data: { integration: name, lastReportAt: since },
        link: this.link('/rate-limits'),
      },
      { dedupKey: `reporter-silent:${name}:${since}` },
    );
  }
  /**
   * The audit trail signed a checkpoint of its chain's head (audit/checkpoints.ts). The
   * destination keeps it as evidence outside the console's database: `npm run audit -- verify
   * --checkpoints FILE` reads a receiver's records of these.
   */
  auditCheckpoint(checkpoint: {
    seq: number;
    hash: string;
    at: string;
    reason: string;
    keyFingerprint: string;
    signature: string;
  }): Promise<number> {
    return this.emit(
      {
        type: 'audit.checkpoint',
        occurredAt: checkpoint.at,
        summary: `The audit trail signed a checkpoint of entry ${checkpoint.seq} of its chain; keep it as evidence.`,
        data: { ...checkpoint },
        link: this.link('/audit'),
      },
      { dedupKey: `audit-checkpoint:${checkpoint.seq}:${checkpoint.at}` },
    );
  }
}
