// The request limits of docs/rate-limit-model.md as data: one table read by the mock (which enforces it
// like the real service), the BFF's governor (which keeps it before sending) and the SPA (which
// shows it). Module rules are matched by path, so operations added later are covered by the table
// without code changes. The platform's rate-limit page has been published in two versions; both
// are here as selectable policies (RATE_LIMIT_POLICY, docs/rate-limits.md).
import { LIMIT_PATHS, PLATFORM_OPERATIONS } from './platform-operations';

/** The two periods the upstream counts in (`ot-period`). */
export const RATE_LIMIT_PERIODS = ['MINUTE', 'HOUR'] as const;
export type RateLimitPeriod = (typeof RATE_LIMIT_PERIODS)[number];

/** Length of each period in seconds. */
export const PERIOD_SECONDS: Readonly<Record<RateLimitPeriod, number>> = {
  MINUTE: 60,
  HOUR: 3_600,
};

/** Which account-level limits apply (`ACCOUNT_TIER`). */
export const ACCOUNT_TIERS = ['production', 'sandbox'] as const;
export type AccountTier = (typeof ACCOUNT_TIERS)[number];

/**
 * The longest block the console ever honours for one 429, whatever Retry-After says: the longest
 * documented block is one hour, so a larger value is a malformed header, not a reason to stop the
 * console for a day.
 */
export const MAX_BLOCK_SECONDS = 3_600;

/**
 * The headers of a 429 (docs/rate-limit-model.md §5) that describe a rate-limit event,
 * in the order support reads them (the incident store keeps them in this order too).
 */
export const RATE_LIMIT_HEADERS = [
  'retry-after',
  'ot-ratelimit-event-id',
  'ot-requests-allowed',
  'ot-period',
  'ot-request-made',
] as const;

/**
 * The published versions of the platform's rate-limit page (`RATE_LIMIT_POLICY`):
 * - `account-and-module` (default): account 20,000 per minute and 200,000 per hour, plus the
 *   module rules below;
 * - `per-endpoint`: the newer page: account 200,000 per hour, and a default of 1,000 per minute
 *   that applies to each API endpoint separately.
 */
export const RATE_LIMIT_POLICIES = ['account-and-module', 'per-endpoint'] as const;
export type RateLimitPolicy = (typeof RATE_LIMIT_POLICIES)[number];

/** One limit of a rule: so many requests per period. */
export interface RateLimitWindow {
  readonly period: RateLimitPeriod;
  readonly limit: number;
  /**
   * How long a violation blocks, in seconds. For the quotas whose table entry only says
   * "blocked duration", the upstream states the duration in each 429's Retry-After; the value
   * here is what the mock uses and the console assumes when Retry-After is missing.
   */
  readonly blockSeconds: number;
  /** False when `blockSeconds` is our assumption rather than the documented duration. */
  readonly blockDocumented: boolean;
  /** True when `limit` is a vendor-granted override (ACCOUNT_MINUTE_LIMIT, ACCOUNT_HOUR_LIMIT). */
  readonly overridden?: boolean;
}

/**
 * One row of the published limits.
 * - `hard`: a violation is a 429 with a rate-limit id and a block;
 * - `soft`: a violation means "service objectives not met" (the upstream slows down).
 */
export interface RateLimitRule {
  /** Stable id, used in URLs, incident records and the RateLimit-Policy header. */
  readonly id: string;
  /** The rule's name in the published limits. */
  readonly name: string;
  /** The area in the published limits: Account, Integration, Consent and preferences, Consent API quota, … */
  readonly area: string;
  /**
   * `account`: counts every request of the account; `module`: only requests matching `path`;
   * `endpoint`: every request too, but counted (and blocked) per method and path separately.
   */
  readonly scope: 'account' | 'module' | 'endpoint';
  /** HTTP method the rule counts; `*` for any. */
  readonly method: 'GET' | 'POST' | '*';
  /** Path pattern (see {@link matchesRulePath}); `null` for account rules. */
  readonly path: string | null;
  readonly kind: 'hard' | 'soft';
  readonly limits: readonly RateLimitWindow[];
  /**
   * What a violation blocks: every request of the account, only requests this rule matches, or
   * nothing (a soft limit).
   */
  readonly blocks: 'account' | 'rule' | 'none';
  /** The "If violated" column of the published limits, verbatim. */
  readonly violation: string;
}

const minute = (limit: number, blockSeconds = 60, blockDocumented = true): RateLimitWindow => ({
  period: 'MINUTE',
  limit,
  blockSeconds,
  blockDocumented,
});
const hour = (limit: number, blockSeconds = 3_600, blockDocumented = true): RateLimitWindow => ({
  period: 'HOUR',
  limit,
  blockSeconds,
  blockDocumented,
});

