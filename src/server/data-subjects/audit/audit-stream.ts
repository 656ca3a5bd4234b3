// Sends each entry of the audit trail out as it is written: one log line holding its OCSF event
// (ocsf-event.ts), and the same event to the alerts area's `audit.entry` destinations. Both are
// copies: the trail is written first, and neither a log nor a queue fault undoes or refuses it.
import type { Logger } from '../../observability/logger';
import type { AppendedEntry } from './audit-record-store';
import { ocsfEvent, type OcsfEvent } from './ocsf-event';

/** The log line's message: what a log pipeline selects the trail's lines by. */
export const AUDIT_ENTRY_MESSAGE = 'audit entry';

export interface AuditStreamOptions {
  readonly logger: Logger;
  /** Queues the event for `audit.entry` destinations (the alerts service). */
  readonly publish: (entry: {
    sequence: number;
    time: number;
    message: string;
    event: OcsfEvent;
  }) => Promise<unknown>;
}

/** The store's `onEntry`: logs each entry and hands it to the alerts, in the order written. */
export function auditStream({
  logger,
  publish,
}: AuditStreamOptions): (entry: AppendedEntry) => void {
  // One queueing at a time, so the outbox holds entries in the order the trail wrote them.
  let queued: Promise<unknown> = Promise.resolve();
  return (entry) => {
    let event: OcsfEvent;
    try {
      event = ocsfEvent(entry);
    } catch (error) {
      logger.error({ err: error }, 'audit entry could not be written as an event');
      return;
    }
    logger.info({ ocsf: event }, AUDIT_ENTRY_MESSAGE);
    const sequence = event.metadata.sequence;
    queued = queued.then(() =>
      publish({ sequence, time: event.time, message: event.message, event }).catch(
        (error: unknown) =>
          logger.warn({ err: error, sequence }, 'audit entry could not be queued for alerts'),
      ),
    );
  };
}
