// The BFF's governor, admission control: before every upstream call it takes one request from
// every limit of the published policy that applies (the account limits of ACCOUNT_TIER, the
// operation's module rule or its per-endpoint window, and any stricter limit the platform itself
// stated in a 429, reported-limits.ts), and it honours every block an upstream 429 announced
// (governor-blocks.ts). A call it refuses is never sent, so the console itself never draws a 429.
// It says what it decided through its events (governor-events.ts) and never calls an area.
import {
  MODULE_RULES,
  PERIOD_SECONDS,
  endpointKey,
  matchModuleRule,
  rulesForPolicy,
  type AccountOverride,
  type AccountTier,
  type RateLimitPeriod,
  type RateLimitPolicy,
  type RateLimitRule,
  type RateLimitWindow,
} from '../../shared/rate-limits';
import { describeBlock, type BlockState } from '../../shared/limit-state';
import type { GuardedOperation } from '../upstream/send-guard';
import { toSeconds, type GovernedLimit, type MakeLimit } from './governed-limit';
import { GovernorBlocks, type BlockOrigin, type GovernorBlock } from './governor-blocks';
import { GovernorEvents, type GovernorEventMap } from './governor-events';
import { ReportedLimits, type ReportedLimitState } from './reported-limits';
import { RequestTimeline } from './request-timeline';
import { SlidingWindow } from './sliding-window';
import { createMemoryWindowStore, type WindowCounterStore } from './window-store';

/** What the governor needs to know about a call: which operation, which method and path. */
export type GovernedOperation = GuardedOperation;

export type { BlockOrigin, GovernedLimit, GovernorBlock, ReportedLimitState };

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
  readonly endpoint?: string;
}

export interface GovernorOptions {
  readonly tier: AccountTier;
  /** Which published rate-limit page to keep (default `account-and-module`). */
  readonly policy?: RateLimitPolicy;
  /** The per-endpoint default instead of the published 1,000 a minute (ENDPOINT_MINUTE_LIMIT). */
  readonly endpointMinuteLimit?: number;
  /** Module rules (default: the published ones); tests pass their own. */
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

/** Keeps the limits of one account. */
export class Governor {
  readonly tier: AccountTier;
  readonly policy: RateLimitPolicy;
  readonly timeline: RequestTimeline;
  readonly #now: () => number;
  readonly #rules: readonly RateLimitRule[];
  readonly #endpointRules: readonly RateLimitRule[];
  readonly #endpointLimits = new Map<string, GovernedLimit[]>();
  readonly #reported: ReportedLimits;
  readonly #makeLimit: MakeLimit;
  readonly #moduleRules: readonly RateLimitRule[];
  readonly #ruleByOperation = new Map<string, RateLimitRule | undefined>();
  readonly #override: AccountOverride;
  readonly #keepSoft: boolean;
  readonly #limits: GovernedLimit[];
  readonly #blocks: GovernorBlocks;
  readonly #fallback: GovernorFallback | undefined;
  /** What the governor decided, for metrics and the replicas' shared blocks. */
  readonly events = new GovernorEvents();