/** The account-level rules of the published limits per tier: the same ids, different limits and blocks. */
export const ACCOUNT_RULES: Readonly<Record<AccountTier, readonly RateLimitRule[]>> = {
  production: [
    {
      id: 'account-minute',
      name: 'Default minute',
      area: 'Account',
      scope: 'account',
      method: '*',
      path: null,
      kind: 'hard',
      limits: [minute(20_000, 60)],
      blocks: 'account',
      violation: 'Account blocked for 1 minute',
    },
    {
      id: 'account-hour',
      name: 'Default hour',
      area: 'Account',
      scope: 'account',
      method: '*',
      path: null,
      kind: 'hard',
      limits: [hour(200_000, 3_600)],
      blocks: 'account',
      violation: 'Account blocked for 1 hour',
    },
  ],
  sandbox: [
    {
      id: 'account-minute',
      name: 'Sandbox default minute',
      area: 'Account (sandbox)',
      scope: 'account',
      method: '*',
      path: null,
      kind: 'hard',
      limits: [minute(5_000, 60)],
      blocks: 'account',
      violation: 'Blocked for 1 minute',
    },
    {
      id: 'account-hour',
      name: 'Sandbox default hour',
      area: 'Account (sandbox)',
      scope: 'account',
      method: '*',
      path: null,
      kind: 'hard',
      limits: [hour(50_000, 120)],
      blocks: 'account',
      violation: 'Blocked for 2 minutes',
    },
  ],
};

const SLOWER = 'Service objectives not met';
const QUOTA = '429 with rate-limit id and blocked duration';

function softMinute(id: string, name: string, method: 'GET' | 'POST', path: string, limit: number) {
  return {
    id,
    name,
    area: 'Consent and preferences',
    scope: 'module',
    method,
    path,
    kind: 'soft',
    // A soft limit blocks nothing; the window's block fields are unused.
    limits: [minute(limit, 0)],
    blocks: 'none',
    violation: SLOWER,
  } as const satisfies RateLimitRule;
}

function quota(
  id: string,
  area: string,
  method: 'GET' | '*',
  path: string,
  perMinute: number,
  perHour: number,
) {
  return {
    id,
    name: 'quota',
    area,
    scope: 'module',
    method,
    path,
    kind: 'hard',
    // "Blocked duration" is not given: assume the rest of the period, rounded up to a whole one.
    limits: [minute(perMinute, 60, false), hour(perHour, 3_600, false)],
    blocks: 'rule',
    violation: QUOTA,
  } as const satisfies RateLimitRule;
}

/**
 * The module-level rules of the published limits, in their order. They apply in addition to the account rules. docs/rate-limit-model.md
 * writes the paths shortened (`/v4/datasubjects/...`, `/v1/datasubjects/profiles`); here they are
 * the full paths of the vendor's OpenAPI documents (data-subjects v4, v1, v2 and v3), so a rule
 * counts exactly the operation it names. Ids are stable: the operations catalog refers to them.
 */
export const MODULE_RULES: readonly RateLimitRule[] = [
  {
    id: 'webhook-minute',
    name: 'Default webhook minute',
    area: 'Integration',
    scope: 'module',
    method: '*',
    path: LIMIT_PATHS.webhook.path,
    kind: 'hard',
    limits: [minute(3_000, 60)],
    // As published: violating this module rule blocks the whole account.
    blocks: 'account',
    violation: 'Account blocked for 1 minute',
  },
  softMinute(
    'consent-receipts-minute',
    '2k per minute',
    'POST',
    LIMIT_PATHS.consentReceipts.path,
    2_000,
  ),
  softMinute('preferences-minute', '3k per minute', 'GET', LIMIT_PATHS.preferences.path, 3_000),
  softMinute(
    'v4-basic-details-minute',
    '1k per minute',
    'GET',
    PLATFORM_OPERATIONS.getDataSubjectBasicDetailsV4.path,
    1_000,
  ),
  softMinute(
    'v4-details-minute',
    '1k per minute',
    'GET',
    PLATFORM_OPERATIONS.getDataSubjectDetailsV4.path,
    1_000,
  ),
  softMinute(
    'v4-ds-profiles-minute',
    '1k per minute',
    'GET',
    PLATFORM_OPERATIONS.getAllProfilesByDataSubjectV4.path,
    1_000,
  ),
  softMinute(
    'v4-purpose-profile-minute',
    '1k per minute',
    'GET',
    PLATFORM_OPERATIONS.getDataSubjectProfileV4.path,
    1_000,
  ),
  softMinute(
    'consent-ingestion-minute',
    'Default consent ingestion',
    'POST',
    LIMIT_PATHS.consentReceiptsBulk.path,
    3_000,
  ),
  quota(
    'v1-datasubject-profiles-quota',
    'Consent API quota',
    'GET',
    PLATFORM_OPERATIONS.getDataSubjectProfileUsingGET.path,
    300,
    18_000,
  ),
  quota(
    'v2-datasubjects-quota',
    'Consent API quota',
    'GET',
    PLATFORM_OPERATIONS.getDataSubjectsUsingGET.path,
    300,
    18_000,
  ),
  quota(
    'v3-datasubjects-quota',
    'Consent API quota',
    'GET',
    PLATFORM_OPERATIONS.getV3DatasubjectsProfileUsingGet.path,
    1_000,
    60_000,
  ),
  quota('scim-quota', 'User provisioning', '*', LIMIT_PATHS.scim.path, 2_000, 20_000),
];

