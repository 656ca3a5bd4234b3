// Reads an upstream 429's rate-limit headers (docs/rate-limit-model.md §5) without trusting them: every
// value is checked, a bad one is flagged instead of thrown, the block is bounded to [1 s, 1 h], and
// the headers are matched to the rule they speak of: among the rules that apply to the call's path
// only, so a 429 is never attributed to a limit of another operation.
import type { IncidentFlag } from '../../shared/incident';
import { parseRetryAfter } from '../../shared/retry-after';
import {
  ACCOUNT_RULES,
  MAX_BLOCK_SECONDS,
  MODULE_RULES,
  RATE_LIMIT_HEADERS,
  rulesApplyingTo,
  type AccountTier,
  type RateLimitPeriod,
  type RateLimitRule,
} from '../../shared/rate-limits';

/** Block assumed when neither Retry-After nor a matched rule says how long. */
const DEFAULT_BLOCK_SECONDS = 60;
/** Largest Retry-After kept as received (an int32, like the header's documented type). */
const MAX_STORED_SECONDS = 2 ** 31 - 1;
/** Longest header value kept for support; a longer one is cut, it is garbage anyway. */
const MAX_HEADER_LENGTH = 200;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WHOLE_NUMBER = /^\d{1,9}$/;

/** What one 429 says, checked. */
export interface RateLimitReading {
  /** The event id when it is a UUID (lower-cased), otherwise null. */
  readonly eventId: string | null;
  readonly period: RateLimitPeriod | null;
  readonly requestsAllowed: number | null;
  readonly requestsMade: number | null;
  /** Retry-After in seconds as sent (an HTTP date converted), before bounding; null if unusable. */
  readonly retryAfterSeconds: number | null;
  /** How long the console blocks: Retry-After bounded to [1, 3600], or the rule's duration. */
  readonly blockSeconds: number;
  readonly rule: RateLimitRule | null;
  /** What the block stops: every operation, or only the matched rule's. */
  readonly scope: 'account' | 'rule';
  readonly flags: IncidentFlag[];
  /** The headers of {@link RATE_LIMIT_HEADERS} that were present, as received (bounded). */
  readonly headers: Record<string, string>;
}

export interface ReadContext {
  readonly now: number;
  readonly tier: AccountTier;
  /** The call that drew the 429. */
  readonly operation: { readonly method: string; readonly path: string };
  readonly moduleRules?: readonly RateLimitRule[];
  /** The account rules in force, when an override raised them (default the tier's). */
  readonly accountRules?: readonly RateLimitRule[];
  /**
   * Every rule in force (the governor's, whatever the policy); when given, `tier`,
   * `moduleRules` and `accountRules` are not consulted for matching.
   */
  readonly rules?: readonly RateLimitRule[];
}

type Headers = Record<string, string | string[] | undefined>;

function first(headers: Headers, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function readCount(
  value: string | undefined,
  missing: IncidentFlag,
  malformed: IncidentFlag,
  flags: IncidentFlag[],
): number | null {
  if (value === undefined || value.trim() === '') {
    flags.push(missing);
    return null;
  }
  if (!WHOLE_NUMBER.test(value.trim())) {
    flags.push(malformed);
    return null;
  }
  return Number(value.trim());
}

/** Which kinds of rule name a 429 first when several fit: the narrowest hard one. */
function preference(rule: RateLimitRule): number {
  if (rule.kind === 'soft') return 3;
  return rule.scope === 'module' ? 0 : rule.scope === 'endpoint' ? 1 : 2;
}

/**
 * The rule the headers speak of. Only the rules that apply to the call's method and path are
 * candidates (its account and per-endpoint rules, and its own module rule); the numbers choose
 * among them: the one with a limit of exactly `allowed` per `period`. When none has those figures
 * the rule is unknown (null) and the incident keeps the numbers: naming another operation's limit
 * would tell support the wrong thing. With no allowed count, the period alone decides.
 */
function matchRule(
  period: RateLimitPeriod | null,
  allowed: number | null,
  context: ReadContext,
): RateLimitRule | null {
  if (period === null) return null;
  const rules = context.rules ?? [
    ...(context.accountRules ?? ACCOUNT_RULES[context.tier]),
    ...(context.moduleRules ?? MODULE_RULES),
  ];
  const candidates = rulesApplyingTo(context.operation.method, context.operation.path, rules)
    .filter((rule) =>
      rule.limits.some(
        (limit) => limit.period === period && (allowed === null || limit.limit === allowed),
      ),
    )
    .sort((a, b) => preference(a) - preference(b));
  return candidates[0] ?? null;
}

/** Reads one 429's headers; never throws. */
export function readRateLimitHeaders(headers: Headers, context: ReadContext): RateLimitReading {
  const flags: IncidentFlag[] = [];
  const received: Record<string, string> = {};
  for (const name of RATE_LIMIT_HEADERS) {
    const value = first(headers, name);
    if (value !== undefined) received[name] = value.slice(0, MAX_HEADER_LENGTH);
  }

  const rawId = received['ot-ratelimit-event-id']?.trim();
  let eventId: string | null = null;
  if (!rawId) flags.push('missing-event-id');
  else if (!UUID.test(rawId)) flags.push('malformed-event-id');
  else eventId = rawId.toLowerCase();

  const rawPeriod = received['ot-period']?.trim();
  let period: RateLimitPeriod | null = null;
  if (!rawPeriod) flags.push('missing-period');
  else if (rawPeriod === 'MINUTE' || rawPeriod === 'HOUR') period = rawPeriod;
  else flags.push('unknown-period');

  const requestsAllowed = readCount(
    received['ot-requests-allowed'],
    'missing-requests-allowed',
    'malformed-requests-allowed',
    flags,
  );
  const requestsMade = readCount(
    received['ot-request-made'],
    'missing-requests-made',
    'malformed-requests-made',
    flags,
  );

  const rule = matchRule(period, requestsAllowed, context);
  if (!rule) flags.push('unmatched-rule');

  const rawRetry = received['retry-after'];
  let retryAfterSeconds: number | null = null;
  if (rawRetry === undefined || rawRetry.trim() === '') {
    flags.push('missing-retry-after');
  } else {
    const parsed = parseRetryAfter(rawRetry, context.now);
    // Absurdly many digits still mean "wait long": kept (bounded below), then capped to an hour.
    if (parsed === undefined) flags.push('malformed-retry-after');
    else retryAfterSeconds = Math.min(parsed, MAX_STORED_SECONDS);
  }

  let blockSeconds: number;
  if (retryAfterSeconds === null) {
    const documented = rule?.limits.find((limit) => limit.period === period) ?? rule?.limits[0];
    blockSeconds = documented && documented.blockSeconds > 0 ? documented.blockSeconds : 0;
    if (blockSeconds === 0) blockSeconds = DEFAULT_BLOCK_SECONDS;
  } else {
    if (retryAfterSeconds > MAX_BLOCK_SECONDS) flags.push('retry-after-capped');
    blockSeconds = retryAfterSeconds;
  }
  blockSeconds = Math.min(MAX_BLOCK_SECONDS, Math.max(1, blockSeconds));

  return {
    eventId,
    period,
    requestsAllowed,
    requestsMade,
    retryAfterSeconds,
    blockSeconds,
    rule,
    // An unknown rule blocks the account: the console cannot tell what else would be safe.
    scope: rule?.blocks === 'rule' ? 'rule' : 'account',
    flags,
    headers: received,
  };
}
