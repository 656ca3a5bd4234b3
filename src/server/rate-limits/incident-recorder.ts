// Turns each upstream 429 into a stored incident and a live event. The write completes before the
// browser is answered, so a crash right after loses nothing; a failing or hanging store is logged
// and shown on /readyz, and never keeps the answer from reaching the browser.
import type { Incident } from '../../shared/incident';
import type { Logger } from '../observability/logger';
import type { IncidentStore } from './incident-store';
import type { IncidentHub } from './incident-hub';
import type { RateLimitReading } from './read-rate-limit-headers';
import { withinDeadline } from '../runtime/within-deadline';

/** The store's health as the recorder last saw it. */
export interface StoreWriteHealth {
  readonly ok: boolean;
  /** When the latest failed write happened (epoch ms), if the last write failed. */
  readonly failedAt: number | null;
  readonly error: string | null;
}

export interface IncidentRecorderOptions {
  readonly store: IncidentStore;
  readonly hub: IncidentHub;
  readonly logger: Logger;
  readonly now: () => number;
  /** How long the answer to the browser may wait for the write (default 2 s). */
  readonly writeTimeoutMs?: number;
  /** Told of every incident stored, and of every failed write (metrics). */
  readonly onStored?: (incident: Incident) => void;
  readonly onFailed?: () => void;
}

/** Where one 429 goes: its incident's key, when it was seen, and when its block ends (epoch ms). */
export interface IncidentPlacement {
  readonly key: string;
  readonly at: number;
  readonly blockedUntil: number;
}

/** What recording one 429 produced. */
export interface RecordedIncident {
  /** The incident's key: the event id, or the generated key of an unidentified occurrence. */
  readonly key: string;
  readonly blockedUntil: number;
  /** The stored incident; undefined when the write failed or timed out. */
  readonly incident: Incident | undefined;
}

/** Records upstream 429s. */
export class IncidentRecorder {
  readonly #options: IncidentRecorderOptions;
  // A 429 without a usable event id has no name of its own: the hits that arrive while the block
  // it started still runs are counted as one incident under one generated key, per scope.
  readonly #openUnidentified = new Map<string, { key: string; until: number }>();
  #health: StoreWriteHealth = { ok: true, failedAt: null, error: null };

  constructor(options: IncidentRecorderOptions) {
    this.#options = options;
  }

  /**
   * The key an incident of `reading` is stored under and when its block ends. Separate from the
   * write so the caller can start honouring the block before the store has answered.
   */
  place(reading: RateLimitReading): IncidentPlacement {
    const at = this.#options.now();
    const blockedUntil = at + reading.blockSeconds * 1_000;
    if (reading.eventId) return { key: reading.eventId, blockedUntil, at };
    const scope = reading.scope === 'rule' ? `rule:${reading.rule?.id}` : 'account';
    const open = this.#openUnidentified.get(scope);
    if (open && open.until > at) {
      open.until = Math.max(open.until, blockedUntil);
      return { key: open.key, blockedUntil, at };
    }
    const key = `unidentified-${crypto.randomUUID()}`;
    this.#openUnidentified.set(scope, { key, until: blockedUntil });
    return { key, blockedUntil, at };
  }

  /** Stores one 429 of `operation` and publishes the change; never throws. */
  async record(
    reading: RateLimitReading,
    operation: string,
    placement: IncidentPlacement = this.place(reading),
  ): Promise<RecordedIncident> {
    const { key, blockedUntil, at } = placement;
    const writing = this.#options.store
      .record({
        key,
        eventId: reading.eventId,
        at,
        period: reading.period,
        requestsAllowed: reading.requestsAllowed,
        requestsMade: reading.requestsMade,
        retryAfterSeconds: reading.retryAfterSeconds,
        blockedUntil,
        ruleId: reading.rule?.id ?? null,
        scope: reading.scope,
        operation,
        flags: reading.flags,
        headers: reading.headers,
      })
      .then(
        (incident) => {
          this.#health = { ok: true, failedAt: null, error: null };
          this.#options.onStored?.(incident);
          this.#options.hub.publish(incident);
          return incident;
        },
        (error: unknown) => {
          this.#failed(error, key);
          return undefined;
        },
      );
    const incident = await withinDeadline(writing, this.#options.writeTimeoutMs ?? 2_000, () => {
      this.#failed(new Error('incident write timed out'), key);
      return undefined;
    });
    return { key, blockedUntil, incident };
  }

  /** The outcome of the latest write. */
  health(): StoreWriteHealth {
    return this.#health;
  }

  /** A probe write succeeded after failed ones: the store takes writes again. */
  writesRecovered(): void {
    if (this.#health.ok) return;
    this.#health = { ok: true, failedAt: null, error: null };
    this.#options.logger.warn('the store takes writes again: incidents are recorded');
  }

  #failed(error: unknown, key: string): void {
    const message = error instanceof Error ? error.message : String(error);
    this.#options.onFailed?.();
    this.#health = { ok: false, failedAt: this.#options.now(), error: message };
    this.#options.logger.error({ err: error, incident: key }, 'could not store a 429 incident');
  }
}