/**
 * Account limits the vendor raised for this account: the published limits say "a temporary account-level override
 * can be added through the vendor's support channel". Unset periods keep the tier's limit.
 */
export type AccountOverride = Partial<Record<RateLimitPeriod, number>>;

/** The account rules of `tier`, with any override applied. */
function accountRulesFor(tier: AccountTier, override: AccountOverride = {}): RateLimitRule[] {
  return ACCOUNT_RULES[tier].map((rule) => ({
    ...rule,
    limits: rule.limits.map((window) => {
      const limit = override[window.period];
      return limit === undefined ? window : { ...window, limit, overridden: true };
    }),
  }));
}

/** Every rule that applies to an account of `tier`: its account rules, then the module rules. */
export function rulesForTier(
  tier: AccountTier,
  moduleRules: readonly RateLimitRule[] = MODULE_RULES,
  override: AccountOverride = {},
): RateLimitRule[] {
  return [...accountRulesFor(tier, override), ...moduleRules];
}

/** Id of the newer page's per-endpoint default rule. */
const ENDPOINT_RULE_ID = 'endpoint-minute';

/** The per-endpoint default of the newer page: 1,000 a minute for each endpoint on its own. */
function endpointRule(limit = 1_000, overridden = false): RateLimitRule {
  return {
    id: ENDPOINT_RULE_ID,
    name: 'Default per endpoint',
    area: 'Each API endpoint',
    scope: 'endpoint',
    method: '*',
    path: null,
    kind: 'hard',
    // The page gives no block duration: the rest of the minute is assumed, as for the quotas.
    limits: [{ ...minute(limit, 60, false), ...(overridden ? { overridden: true } : {}) }],
    blocks: 'rule',
    violation: '429; each endpoint is counted and blocked on its own',
  };
}

/** Limits that replace a policy's published figures (the *_LIMIT settings). */
export interface PolicyOverrides {
  /** The account's minute and hour limits. */
  readonly account?: AccountOverride;
  /** The per-endpoint default (per-endpoint policy only). */
  readonly endpointMinute?: number;
}

/**
 * Every rule of `policy` for an account of `tier`:
 * - `account-and-module`: the tier's account rules and the module rules of the published limits;
 * - `per-endpoint`: the account hour limit (200,000 on production; the older page's 50,000 on a
 *   sandbox, the only sandbox figure published) and the per-endpoint default. The newer page has
 *   no account minute limit and no module rules.
 */
export function rulesForPolicy(
  policy: RateLimitPolicy,
  tier: AccountTier,
  overrides: PolicyOverrides = {},
  moduleRules: readonly RateLimitRule[] = MODULE_RULES,
): RateLimitRule[] {
  const account = accountRulesFor(tier, overrides.account ?? {});
  if (policy === 'account-and-module') return [...account, ...moduleRules];
  return [
    ...account.filter((rule) => rule.limits.every((window) => window.period === 'HOUR')),
    endpointRule(overrides.endpointMinute ?? 1_000, overrides.endpointMinute !== undefined),
  ];
}

/**
 * The most requests the platform answers (other than with 429) for the account in one minute: the
 * smallest account limit of any period, since every window at least a minute long holds the
 * minute. A report of more in one minute cannot be real. Undefined when no account rule is kept.
 */
export function accountMinuteCeiling(rules: readonly RateLimitRule[]): number | undefined {
  const limits = rules
    .filter((rule) => rule.scope === 'account')
    .flatMap((rule) => rule.limits.map((window) => window.limit));
  return limits.length > 0 ? Math.min(...limits) : undefined;
}

/**
 * Whether one reporting source's requests of a minute (every request, 429s included) are set
 * aside: at or above the account's minute ceiling. The console stores at most the ceiling for a
 * source and minute (a report claiming more is accepted only up to it), so a stored minute at the
 * ceiling is one whose claims reached it; counting it would let one key alone call the account's
 * minute exhausted, which only the platform's own 429s may say (docs/account-wide-view.md).
 */
