// What the governor tells whoever listens: every call it admits or refuses, every upstream 429 it
// is told of, every block that starts. Metrics count from these events and the replicas share
// blocks through them, so none of them reads the governor's decisions back out of the 429 problems
// the browser is shown, and the governor never calls into an area.
import type { RateLimitPeriod } from '../../shared/rate-limits';
import type { GuardedOperation } from '../upstream/send-guard';
import type { BlockOrigin, GovernorBlock } from './governor-blocks';

/** The governor's events by name, each with what it carries. */
export interface GovernorEventMap {
  /** A call took from every limit of its operation and may be sent. */
  readonly admitted: { readonly operation: GuardedOperation };
  /** A call was held back; it was not sent and took nothing. */
  readonly refused: {
    readonly operation: GuardedOperation;
    /** `limit`: sending would exceed a limit; `blocked`: an upstream 429's block is running. */
    readonly reason: 'limit' | 'blocked';
    /** The rule that refused, or whose block holds; null when the account as a whole does. */
    readonly ruleId: string | null;
    readonly retryAfterSeconds: number;
  };
  /** The platform answered a call with 429, as the guard read it. */
  readonly 'upstream-429': {
    readonly operation: GuardedOperation | null;
    readonly scope: 'account' | 'rule';
    readonly ruleId: string | null;
    readonly period: RateLimitPeriod | null;
    readonly retryAfterSeconds: number;
  };
  /**
   * A block started or was lengthened: learnt from an upstream 429 on this replica (`local`) or
   * from another replica (`shared`).
   */
  readonly 'block-started': { readonly block: GovernorBlock; readonly origin: BlockOrigin };
}

export type GovernorEventName = keyof GovernorEventMap;

type Listener<Name extends GovernorEventName> = (event: GovernorEventMap[Name]) => void;

/** A small typed emitter: listeners are told in the order they subscribed. */
export class GovernorEvents {
  readonly #listeners = new Map<GovernorEventName, Set<(event: never) => void>>();

  /** Calls `listener` for every `name` event from now on. Returns a function that stops. */
  on<Name extends GovernorEventName>(name: Name, listener: Listener<Name>): () => void {
    let listeners = this.#listeners.get(name);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(name, listeners);
    }
    const added = listener as (event: never) => void;
    listeners.add(added);
    return () => listeners.delete(added);
  }

  emit<Name extends GovernorEventName>(name: Name, event: GovernorEventMap[Name]): void {
    for (const listener of this.#listeners.get(name) ?? []) {
      try {
        (listener as Listener<Name>)(event);
      } catch {
        // A listener is told, never obeyed: admission and blocks hold whatever it does.
      }
    }
  }
}
