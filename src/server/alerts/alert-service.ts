// Turns events into outbox rows: one per destination that subscribed to the event, deduplicated
// by a key per destination (one per incident, one per threshold crossing, see alert-conditions.ts). Also the
// one-click test and the entry point other parts of the console call to raise an event (the
// account-wide reporters will raise `reporter.silent` through reporterSilent()).
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { randomUUID } from 'node:crypto';
import type { AlertEventType, Delivery } from '../../shared/alerts';
import type { Logger } from '../observability/logger';
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
  /** Told when a full queue drops an audit entry (default: nowhere). */
  readonly logger?: Logger;
  /** Most audit entries waiting per destination (default AUDIT_ENTRY_QUEUE_MAX). */
  readonly auditQueueMax?: number;
}

/**
 * Most `audit.entry` alerts waiting for one destination. A day of a busy console's lookups and
 * changes: enough to ride out a SIEM's outage over a weekend night, small enough that the outbox
 * of a destination gone for good stays a few megabytes.
 */
export const AUDIT_ENTRY_QUEUE_MAX = 10_000;

/** An audit-trail entry as an `audit.entry` alert carries it. */
export interface AuditEntryAlert {
  /** Its sequence number in the chain: one alert per entry. */
  readonly sequence: number;
  /** When it was recorded (epoch ms). */
  readonly time: number;
  /** One sentence, as the event's `message`. */
  readonly message: string;
  /** The OCSF event itself. */
  readonly event: Readonly<Record<string, unknown>> & {
    readonly class_uid: number;
    readonly activity_id: number;
  };
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
  /** Most alerts of this type that may wait per destination; past it the new one is dropped. */
  readonly maxWaiting?: number;
  /** Told of each destination whose full queue dropped the event, with how many wait. */
  readonly onDrop?: (destination: StoredDestination, waiting: number) => void;
  /**
   * The platform connection the alert is about (each connection's monitor gives its own); alerts
   * about the console as a whole (audit entries and checkpoints, tests) are recorded as
   * DEFAULT_CONNECTION's, the column having no "none".
   */
  readonly connection?: string;
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
      if (options.maxWaiting !== undefined) {
        const waiting = await store.waiting(destination.id, event.type);
        if (waiting >= options.maxWaiting) {
          options.onDrop?.(destination, waiting);
          continue;
        }
      }
      const id = sortableId(now());
      const payload = (alertId: string) => JSON.stringify({ id: alertId, ...event });
      const added = await store.enqueue({
        id,
        destinationId: destination.id,
        connection: options.connection ?? DEFAULT_CONNECTION,
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
      connection: DEFAULT_CONNECTION,
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
   * An entry was recorded in the audit trail (data-subjects/audit/audit-stream.ts). It waits in
   * its destination's queue, in order, behind the entries before it; a full queue drops it, and
   * the log says so with its sequence number, which is where the SIEM's copy has a gap.
   */
  auditEntry(entry: AuditEntryAlert): Promise<number> {
    const max = this.#options.auditQueueMax ?? AUDIT_ENTRY_QUEUE_MAX;
    return this.emit(
      {
        type: 'audit.entry',
        occurredAt: new Date(entry.time).toISOString(),
        summary: entry.message,
        data: {
          sequence: entry.sequence,
          classUid: entry.event.class_uid,
          activityId: entry.event.activity_id,
        },
        link: this.link('/audit'),
        ocsf: entry.event,
      },
      {
        dedupKey: `audit-entry:${entry.sequence}`,
        maxWaiting: max,
        onDrop: (destination, waiting) =>
          this.#options.logger?.warn(
            { destination: destination.id, sequence: entry.sequence, waiting, max },
            'audit entry dropped: the destination’s queue is full',
          ),
      },
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
