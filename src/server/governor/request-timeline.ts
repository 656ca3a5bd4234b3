// The console's own request rate over the last hour, in 10-second buckets, for the timeline on the
// rate-limits page: what was sent upstream, what the governor refused, what the upstream refused.
// A fixed ring of counters: memory stays constant however many requests pass.

/** What happened to one request. */
export type TimelineEvent = 'sent' | 'refused' | 'throttled';

export interface RequestTimelineOptions {
  now: () => number;
  /** Bucket length (default 10 s). */
  bucketSeconds?: number;
  /** How many buckets are kept (default 360: one hour). */
  buckets?: number;
}

/** A snapshot, oldest bucket first; the last bucket is the current one. */
export interface TimelineSnapshot {
  bucketSeconds: number;
  start: number;
  sent: number[];
  refused: number[];
  throttled: number[];
}

/** Counts requests per bucket on the injected clock. */
export class RequestTimeline {
  readonly #now: () => number;
  readonly #bucketMs: number;
  readonly #size: number;
  readonly #counts: Record<TimelineEvent, Uint32Array>;
  /** Bucket index (time / bucket length) each ring slot currently holds. */
  readonly #slotBucket: Float64Array;

  constructor(options: RequestTimelineOptions) {
    this.#now = options.now;
    this.#bucketMs = (options.bucketSeconds ?? 10) * 1_000;
    this.#size = options.buckets ?? 360;
    this.#counts = {
      sent: new Uint32Array(this.#size),
      refused: new Uint32Array(this.#size),
      throttled: new Uint32Array(this.#size),
    };
    this.#slotBucket = new Float64Array(this.#size).fill(-1);
  }

  /** Counts one `event` now. */
  count(event: TimelineEvent): void {
    const bucket = Math.floor(this.#now() / this.#bucketMs);
    const slot = this.#slot(bucket);
    if (this.#slotBucket[slot] !== bucket) {
      // The slot last held a bucket an hour (or more) ago: start it afresh.
      this.#slotBucket[slot] = bucket;
      for (const counts of Object.values(this.#counts)) counts[slot] = 0;
    }
    this.#counts[event][slot] = (this.#counts[event][slot] ?? 0) + 1;
  }

  /** The last hour, bucket by bucket. */
  snapshot(): TimelineSnapshot {
    const last = Math.floor(this.#now() / this.#bucketMs);
    const first = last - this.#size + 1;
    const read = (event: TimelineEvent) =>
      Array.from({ length: this.#size }, (_, index) => {
        const bucket = first + index;
        const slot = this.#slot(bucket);
        return this.#slotBucket[slot] === bucket ? (this.#counts[event][slot] ?? 0) : 0;
      });
    return {
      bucketSeconds: this.#bucketMs / 1_000,
      start: first * this.#bucketMs,
      sent: read('sent'),
      refused: read('refused'),
      throttled: read('throttled'),
    };
  }

  #slot(bucket: number): number {
    return ((bucket % this.#size) + this.#size) % this.#size;
  }
}
