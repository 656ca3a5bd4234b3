// The limits of docs/rate-limit-model.md as the mock enforces them: fixed per-account windows on the
// mock's clock, blocks that last the documented duration with one event id per blocking
// occurrence, soft limits that slow down instead of refusing, and the traffic of other clients
// of the same account (MOCK_BACKGROUND_RPM), computed from the clock rather than a timer.
import {
  ACCOUNT_RULES,
  MODULE_RULES,
  PERIOD_SECONDS,
  matchModuleRule,
  type AccountTier,
  type RateLimitPeriod,
  type RateLimitRule,
  type RateLimitWindow,
} from '../../shared/rate-limits';
import type { FaultHit } from '../faults';
import { MOCK_OPERATION_ROUTES } from '../operations';

/** How long a request over a soft limit is held back; the published limits give no service-level objective. */
const DEFAULT_SOFT_LIMIT_DELAY_MS = 1_500;

/** Options of {@link createMockRateLimits}; every one has a default. */
export interface MockRateLimitsOptions {
  /** The mock's clock (epoch ms); the same one the mock state uses. Default `Date.now`. */
  readonly now?: () => number;
  /** Which account limits apply (default production). */
  readonly tier?: AccountTier;
  /** The module rules (default: the published ones); tests pass their own to exercise one rule. */
  readonly moduleRules?: readonly RateLimitRule[];
  /** Requests per minute other clients of the account make (default 0). */
  readonly backgroundRpm?: number;
  readonly softLimitDelayMs?: number;
  /** Method and path per operation (default the mock's own operations). */
  readonly routes?: Readonly<Record<string, { readonly method: string; readonly path: string }>>;
}

/** One counting window as the control routes report it. */
export interface MockWindowSnapshot {
  readonly ruleId: string;
  readonly period: RateLimitPeriod;
  readonly limit: number;
  readonly windowStart: string;
  /** Requests counted in the window, other clients' included. */
  readonly count: number;
}

/** One active block. */
export interface MockBlockSnapshot {
  readonly scope: string;
  readonly ruleId: string;
  readonly eventId: string;
  readonly period: RateLimitPeriod;
  readonly until: string;
  readonly hits: number;
}

/** The mock's rate-limit state, for `/__mock/rate-limits` and tests. */
export interface MockRateLimitsSnapshot {
  readonly tier: AccountTier;
  readonly backgroundRpm: number;
  readonly windows: MockWindowSnapshot[];
  readonly blocks: MockBlockSnapshot[];
  /** 429s sent because of a limit or a block. */
  readonly refused: number;
  /** Requests slowed down by a soft limit. */
  readonly slowed: number;
}

/** The rate-limit model of one mock upstream. */
export interface MockRateLimits {
  /** The admission check to give `createMockState` (runs after injected faults). */
  admission(operation: string, now: number): FaultHit | undefined;
  /**
   * Fills the current window of a rule as if other clients had used it up, so the next request
   * exceeds it (demo controls, e2e). `period` defaults to the rule's first limit.
   */
  exhaust(ruleId: string, period?: RateLimitPeriod): void;
  snapshot(): MockRateLimitsSnapshot;
  /** Forgets every window and block. */
  reset(): void;
}

/** Thrown by `exhaust` for a rule or period the table does not have. */
export class UnknownRateLimitRuleError extends Error {
  override name = 'UnknownRateLimitRuleError';
}

interface Window {
  start: number;
  count: number;
}

interface Block {
  readonly ruleId: string;
  readonly eventId: string;
  readonly period: RateLimitPeriod;
  readonly allowed: number;
  readonly until: number;
  made: number;
  hits: number;
}

const ACCOUNT_SCOPE = 'account';

