// The blocks upstream 429s announced: nothing of a block's scope is sent before it ends. Kept per
// account, per rule, or per endpoint of a per-endpoint rule; a shorter block never shortens a
// running one.
import type { BlockStated } from '../../shared/limit-state';
import { endpointKey, type RateLimitPeriod, type RateLimitRule } from '../../shared/rate-limits';
import type { GuardedOperation } from '../upstream/send-guard';

/** A block announced by an upstream 429: nothing of its scope is sent before `until`. */
export interface GovernorBlock {
  /** `account`: every operation; `rule`: the operations of `ruleId`. */
  readonly scope: 'account' | 'rule';
  readonly ruleId: string | null;
  readonly period: RateLimitPeriod | null;
  /** Epoch ms. */
  readonly until: number;
  readonly incidentKey: string | null;
  /**
   * For a per-endpoint rule: the one endpoint blocked. Without it a block of such a rule stops
   * every endpoint (a block restored from the store, or learnt from another replica).
   */
  readonly endpoint?: string;
  /** What its 429 stated, so every page names an unknown limit by the same figures. */
  readonly stated?: BlockStated;
}

/** A block learnt from another replica, or from this one. */
export type BlockOrigin = 'local' | 'shared';

const ACCOUNT_BLOCK = 'account';

/** Where a block is kept: the account, a rule, or one endpoint of a per-endpoint rule. */
function blockKey(block: GovernorBlock): string {
  if (block.scope === 'account') return ACCOUNT_BLOCK;
  return block.endpoint === undefined
    ? `rule:${block.ruleId}`
    : `rule:${block.ruleId}@${block.endpoint}`;
}

/** The running blocks of one account. */
export class GovernorBlocks {
  readonly #blocks = new Map<string, GovernorBlock>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /**
   * Keeps `block` unless one already running for the same scope ends no earlier. Returns whether
   * it started (or lengthened) a block.
   */
  add(block: GovernorBlock): boolean {
    const key = blockKey(block);
    const existing = this.#blocks.get(key);
    if (existing && existing.until >= block.until) return false;
    this.#blocks.set(key, block);
    return true;
  }

  /** The blocks running now. */
  active(): GovernorBlock[] {
    const now = this.#now();
    return [...this.#blocks.values()].filter((block) => block.until > now);
  }

  /** Forgets every block; returns the incident keys of those still running. */
  clear(): string[] {
    const running = this.active().flatMap((block) =>
      block.incidentKey === null ? [] : [block.incidentKey],
    );
    this.#blocks.clear();
    return [...new Set(running)];
  }

  /**
   * The longest block running now that stops `operation`: the account's, its module rule's, or a
   * per-endpoint rule's (for every endpoint or for its own).
   */
  blocking(
    operation: GuardedOperation,
    moduleRule: RateLimitRule | undefined,
    endpointRules: readonly RateLimitRule[],
  ): GovernorBlock | undefined {
    const now = this.#now();
    const account = this.#blocks.get(ACCOUNT_BLOCK);
    const own = moduleRule ? this.#blocks.get(`rule:${moduleRule.id}`) : undefined;
    const endpoint = endpointKey(operation.method, operation.path);
    const perEndpoint = endpointRules.flatMap((rule) => [
      this.#blocks.get(`rule:${rule.id}`),
      this.#blocks.get(`rule:${rule.id}@${endpoint}`),
    ]);
    return [account, own, ...perEndpoint]
      .filter((block): block is GovernorBlock => block !== undefined && block.until > now)
      .sort((a, b) => b.until - a.until)[0];
  }
}
