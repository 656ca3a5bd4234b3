// The BFF's governor: before every upstream call it takes one request from every limit of
// upstream-api.md §8 that applies (account minute and hour of ACCOUNT_TIER, and the operation's
// module rule), and it honours every block an upstream 429 announced. A call it refuses is never
// sent, so the console itself never draws a 429.
import {
  MODULE_RULES,
  PERIOD_SECONDS,
  matchModuleRule,
  rulesForTier,
  type AccountOverride,
  type AccountTier,
  type RateLimitPeriod,
  type RateLimitRule,
  type RateLimitWindow,
} from '../../shared/rate-limits';
import { RequestTimeline } from './request-timeline';
import { SlidingWindow } from './sliding-window';
import { createMemoryWindowStore, type WindowCounterStore } from './window-store';

/** What the governor needs to know about a call: which operation, which method and path. */
export interface GovernedOperation {
  readonly id: string;
  readonly method: string;
  /** Path below the base URL (a `{name}` placeholder is fine: rules match it as one segment). */
  readonly path: string;
}

/** One limit of one rule, with its window. */
export interface GovernedLimit {
  readonly rule: RateLimitRule;
  readonly limit: RateLimitWindow;
  /** The policy's name in the RateLimit-Policy header. */
  readonly policyId: string;
  /** False for a soft limit the operator chose not to keep: it is counted but never refuses. */
  readonly enforced: boolean;
  readonly window: SlidingWindow;
  /** The same limit's per-replica share (limit ÷ replicas), when the governor has a fallback. */
  readonly fallbackWindow?: SlidingWindow;
}

/** A block announced by an upstream 429: nothing of its scope is sent before `until`. */
export interface GovernorBlock {
  /** `account`: every operation; `rule`: the operations of `ruleId`. */
  readonly scope: 'account' | 'rule';
  readonly ruleId: string | null;
  readonly period: RateLimitPeriod | null;
  /** Epoch ms. */
  readonly until: number;
  readonly incidentKey: string | null;
}

/** Why a call was not sent. */
export interface Refusal {
  /** `limit`: sending would exceed a limit; `blocked`: an upstream 429's block is running. */
  readonly reason: 'limit' | 'blocked';
  readonly retryAfterSeconds: number;
  /** The limit that refused, for `limit`. */
  readonly refusing: GovernedLimit | null;
  /** The block, for `blocked`. */
  readonly block: GovernorBlock | null;
  /** Every enforced limit of the operation (for RateLimit-Policy). */
  readonly limits: readonly GovernedLimit[];
}

/** One limit's state for the usage endpoint (times in epoch ms). */
export interface LimitUsage {
  readonly ruleId: string;
  readonly period: RateLimitPeriod;
  readonly limit: number;
  readonly windowSeconds: number;
  readonly used: number;
  readonly resetsAt: number | null;
  readonly blockedUntil: number | null;
  readonly blockedBy: 'account' | 'rule' | null;
  readonly incidentKey: string | null;
  readonly enforced: boolean;
}

export interface GovernorOptions {
  readonly tier: AccountTier;
  /** Module rules (default §8's); tests pass their own. */
  readonly moduleRules?: readonly RateLimitRule[];
  /** Account limits the vendor raised (ACCOUNT_MINUTE_LIMIT, ACCOUNT_HOUR_LIMIT). */
  readonly accountOverride?: AccountOverride;
  /** Keep soft limits too (default true): going over them degrades the upstream for everyone. */
  readonly keepSoftLimits?: boolean;
  /** Where the window counters live (default this process's memory). */
  readonly store?: WindowCounterStore;
  /**
   * Windows that decide instead while `active()` says so: this replica's conservative share of
   * every limit (limit ÷ `share`), counted in `store`. Used while the shared store (Redis) cannot
   * be reached (failover-windows.ts), or always when several replicas run without Redis.
   */
  readonly fallback?: GovernorFallback;
  /** The clock (epoch ms); tests move it instead of waiting. */
  readonly now?: () => number;
  /** Buckets per window (default 60); see sliding-window.ts. */
  readonly buckets?: number;
}

