// The open live incident streams of this process, by session and by user: caps per session, per
// user and in all (so one session cannot take every slot), and the switch that ends a session's
// streams the moment it signs out.

/** Caps on open streams; the defaults fit a few tabs per person and 200 in all. */
export interface StreamCaps {
  readonly total: number;
  readonly perUser: number;
  readonly perSession: number;
}

const DEFAULT_STREAM_CAPS: StreamCaps = { total: 200, perUser: 12, perSession: 6 };

/** Who a stream belongs to. */
export interface StreamOwner {
  readonly sessionId: string;
  readonly username: string;
}

/** Which cap a new stream would pass, if any. */
export type StreamRefusal = 'total' | 'user' | 'session';

interface OpenStream {
  readonly owner: StreamOwner;
  readonly close: () => void;
}

/** Counts streams and ends them by session. Synchronous, so check-and-add cannot race. */
export class StreamRegistry {
  readonly #caps: StreamCaps;
  readonly #open = new Set<OpenStream>();

  constructor(caps: Partial<StreamCaps> = {}) {
    this.#caps = { ...DEFAULT_STREAM_CAPS, ...caps };
  }

  /**
   * Adds a stream unless a cap is reached; returns the function that removes it, or which cap
   * refused it. `close` is called when the stream's session ends.
   */
  open(owner: StreamOwner, close: () => void): { remove: () => void } | { refused: StreamRefusal } {
    let user = 0;
    let session = 0;
    for (const stream of this.#open) {
      if (stream.owner.username === owner.username) user += 1;
      if (stream.owner.sessionId === owner.sessionId) session += 1;
    }
    if (session >= this.#caps.perSession) return { refused: 'session' };
    if (user >= this.#caps.perUser) return { refused: 'user' };
    if (this.#open.size >= this.#caps.total) return { refused: 'total' };
    const entry: OpenStream = { owner, close };
    this.#open.add(entry);
    return { remove: () => this.#open.delete(entry) };
  }

  /**
   * Ends every stream of a session `ended` says has ended (signed out, expired, replaced by a new
   * sign-in, ended from the sessions page or by the identity provider).
   */
  endSessions(ended: (sessionId: string) => boolean): void {
    for (const stream of [...this.#open]) {
      if (ended(stream.owner.sessionId)) {
        this.#open.delete(stream);
        stream.close();
      }
    }
  }

  /** Streams open now. */
  get size(): number {
    return this.#open.size;
  }
}