  constructor(options: GovernorOptions) {
    this.tier = options.tier;
    this.#now = options.now ?? Date.now;
    this.#moduleRules = options.moduleRules ?? MODULE_RULES;
    this.#override = options.accountOverride ?? {};
    this.#keepSoft = options.keepSoftLimits ?? true;
    this.timeline = new RequestTimeline({ now: this.#now });
    this.#blocks = new GovernorBlocks(this.#now);
    const store = options.store ?? createMemoryWindowStore();
    this.#fallback = options.fallback;
    const fallback = options.fallback;
    const window = (
      rule: RateLimitRule,
      limit: RateLimitWindow,
      quota: number,
      on: WindowCounterStore,
      endpoint?: string,
    ) =>
      new SlidingWindow({
        name: `${rule.id}:${limit.period}${endpoint === undefined ? '' : `:${endpoint}`}`,
        limit: quota,
        windowMs: PERIOD_SECONDS[limit.period] * 1_000,
        store: on,
        now: this.#now,
        ...(options.buckets ? { buckets: options.buckets } : {}),
      });
    this.policy = options.policy ?? 'account-and-module';
    this.#rules = rulesForPolicy(
      this.policy,
      this.tier,
      {
        account: this.#override,
        ...(options.endpointMinuteLimit === undefined
          ? {}
          : { endpointMinute: options.endpointMinuteLimit }),
      },
      this.#moduleRules,
    );
    this.#endpointRules = this.#rules.filter((rule) => rule.scope === 'endpoint');
    this.#makeLimit = (rule, limit, endpoint) => ({
      rule,
      limit,
      policyId: rule.limits.length > 1 ? `${rule.id}-${limit.period.toLowerCase()}` : rule.id,
      enforced: rule.kind === 'hard' || this.#keepSoft,
      window: window(rule, limit, limit.limit, store, endpoint),
      // Rounded down, and at least one request: the shares of all replicas never add up to more
      // than the limit.
      ...(fallback
        ? {
            fallbackWindow: window(
              rule,
              limit,
              Math.max(1, Math.floor(limit.limit / fallback.share)),
              fallback.store,
              endpoint,
            ),
          }
        : {}),
      ...(endpoint === undefined ? {} : { endpoint }),
    });
    this.#limits = this.#rules
      .filter((rule) => rule.scope !== 'endpoint')
      .flatMap((rule) => rule.limits.map((limit) => this.#makeLimit(rule, limit)));
    this.#reported = new ReportedLimits(this.#makeLimit, this.#now);
  }

  /** Whether the per-replica share decides now (see GovernorOptions.fallback). */
  get fallbackActive(): boolean {
    return this.#fallback?.active() ?? false;
  }

  /**
   * Calls `listener` for every block this replica starts or lengthens after an upstream 429 (not
   * for blocks learnt from other replicas), so it can tell them. Returns a function that stops.
   */
  onBlock(listener: (block: GovernorBlock) => void): () => void {
    return this.events.on('block-started', ({ block, origin }) => {
      if (origin === 'local') listener(block);
    });
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

  /** Every rule of the policy and tier, with whether the governor keeps it. */
  rules(): Array<RateLimitRule & { enforced: boolean }> {
    return this.#rules.map((rule) => ({
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
  findLimit(
    ruleId: string,
    period: RateLimitPeriod | null,
    operation?: GovernedOperation,
  ): GovernedLimit | undefined {
    const own = operation ? this.#endpointLimitsOf(operation) : [];
    const ofRule = [...this.#limits, ...own].filter((limit) => limit.rule.id === ruleId);
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
    const refusal = blocked
      ? this.#refuse(this.#blocked(blocked, enforced))
      : await this.#withWindows((windowOf) => this.#take(operation, limits, enforced, windowOf));
    if (refusal) {
      this.events.emit('refused', {
        operation,
        reason: refusal.reason,
        ruleId:
          (refusal.reason === 'blocked' ? refusal.block?.ruleId : refusal.refusing?.rule.id) ||
          null,
        retryAfterSeconds: refusal.retryAfterSeconds,
      });
    } else {
      this.events.emit('admitted', { operation });
    }
    return refusal;
  }

  async #take(
    operation: GovernedOperation,
    limits: readonly GovernedLimit[],
    enforced: readonly GovernedLimit[],
    windowOf: (limit: GovernedLimit) => SlidingWindow,
  ): Promise<Refusal | undefined> {
    // One atomic store operation over every window: all count the call, or none does.
    const result = await SlidingWindow.takeAll(
      limits.map((limit) => ({ window: windowOf(limit), enforce: limit.enforced })),
    );
    if (!result.taken) {
      return this.#refuse({
        reason: 'limit',
        retryAfterSeconds: toSeconds(result.retryAfterMs),
        refusing: limits[result.refusing] ?? null,
        block: null,
        limits: enforced,
      });
    }
    const giveBack = () =>
      Promise.all(
        limits.map((limit, index) => windowOf(limit).giveBack(result.buckets[index] ?? 0)),
      );
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
    // Telling other replicas is best effort (the emitter swallows a listener's failure); the
    // block holds here regardless.
    if (this.#blocks.add(block)) this.events.emit('block-started', { block, origin });
  }

  /** Counts an upstream 429 on the timeline, and tells the listeners what the platform said. */
  noteThrottled(answer?: GovernorEventMap['upstream-429']): void {
    this.timeline.count('throttled');
    if (answer) this.events.emit('upstream-429', answer);
  }

  /** The blocks running now. */
  activeBlocks(): GovernorBlock[] {
    return this.#blocks.active();
  }

  /**
   * The running blocks, described once (shared/limit-state.ts): every answer that shows a limit
   * takes its state from here, so no two pages can tell a different story about the same block.
   */
  blockStates(): BlockState[] {
    return this.activeBlocks().map(describeBlock);
  }

  /**
   * Forgets every block. Demo mode only: the operator reset the built-in mock. Returns the
   * incident keys of the blocks that were still running, so open pages can be told.
   */
  clearBlocks(): string[] {
    return this.#blocks.clear();
  }

  /**
   * Takes note of a limit the platform stated in a 429 (`allowed` per `period`) that no rule of
   * the call has. When it is stricter than every configured limit of that period for the call,
   * the governor keeps it for the call's endpoint from now on, so the same call does not draw the
   * same 429 again; a restart or {@link forgetReportedLimits} ends that.
   */
  noteReportedLimit(
    operation: GovernedOperation,
    period: RateLimitPeriod,
    allowed: number,
    incidentKey: string,
  ): ReportedLimitState {
    const configured = this.#configuredLimitsFor(operation)
      .filter((limit) => limit.enforced && limit.limit.period === period)
      .reduce<number | null>(
        (strictest, limit) =>
          strictest === null ? limit.limit.limit : Math.min(strictest, limit.limit.limit),
        null,
      );
    return this.#reported.note(operation, period, allowed, incidentKey, configured);
  }

  /** The limits the platform reported that disagree with the configured ones. */
  reportedLimits(): ReportedLimitState[] {
    return this.#reported.list();
  }

  /** Forgets the reported limits (an admin's reset): the configured limits alone apply again. */
  forgetReportedLimits(): number {
    return this.#reported.forget();
  }

  /** Requests counted against each reported limit kept, keyed like {@link reportedLimits}. */
  async reportedUsage(): Promise<Map<ReportedLimitState, number>> {
    const result = new Map<ReportedLimitState, number>();
    await this.#withWindows(async (windowOf) => {
      for (const state of this.#reported.list()) {
        result.set(state, state.governed ? (await windowOf(state.governed).usage()).used : 0);
      }
    });
    return result;
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
    const endpointLimits = [...this.#endpointLimits.values()].flat();
    return Promise.all(
      [...this.#limits, ...endpointLimits].map(async (governed) => {
        const { rule, limit, enforced } = governed;
        const window = windowOf(governed);
        const { used, resetsAt } = await window.usage();
        const own = blocks.find(
          (block) =>
            block.scope === 'rule' &&
            block.ruleId === rule.id &&
            (block.endpoint === undefined || block.endpoint === governed.endpoint),
        );
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
          ...(governed.endpoint === undefined ? {} : { endpoint: governed.endpoint }),
        };
      }),
    );
  }