export function setAsideAtCeiling(requests: number, ceiling: number): boolean {
  return requests >= ceiling;
}

/** "GET /rest/api/consent/v4/datasubjects/details": how a per-endpoint window is named. */
export function endpointKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.split('?')[0] ?? ''}`;
}

/**
 * The rules that count a `method` request to `path`: every account and per-endpoint rule, and
 * the most specific module rule whose method and path match. This is what a 429 on that call can
 * be about, whatever its headers say.
 */
export function rulesApplyingTo(
  method: string,
  path: string,
  rules: readonly RateLimitRule[],
): RateLimitRule[] {
  const own = matchModuleRule(method, path, rules);
  return rules.filter((rule) => rule.scope !== 'module' || rule === own);
}

function segments(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

/**
 * True when `path` (a request path, possibly with `{name}` placeholders) falls under the rule's
 * `pattern`. The pattern's segments must appear as one contiguous run:
 * - anywhere in the path, so a tenant base path in front of the documented path still matches;
 * - followed by nothing or by sub-resources (the conservative reading of a rule's path);
 * - `{name}` matches exactly one segment, a trailing `*` one or more.
 */
export function matchesRulePath(pattern: string, path: string): boolean {
  const wanted = segments(pattern);
  const wildcard = wanted.at(-1) === '*';
  const fixed = wildcard ? wanted.slice(0, -1) : wanted;
  const actual = segments(path.split('?')[0] ?? '');
  for (let start = 0; start + fixed.length <= actual.length; start += 1) {
    const matches = fixed.every((segment, index) => {
      const candidate = actual[start + index];
      return /^\{\w+\}$/.test(segment) || candidate === segment;
    });
    if (!matches) continue;
    if (!wildcard || start + fixed.length < actual.length) return true;
  }
  return false;
}

/** How specific a pattern is: literal segments count most, so the narrowest match wins. */
function specificity(pattern: string): number {
  return segments(pattern).reduce(
    (score, segment) => score + (segment === '*' ? 0 : /^\{\w+\}$/.test(segment) ? 1 : 10),
    0,
  );
}

/** The module rule that counts a `method` request to `path`, the most specific when several do. */
export function matchModuleRule(
  method: string,
  path: string,
  rules: readonly RateLimitRule[] = MODULE_RULES,
): RateLimitRule | undefined {
  let best: RateLimitRule | undefined;
  for (const rule of rules) {
    if (rule.scope !== 'module' || rule.path === null) continue;
    if (rule.method !== '*' && rule.method !== method.toUpperCase()) continue;
    if (!matchesRulePath(rule.path, path)) continue;
    if (!best || specificity(rule.path) > specificity(best.path ?? '')) best = rule;
  }
  return best;
}

/** A short human description of a rule's limits, e.g. "300 per minute and 18,000 per hour". */
export function describeLimits(rule: Pick<RateLimitRule, 'limits'>): string {
  return rule.limits
    .map(({ limit, period }) => `${limit.toLocaleString('en-US')} per ${period.toLowerCase()}`)
    .join(' and ');
}

/**
 * The one name of each limit, on every page and in every alert: "Account minute limit",
 * "v2 data-subjects quota per hour". Before, one limit had three names (its id, "area · rule
 * name", a chart legend's wording). Rules of a catalog override file fall back to their id.
 */
const LIMIT_NAMES: Readonly<Record<string, string>> = {
  'account-minute': 'Account minute limit',
  'account-hour': 'Account hour limit',
  'endpoint-minute': 'Per-endpoint minute limit',
  'webhook-minute': 'Webhook minute limit',
  'consent-receipts-minute': 'Consent receipts minute limit',
  'preferences-minute': 'Preferences minute limit',
  'v4-basic-details-minute': 'v4 basic-details minute limit',
  'v4-details-minute': 'v4 details minute limit',
  'v4-ds-profiles-minute': 'v4 ds-profiles minute limit',
  'v4-purpose-profile-minute': 'v4 purpose-profile minute limit',
  'consent-ingestion-minute': 'Consent ingestion minute limit',
  // The quotas count per minute and per hour under one rule: the period completes the name.
  'v1-datasubject-profiles-quota': 'v1 profiles quota',
  'v2-datasubjects-quota': 'v2 data-subjects quota',
  'v3-datasubjects-quota': 'v3 profile quota',
  'scim-quota': 'User provisioning quota',
};

/** The name of a rule's limit in `period`, or of the rule itself when `period` is omitted. */
export function limitName(ruleId: string, period?: RateLimitPeriod): string {
  const base = LIMIT_NAMES[ruleId] ?? ruleId;
  if (period === undefined || base.endsWith(' limit')) return base;
  return `${base} per ${period === 'MINUTE' ? 'minute' : 'hour'}`;
}