/** The governor's per-replica fallback; see GovernorOptions.fallback. */
export interface GovernorFallback {
  readonly store: WindowCounterStore;
  /** How many replicas share each limit. */
  readonly share: number;
  readonly active: () => boolean;
}

/** A block learnt from another replica, or from this one. */
export type BlockOrigin = 'local' | 'shared';

type BlockListener = (block: GovernorBlock) => void;

const ACCOUNT_BLOCK = 'account';

/** Keeps the limits of one account. */
export class Governor {
  readonly tier: AccountTier;
  readonly timeline: RequestTimeline;
  readonly #now: () => number;
  readonly #moduleRules: readonly RateLimitRule[];
  readonly #ruleByOperation = new Map<string, RateLimitRule | undefined>();
  readonly #override: AccountOverride;
  readonly #keepSoft: boolean;
  readonly #limits: GovernedLimit[];
  readonly #blocks = new Map<string, GovernorBlock>();
  readonly #fallback: GovernorFallback | undefined;
  readonly #blockListeners = new Set<BlockListener>();

  constructor(options: GovernorOptions) {
    this.tier = options.tier;
    this.#now = options.now ?? Date.now;
    this.#moduleRules = options.moduleRules ?? MODULE_RULES;
    this.#override = options.accountOverride ?? {};
    this.#keepSoft = options.keepSoftLimits ?? true;
    this.timeline = new RequestTimeline({ now: this.#now });
    const store = options.store ?? createMemoryWindowStore();
    this.#fallback = options.fallback;
    const fallback = options.fallback;
    const window = (
      rule: RateLimitRule,
      limit: RateLimitWindow,
      quota: number,
      on: WindowCounterStore,
    ) =>
      new SlidingWindow({
        name: `${rule.id}:${limit.period}`,
        limit: quota,
        windowMs: PERIOD_SECONDS[limit.period] * 1_000,
        store: on,
        now: this.#now,
        ...(options.buckets ? { buckets: options.buckets } : {}),
      });
    this.#limits = rulesForTier(this.tier, this.#moduleRules, this.#override).flatMap((rule) =>
      rule.limits.map((limit) => ({
        rule,
        limit,
        policyId: rule.limits.length > 1 ? `${rule.id}-${limit.period.toLowerCase()}` : rule.id,
        enforced: rule.kind === 'hard' || this.#keepSoft,
        window: window(rule, limit, limit.limit, store),
        // Rounded down, and at least one request: the shares of all replicas never add up to more
        // than the limit.
        ...(fallback
          ? {
              fallbackWindow: window(
                rule,
                limit,
                Math.max(1, Math.floor(limit.limit / fallback.share)),
                fallback.store,
              ),
            }
          : {}),
      })),
    );
  }

  /** Whether the per-replica share decides now (see GovernorOptions.fallback). */
  get fallbackActive(): boolean {
    return this.#fallback?.active() ?? false;
  }

  /**
   * Calls `listener` for every block this replica starts or lengthens after an upstream 429 (not
   * for blocks learnt from other replicas), so it can tell them. Returns a function that stops.
   */
  onBlock(listener: BlockListener): () => void {
    this.#blockListeners.add(listener);
    return () => this.#blockListeners.delete(listener);
  }

  /**
   * Runs `work` with the windows that decide now. When the shared windows fail because their store
   * just became unreachable, it runs again on the per-replica share: a request is never let
   * through, or refused, for want of a store.
   */
  async #withWindows<T>(work: (windowOf: (limit: GovernedLimit) => SlidingWindow) => Promise<T>) {
    const fallback = this.#fallback;
    const shared = (limit: GovernedLimit) => limit.window;
    const local = (limit: GovernedLimit) => limit.fallbackWindow ?? limit.window;
    if (!fallback) return work(shared);
    if (!fallback.active()) {
      try {
        return await work(shared);
      } catch (error) {
        if (!fallback.active()) throw error;
      }
    }
    return work(local);
  }