/** Creates the model; plug its `admission` into `createMockState`. */
export function createMockRateLimits(options: MockRateLimitsOptions = {}): MockRateLimits {
  const clock = options.now ?? Date.now;
  const tier = options.tier ?? 'production';
  const accountRules = ACCOUNT_RULES[tier];
  const moduleRules = options.moduleRules ?? MODULE_RULES;
  const backgroundRpm = options.backgroundRpm ?? 0;
  const softDelay = options.softLimitDelayMs ?? DEFAULT_SOFT_LIMIT_DELAY_MS;
  const routes: MockRateLimitsOptions['routes'] & object = options.routes ?? MOCK_OPERATION_ROUTES;
  if (!Number.isFinite(backgroundRpm) || backgroundRpm < 0) {
    throw new RangeError('backgroundRpm must be zero or more');
  }

  let windows = new Map<string, Window>();
  let blocks = new Map<string, Block>();
  let refused = 0;
  let slowed = 0;

  /** Where a rule counts: the whole account, or its own module window. */
  const countingScope = (rule: RateLimitRule) =>
    rule.scope === 'account' ? ACCOUNT_SCOPE : `rule:${rule.id}`;

  function windowOf(scope: string, period: RateLimitPeriod, now: number): Window {
    const size = PERIOD_SECONDS[period] * 1_000;
    const start = Math.floor(now / size) * size;
    const key = `${scope}|${period}`;
    let window = windows.get(key);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      windows.set(key, window);
    }
    return window;
  }

  /** Requests other clients made in the window so far: they share the account's count only. */
  function background(scope: string, window: Window, now: number): number {
    if (scope !== ACCOUNT_SCOPE || backgroundRpm === 0) return 0;
    return Math.floor((backgroundRpm * (now - window.start)) / 60_000);
  }

  function total(scope: string, period: RateLimitPeriod, now: number): number {
    const window = windowOf(scope, period, now);
    return window.count + background(scope, window, now);
  }

  function activeBlock(scope: string, now: number): Block | undefined {
    const block = blocks.get(scope);
    if (block && block.until > now) return block;
    if (block) blocks.delete(scope);
    return undefined;
  }

  function blockedAnswer(block: Block, now: number): FaultHit {
    block.hits += 1;
    block.made += block.hits === 1 ? 0 : 1;
    refused += 1;
    return {
      status: 429,
      delayMs: 0,
      headers: {
        // Whole seconds, rounded up: a client that waits exactly this long is not refused again.
        'retry-after': String(Math.max(1, Math.ceil((block.until - now) / 1_000))),
        'ot-ratelimit-event-id': block.eventId,
        'ot-requests-allowed': String(block.allowed),
        'ot-period': block.period,
        'ot-request-made': String(block.made),
      },
    };
  }

  function startBlock(
    scope: string,
    rule: RateLimitRule,
    limit: RateLimitWindow,
    made: number,
    now: number,
  ): Block {
    const block: Block = {
      ruleId: rule.id,
      // A new id per blocking occurrence; every 429 of this block repeats it.
      eventId: crypto.randomUUID(),
      period: limit.period,
      allowed: limit.limit,
      until: now + limit.blockSeconds * 1_000,
      made,
      hits: 0,
    };
    blocks.set(scope, block);
    return block;
  }

  function admission(operation: string, now: number): FaultHit | undefined {
    const route = routes[operation];
    if (!route) return undefined;
    const moduleRule = matchModuleRule(route.method, route.path, moduleRules);
    const counted = moduleRule ? [...accountRules, moduleRule] : accountRules;

    // Every request counts, refused ones included: "requests made" keeps growing during a block.
    for (const rule of counted) {
      for (const limit of rule.limits) windowOf(countingScope(rule), limit.period, now).count += 1;
    }

    const blocked =
      activeBlock(ACCOUNT_SCOPE, now) ??
      (moduleRule?.blocks === 'rule' ? activeBlock(`rule:${moduleRule.id}`, now) : undefined);
    if (blocked) return blockedAnswer(blocked, now);

    for (const rule of counted) {
      for (const limit of rule.limits) {
        const made = total(countingScope(rule), limit.period, now);
        if (made <= limit.limit) continue;
        if (rule.kind === 'soft') {
          slowed += 1;
          return { status: 200, delayMs: softDelay, headers: {} };
        }
        const blockScope = rule.blocks === 'account' ? ACCOUNT_SCOPE : `rule:${rule.id}`;
        return blockedAnswer(startBlock(blockScope, rule, limit, made, now), now);
      }
    }
    return undefined;
  }

  function findRule(ruleId: string): RateLimitRule {
    const rule = [...accountRules, ...moduleRules].find((candidate) => candidate.id === ruleId);
    if (!rule) throw new UnknownRateLimitRuleError(`No rate-limit rule "${ruleId}"`);
    return rule;
  }

  return {
    admission,
    exhaust(ruleId, period) {
      const rule = findRule(ruleId);
      const limit = period ? rule.limits.find((l) => l.period === period) : rule.limits[0];
      if (!limit) throw new UnknownRateLimitRuleError(`Rule "${ruleId}" has no ${period} limit`);
      const now = clock();
      const scope = countingScope(rule);
      const window = windowOf(scope, limit.period, now);
      window.count = Math.max(window.count, limit.limit - background(scope, window, now));
    },
    snapshot() {
      const now = clock();
      const all = [...accountRules, ...moduleRules];
      const windowList: MockWindowSnapshot[] = [];
      for (const rule of all) {
        for (const limit of rule.limits) {
          const scope = countingScope(rule);
          const window = windows.get(`${scope}|${limit.period}`);
          const count = total(scope, limit.period, now);
          if (!window && count === 0) continue;
          windowList.push({
            ruleId: rule.id,
            period: limit.period,
            limit: limit.limit,
            windowStart: new Date(windowOf(scope, limit.period, now).start).toISOString(),
            count,
          });
        }
      }
      const blockList = [...blocks.entries()]
        .filter(([, block]) => block.until > now)
        .map(([scope, block]) => ({
          scope,
          ruleId: block.ruleId,
          eventId: block.eventId,
          period: block.period,
          until: new Date(block.until).toISOString(),
          hits: block.hits,
        }));
      return { tier, backgroundRpm, windows: windowList, blocks: blockList, refused, slowed };
    },
    reset() {
      windows = new Map();
      blocks = new Map();
      refused = 0;
      slowed = 0;
    },
  };
}
