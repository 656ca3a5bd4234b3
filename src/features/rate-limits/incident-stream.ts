// One live stream per tab and platform connection (GET /api/connections/{name}/rate-limits/stream),
// shared by the banner and the page; leaving a connection's pages closes its stream (after the
// linger below), and the next connection's opens.
// EventSource reconnects by itself after a drop and sends Last-Event-ID, so the BFF replays what
// was missed; when the browser gives up (an error answer, e.g. while signed out) or the stream
// goes silent past its heartbeat, this client reconnects itself with a growing delay.
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { usePageConnectionName } from '../../lib/connections-query';
import { connectionApiPath } from '../../shared/connections';
import {
  BLOCKS_ENDED_EVENT,
  BlocksEndedSchema,
  INCIDENT_EVENT,
  IncidentSchema,
  type BlocksEnded,
  type Incident,
} from '../../shared/incident';

/** What the connection is doing, for the page's indicator. */
export type StreamStatus = 'connecting' | 'live' | 'reconnecting';

/** What a subscriber hears: an incident change, or "reload, you may have missed something". */
export type StreamSignal =
  | { type: 'incident'; incident: Incident }
  | { type: 'resync' }
  /** Blocks ended before their time (demo mode's "End all blocks"): drop banners and countdowns. */
  | { type: 'blocks-ended'; notice: BlocksEnded };

type Listener = (signal: StreamSignal) => void;

/** The BFF sends a heartbeat every 15 s; three missed ones mean the connection is dead. */
const SILENCE_LIMIT_MS = 45_000;
const MAX_BACKOFF_MS = 30_000;
/** Keep the connection this long after the last subscriber leaves (a page change re-subscribes). */
const LINGER_MS = 5_000;

/** The shared connection. Exported for tests; components use the hooks below. */
export class IncidentStream {
  readonly #createSource: (url: string) => EventSource;
  readonly #path: string;
  readonly #listeners = new Set<Listener>();
  readonly #statusListeners = new Set<() => void>();
  #source: EventSource | undefined;
  #status: StreamStatus = 'connecting';
  #lastEventId: string | undefined;
  #attempt = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #silenceTimer: ReturnType<typeof setTimeout> | undefined;
  #lingerTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    createSource: (url: string) => EventSource = (url) => new EventSource(url),
    path = connectionApiPath('default', '/api/rate-limits/stream'),
  ) {
    this.#createSource = createSource;
    this.#path = path;
  }

  /** Starts hearing changes (and connects if needed); returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    clearTimeout(this.#lingerTimer);
    if (!this.#source && this.#retryTimer === undefined) this.#open();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) {
        this.#lingerTimer = setTimeout(() => this.#close(), LINGER_MS);
      }
    };
  }

  get status(): StreamStatus {
    return this.#status;
  }

  onStatus(listener: () => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  #setStatus(status: StreamStatus): void {
    if (status === this.#status) return;
    this.#status = status;
    for (const listener of this.#statusListeners) listener();
  }

  #emit(signal: StreamSignal): void {
    for (const listener of this.#listeners) listener(signal);
  }

  #open(): void {
    this.#retryTimer = undefined;
    // A new EventSource cannot send Last-Event-ID itself: the BFF also reads it from the query.
    const url = this.#lastEventId
      ? `${this.#path}?lastEventId=${encodeURIComponent(this.#lastEventId)}`
      : this.#path;
    const source = this.#createSource(url);
    this.#source = source;
    this.#watchSilence();
    source.addEventListener('ready', (event) => {
      const fresh = this.#lastEventId === undefined;
      this.#lastEventId = (event as MessageEvent).lastEventId || this.#lastEventId;
      this.#attempt = 0;
      this.#setStatus('live');
      this.#watchSilence();
      // Without a replay point, changes between the page's load and now may be missing; and the
      // server says `startOver` when it could not replay (too far behind, or a wiped store).
      if (fresh || String((event as MessageEvent).data ?? '').includes('"startOver":true')) {
        this.#emit({ type: 'resync' });
      }
    });
    source.addEventListener(INCIDENT_EVENT, (event) => {
      const message = event as MessageEvent<string>;
      if (message.lastEventId) this.#lastEventId = message.lastEventId;
      this.#watchSilence();
      try {
        const parsed = IncidentSchema.safeParse(JSON.parse(message.data));
        if (parsed.success) this.#emit({ type: 'incident', incident: parsed.data });
      } catch {
        // A malformed event is skipped; the next reload shows the stored incident anyway.
      }
    });
    source.addEventListener(BLOCKS_ENDED_EVENT, (event) => {
      this.#watchSilence();
      try {
        const parsed = BlocksEndedSchema.safeParse(
          JSON.parse((event as MessageEvent<string>).data),
        );
        if (parsed.success) this.#emit({ type: 'blocks-ended', notice: parsed.data });
      } catch {
        // Malformed: the next usage refresh shows the truth anyway.
      }
    });
    source.addEventListener('heartbeat', () => this.#watchSilence());
    source.onerror = () => {
      this.#setStatus('reconnecting');
      // CONNECTING: the browser retries by itself (with Last-Event-ID). CLOSED: it gave up.
      if (source.readyState === EventSource.CLOSED) this.#retryLater();
    };
  }

  #watchSilence(): void {
    clearTimeout(this.#silenceTimer);
    this.#silenceTimer = setTimeout(() => {
      this.#setStatus('reconnecting');
      this.#retryLater();
    }, SILENCE_LIMIT_MS);
  }

  #retryLater(): void {
    this.#source?.close();
    this.#source = undefined;
    clearTimeout(this.#silenceTimer);
    clearTimeout(this.#retryTimer);
    const delay = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** this.#attempt);
    this.#attempt += 1;
    this.#retryTimer = setTimeout(() => this.#open(), delay);
  }

  #close(): void {
    this.#source?.close();
    this.#source = undefined;
    clearTimeout(this.#silenceTimer);
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#setStatus('connecting');
  }
}

const shared = new Map<string, IncidentStream>();

/** The tab's stream of `connection`, created on first use. */
function incidentStream(connection: string): IncidentStream {
  let stream = shared.get(connection);
  if (!stream) {
    const path = connectionApiPath(connection, '/api/rate-limits/stream');
    stream = new IncidentStream(undefined, path);
    shared.set(connection, stream);
  }
  return stream;
}

/** The stream of the connection the current page serves, unless a test passes its own. */
function usePageStream(given: IncidentStream | undefined): IncidentStream {
  const connection = usePageConnectionName();
  return given ?? incidentStream(connection);
}

/**
 * Calls `onSignal` for every change the stream of the page's connection delivers while the
 * component is mounted; a switch of connection moves the subscription to the other's stream.
 */
export function useIncidentSignals(onSignal: Listener, given?: IncidentStream) {
  const stream = usePageStream(given);
  // The latest callback, without reconnecting when it changes.
  const listener = useRef(onSignal);
  useEffect(() => {
    listener.current = onSignal;
  });
  useEffect(() => stream.subscribe((signal) => listener.current(signal)), [stream]);
}

/** The connection's status, re-rendering when it changes. */
export function useStreamStatus(given?: IncidentStream): StreamStatus {
  const stream = usePageStream(given);
  return useSyncExternalStore(
    (notify) => stream.onStatus(notify),
    () => stream.status,
    () => 'connecting',
  );
}
