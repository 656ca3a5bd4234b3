// Incident changes of every replica, delivered to this replica's live streams in stream-id order.
//
// Why PostgreSQL LISTEN/NOTIFY rather than Redis pub/sub: the incidents live in PostgreSQL, and a
// NOTIFY sent in the transaction that stores an incident is delivered only when, and in the order,
// that transaction commits. So a replica never hears of an incident it cannot read yet, never
// hears of a write that was rolled back, and keeps hearing of incidents while Redis is down.
// The notification carries only the stream id; the feed reads the changes themselves from the
// store, once per replica however many browsers are connected.
//
// Ids are handed out in commit order (incident-store.ts), so the feed delivers a change directly
// when it is the next id, and otherwise (an id was skipped: another replica's change not heard of
// yet, or a missed notification) reads every change after the last one it delivered.
import type { Incident } from '../../shared/incident';
import type { Logger } from '../observability/logger';
import type { IncidentHub } from './incident-hub';

export interface IncidentFeedOptions {
  readonly hub: IncidentHub;
  /** Changes after stream id `seq`, oldest first (IncidentStore.changesSince). */
  readonly read: (seq: number, limit: number) => Promise<Incident[]>;
  /** The newest stream id when the feed starts: what the streams have already seen. */
  readonly startSeq: number;
  readonly logger: Logger;
}

const PAGE = 500;

/** Orders this replica's and the other replicas' incident changes for the live streams. */
export class IncidentFeed {
  readonly #options: IncidentFeedOptions;
  #last: number;
  #reading: Promise<void> | undefined;
  #again = false;

  constructor(options: IncidentFeedOptions) {
    this.#options = options;
    this.#last = options.startSeq;
  }

  /** The newest stream id delivered. */
  get lastSeq(): number {
    return this.#last;
  }

  /** A change this replica recorded. */
  offer(incident: Incident): void {
    if (incident.seq <= this.#last) return;
    if (incident.seq === this.#last + 1 && !this.#reading) {
      this.#deliver(incident);
      return;
    }
    this.catchUp();
  }

  /** Another replica (or this one) committed the change with stream id `seq`. */
  announce(seq: number): void {
    if (Number.isSafeInteger(seq) && seq > this.#last) this.catchUp();
  }

  /** Reads and delivers every change after the last one delivered. */
  catchUp(): Promise<void> {
    if (this.#reading) {
      this.#again = true;
      return this.#reading;
    }
    this.#reading = (async () => {
      do {
        this.#again = false;
        for (;;) {
          const page = await this.#options.read(this.#last, PAGE);
          for (const incident of page) if (incident.seq > this.#last) this.#deliver(incident);
          if (page.length < PAGE) break;
        }
      } while (this.#again);
    })()
      .catch((error: unknown) => {
        // The next notification or local change tries again; a browser that reconnects replays
        // from the store regardless.
        this.#options.logger.warn(
          { err: error },
          'could not read incident changes for the live streams',
        );
      })
      .finally(() => {
        this.#reading = undefined;
      });
    return this.#reading;
  }

  #deliver(incident: Incident): void {
    this.#last = incident.seq;
    this.#options.hub.deliver(incident);
  }
}