  /** Every rule of the tier, with whether the governor keeps it. */
  rules(): Array<RateLimitRule & { enforced: boolean }> {
    return rulesForTier(this.tier, this.#moduleRules, this.#override).map((rule) => ({
      ...rule,
      enforced: rule.kind === 'hard' || this.#keepSoft,
    }));
  }

  /** The module rule that counts `operation`, if any. */
  moduleRuleFor(operation: GovernedOperation): RateLimitRule | undefined {
    // Operations are a small fixed catalog: match each once, not on every request.
    const key = `${operation.method} ${operation.path}`;
    if (!this.#ruleByOperation.has(key)) {
      this.#ruleByOperation.set(
        key,
        matchModuleRule(operation.method, operation.path, this.#moduleRules),
      );
    }
    return this.#ruleByOperation.get(key);
  }

  /** The enforced limits that count `operation`. */
  limitsOf(operation: GovernedOperation): GovernedLimit[] {
    return this.#limitsFor(operation).filter((limit) => limit.enforced);
  }

  /** The limit of `ruleId` for `period`, or its first limit when the period is unknown. */
  findLimit(ruleId: string, period: RateLimitPeriod | null): GovernedLimit | undefined {
    const ofRule = this.#limits.filter((limit) => limit.rule.id === ruleId);
    return ofRule.find((limit) => limit.limit.period === period) ?? ofRule[0];
  }

  /**
   * Takes one request from every limit of `operation`. Resolves to undefined when the call may be
   * sent, or to the refusal when it must not be; a refused call has taken nothing.
   */
  async acquire(operation: GovernedOperation): Promise<Refusal | undefined> {
    const limits = this.#limitsFor(operation);
    const enforced = limits.filter((limit) => limit.enforced);
    const blocked = this.#blockFor(operation);
    if (blocked) return this.#refuse(this.#blocked(blocked, enforced));
    return this.#withWindows((windowOf) => this.#take(operation, limits, enforced, windowOf));
  }

  async #take(
    operation: GovernedOperation,
    limits: readonly GovernedLimit[],
    enforced: readonly GovernedLimit[],
    windowOf: (limit: GovernedLimit) => SlidingWindow,
  ): Promise<Refusal | undefined> {
    const taken: Array<{ limit: GovernedLimit; bucket: number }> = [];
    const giveBack = () =>
      Promise.all(taken.map(({ limit, bucket }) => windowOf(limit).giveBack(bucket)));
    for (const limit of limits) {
      if (!limit.enforced) {
        taken.push({ limit, bucket: await windowOf(limit).record() });
        continue;
      }
      const result = await windowOf(limit).take();
      if (!result.taken) {
        await giveBack();
        return this.#refuse({
          reason: 'limit',
          retryAfterSeconds: toSeconds(result.retryAfterMs),
          refusing: limit,
          block: null,
          limits: enforced,
        });
      }
      taken.push({ limit, bucket: result.bucket });
    }
    // An upstream 429 may have arrived while the windows were counted.
    const late = this.#blockFor(operation);
    if (late) {
      await giveBack();
      return this.#refuse(this.#blocked(late, enforced));
    }
    this.timeline.count('sent');
    return undefined;
  }

  /** Whether `operation` would be refused now, without taking anything. */
  async check(operation: GovernedOperation): Promise<Refusal | undefined> {
    const enforced = this.#limitsFor(operation).filter((limit) => limit.enforced);
    const blocked = this.#blockFor(operation);
    if (blocked) return this.#blocked(blocked, enforced);
    return this.#withWindows(async (windowOf): Promise<Refusal | undefined> => {
      for (const limit of enforced) {
        const { refused, retryAfterMs } = await windowOf(limit).wouldRefuse();
        if (refused) {
          return {
            reason: 'limit',
            retryAfterSeconds: toSeconds(retryAfterMs),
            refusing: limit,
            block: null,
            limits: enforced,
          };
        }
      }
      return undefined;
    });
  }

  /**
   * Honours an upstream 429: nothing of `block.scope` is sent before `block.until`. A block that
   * ends earlier than one already running for the same scope does not shorten it.
   */
  block(block: GovernorBlock, origin: BlockOrigin = 'local'): void {
    const key = block.scope === 'account' ? ACCOUNT_BLOCK : `rule:${block.ruleId}`;
    const existing = this.#blocks.get(key);
    if (existing && existing.until >= block.until) return;
    this.#blocks.set(key, block);
    if (origin === 'local') {
      for (const listener of this.#blockListeners) {
        try {
          listener(block);
        } catch {
          // Telling other replicas is best effort; the block holds here regardless.
        }
      }
    }
  }

  /** Counts an upstream 429 on the timeline. */
  noteThrottled(): void {
    this.timeline.count('throttled');
  }

  /** The blocks running now. */
  activeBlocks(): GovernorBlock[] {
    const now = this.#now();
    return [...this.#blocks.values()].filter((block) => block.until > now);
  }

  /** Forgets every block. Demo mode only: the operator reset the built-in mock. */
  clearBlocks(): void {
    this.#blocks.clear();
  }

  /** Every limit's state now. */
  async usage(): Promise<LimitUsage[]> {
    const blocks = this.activeBlocks();
    const account = blocks.find((block) => block.scope === 'account');
    return this.#withWindows((windowOf) => this.#usage(blocks, account, windowOf));
  }

  async #usage(
    blocks: readonly GovernorBlock[],
    account: GovernorBlock | undefined,
    windowOf: (limit: GovernedLimit) => SlidingWindow,
  ): Promise<LimitUsage[]> {
    return Promise.all(
      this.#limits.map(async (governed) => {
        const { rule, limit, enforced } = governed;
        const window = windowOf(governed);
        const { used, resetsAt } = await window.usage();
        const own = blocks.find((block) => block.scope === 'rule' && block.ruleId === rule.id);
        const blocking = [account, own]
          .filter((block): block is GovernorBlock => block !== undefined)
          .sort((a, b) => b.until - a.until)[0];
        return {
          ruleId: rule.id,
          period: limit.period,
          // The per-replica share while the fallback decides.
          limit: window.limit,
          windowSeconds: PERIOD_SECONDS[limit.period],
          used,
          resetsAt,
          blockedUntil: blocking?.until ?? null,
          blockedBy: blocking?.scope ?? null,
          incidentKey: blocking?.incidentKey ?? null,
          enforced,
        };
      }),
    );
  }

  #limitsFor(operation: GovernedOperation): GovernedLimit[] {
    const moduleRule = this.moduleRuleFor(operation);
    return this.#limits.filter(
      ({ rule }) => rule.scope === 'account' || (moduleRule && rule.id === moduleRule.id),
    );
  }

  #blockFor(operation: GovernedOperation): GovernorBlock | undefined {
    const now = this.#now();
    const account = this.#blocks.get(ACCOUNT_BLOCK);
    const moduleRule = this.moduleRuleFor(operation);
    const own = moduleRule ? this.#blocks.get(`rule:${moduleRule.id}`) : undefined;
    return [account, own]
      .filter((block): block is GovernorBlock => block !== undefined && block.until > now)
      .sort((a, b) => b.until - a.until)[0];
  }

  #blocked(block: GovernorBlock, limits: readonly GovernedLimit[]): Refusal {
    return {
      reason: 'blocked',
      retryAfterSeconds: toSeconds(block.until - this.#now()),
      refusing: null,
      block,
      limits,
    };
  }

  #refuse(refusal: Refusal): Refusal {
    this.timeline.count('refused');
    return refusal;
  }
}

/** Whole seconds, rounded up, at least 1: a client that waits this long is not refused again. */
function toSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1_000));
}
