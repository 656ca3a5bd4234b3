// Fan-out of incident changes to the open live streams of this process. Listeners are called
// synchronously and must not block: each stream queues what it receives and writes at its pace.
import type { BlocksEnded, Incident } from '../../shared/incident';

type Listener = (incident: Incident) => void;
type BlocksEndedListener = (notice: BlocksEnded) => void;

/**
 * Calls each listener with `value`; one that throws does not stop the others. Its failure is its
 * own: a broken stream is cleaned up by its own abort handler.
 */
function callEach<T>(listeners: Iterable<(value: T) => void>, value: T): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch {
      // Nothing to do here; see above.
    }
  }
}

/** Publishes every recorded incident change to the streams subscribed right now. */
export class IncidentHub {
  readonly #listeners = new Set<Listener>();
  readonly #closers = new Map<Listener, () => void>();
  readonly #observers = new Set<Listener>();
  readonly #blocksEnded = new Set<BlocksEndedListener>();
  #route: Listener | undefined;

  /**
   * Calls `listener` whenever blocks end before their time (demo mode's "End all blocks"), so
   * open streams can tell their pages. Returns a function that stops.
   */
  onBlocksEnded(listener: BlocksEndedListener): () => void {
    this.#blocksEnded.add(listener);
    return () => this.#blocksEnded.delete(listener);
  }

  /** Tells every open stream of this process that blocks ended early. */
  publishBlocksEnded(notice: BlocksEnded): void {
    callEach(this.#blocksEnded, notice);
  }

  /**
   * Starts delivering changes to `listener`; `onClose` is called when the server shuts down, so
   * the stream can end instead of holding the shutdown up. Call the returned function to stop.
   */
  subscribe(listener: Listener, onClose?: () => void): () => void {
    this.#listeners.add(listener);
    if (onClose) this.#closers.set(listener, onClose);
    return () => {
      this.#listeners.delete(listener);
      this.#closers.delete(listener);
    };
  }

  /** Ends every open stream (graceful shutdown); browsers reconnect to the next process. */
  closeAll(): void {
    for (const close of [...this.#closers.values()]) close();
  }

  /**
   * Hands a change this process recorded on: to `routeThrough`'s route when one is set (the
   * cross-replica feed, which puts changes in stream-id order), else straight to deliver().
   */
  publish(incident: Incident): void {
    if (this.#route) this.#route(incident);
    else this.deliver(incident);
  }

  /**
   * Sends publish() through `route` from now on (undefined: directly again). The route passes the
   * changes, and those of other replicas, to deliver().
   */
  routeThrough(route: Listener | undefined): void {
    this.#route = route;
  }

  /**
   * Calls `observer` for every delivered change, like a stream but not counted as one (the
   * governor applies blocks of other replicas' 429s this way). Returns a function that stops.
   */
  observe(observer: Listener): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** Delivers `incident` to every listener; one failing listener does not stop the others. */
  deliver(incident: Incident): void {
    callEach(this.#observers, incident);
    callEach(this.#listeners, incident);
  }

  /** How many streams are listening. */
  get size(): number {
    return this.#listeners.size;
  }
}