  /** The configured limits of `operation`: account, module rule and per-endpoint windows. */
  #configuredLimitsFor(operation: GovernedOperation): GovernedLimit[] {
    const moduleRule = this.moduleRuleFor(operation);
    return [
      ...this.#limits.filter(
        ({ rule }) => rule.scope === 'account' || (moduleRule && rule.id === moduleRule.id),
      ),
      ...this.#endpointLimitsOf(operation),
    ];
  }

  /** Every limit of `operation`: the configured ones and the stricter ones the platform stated. */
  #limitsFor(operation: GovernedOperation): GovernedLimit[] {
    const configured = this.#configuredLimitsFor(operation);
    if (this.#reported.size === 0) return configured;
    return [...configured, ...this.#reported.limitsOf(operation)];
  }

  /** The per-endpoint windows of `operation`, created on its first call (the catalog is finite). */
  #endpointLimitsOf(operation: GovernedOperation): GovernedLimit[] {
    if (this.#endpointRules.length === 0) return [];
    const endpoint = endpointKey(operation.method, operation.path);
    let limits = this.#endpointLimits.get(endpoint);
    if (!limits) {
      limits = this.#endpointRules.flatMap((rule) =>
        rule.limits.map((limit) => this.#makeLimit(rule, limit, endpoint)),
      );
      this.#endpointLimits.set(endpoint, limits);
    }
    return limits;
  }

  #blockFor(operation: GovernedOperation): GovernorBlock | undefined {
    return this.#blocks.blocking(operation, this.moduleRuleFor(operation), this.#endpointRules);
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
