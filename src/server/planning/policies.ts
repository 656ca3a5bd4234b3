// The policies a replay can run against: the one in force (the governor's rules), the other
// published version of the limits, another connection's policy in force, or a custom one. A custom policy is checked before anything
// is replayed: a zero, negative, fractional or absurd limit is a typing error, named field by
// field, never a chart that says "no breaches".
import {
  CUSTOM_LIMIT_BOUNDS,
  type PolicyChoice,
  type PolicyLimit,
  type PolicySummary,
} from '../../shared/planning';
import {
  limitName,
  rulesForPolicy,
  type AccountTier,
  type PolicyOverrides,
  type RateLimitPeriod,
  type RateLimitPolicy,
  type RateLimitRule,
  type RateLimitWindow,
} from '../../shared/rate-limits';

/** The policy in force, as configured. */
export interface PolicyInForce {
  readonly policy: RateLimitPolicy;
  readonly tier: AccountTier;
  readonly overrides: PolicyOverrides;
  /** The module rules of the published limits (or of a test's table). */
  readonly moduleRules: readonly RateLimitRule[];
}

/** A connection of this console and its policy in force: what a `connection` choice replays under. */
export interface ConnectionPolicy {
  readonly name: string;
  readonly label: string;
  readonly inForce: PolicyInForce;
}

/** A custom policy's limit that cannot be replayed: which field, and why. */
export class PolicyRejectedError extends Error {
  override name = 'PolicyRejectedError';
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}

const POLICY_LABELS: Readonly<Record<RateLimitPolicy, string>> = {
  'account-and-module': 'Published: account and module limits',
  'per-endpoint': 'Published: per-endpoint limits',
};

function checkLimit(value: number | null, period: RateLimitPeriod, parameter: string): void {
  if (value === null) return;
  const { min, max } = CUSTOM_LIMIT_BOUNDS[period];
  const per = period === 'MINUTE' ? 'a minute' : 'an hour';
  if (!Number.isInteger(value)) {
    throw new PolicyRejectedError(
      parameter,
      `A limit is a whole number of requests ${per}; ${value} is not.`,
    );
  }
  if (value < min) {
    throw new PolicyRejectedError(
      parameter,
      `A limit of ${value} requests ${per} would refuse everything. Leave the limit out instead, or give at least ${min}.`,
    );
  }
  if (value > max) {
    throw new PolicyRejectedError(
      parameter,
      `${value.toLocaleString('en-US')} requests ${per} is not a limit the platform could set (at most ${max.toLocaleString('en-US')}); check the number of digits.`,
    );
  }
}

const window = (base: RateLimitWindow | undefined, period: RateLimitPeriod, limit: number) => ({
  period,
  limit,
  blockSeconds: base?.blockSeconds ?? (period === 'MINUTE' ? 60 : 3_600),
  blockDocumented: base?.blockDocumented ?? false,
});

/** The rules of a custom policy, after every limit is checked. */
function customRules(
  choice: Extract<PolicyChoice, { kind: 'custom' }>,
  inForce: PolicyInForce,
): RateLimitRule[] {
  checkLimit(choice.accountMinute, 'MINUTE', 'policy.accountMinute');
  checkLimit(choice.accountHour, 'HOUR', 'policy.accountHour');
  checkLimit(choice.endpointMinute, 'MINUTE', 'policy.endpointMinute');
  if (
    choice.accountMinute !== null &&
    choice.accountHour !== null &&
    choice.accountHour < choice.accountMinute
  ) {
    throw new PolicyRejectedError(
      'policy.accountHour',
      `An hour limit (${choice.accountHour.toLocaleString('en-US')}) below the minute limit (${choice.accountMinute.toLocaleString('en-US')}) makes the minute limit meaningless; one of them is probably mistyped.`,
    );
  }
  // The published shapes give the blocks and names; the custom numbers replace the limits.
  const published = rulesForPolicy('account-and-module', inForce.tier, {}, inForce.moduleRules);
  const endpoint = rulesForPolicy('per-endpoint', inForce.tier).find(
    (rule) => rule.scope === 'endpoint',
  );
  const rules: RateLimitRule[] = [];
  for (const [id, period, limit] of [
    ['account-minute', 'MINUTE', choice.accountMinute],
    ['account-hour', 'HOUR', choice.accountHour],
  ] as const) {
    const base = published.find((rule) => rule.id === id);
    if (base && limit !== null) {
      rules.push({ ...base, limits: [window(base.limits[0], period, limit)] });
    }
  }
  if (endpoint && choice.endpointMinute !== null) {
    rules.push({
      ...endpoint,
      limits: [window(endpoint.limits[0], 'MINUTE', choice.endpointMinute)],
    });
  }
  const seen = new Set<string>();
  choice.moduleRules.forEach((custom, index) => {
    const base = inForce.moduleRules.find((rule) => rule.id === custom.id);
    if (!base) {
      throw new PolicyRejectedError(
        `policy.moduleRules[${index}].id`,
        `There is no module rule "${custom.id}" in the published limits.`,
      );
    }
    if (seen.has(custom.id)) {
      throw new PolicyRejectedError(
        `policy.moduleRules[${index}].id`,
        `The module rule "${custom.id}" is listed twice.`,
      );
    }
    seen.add(custom.id);
    checkLimit(custom.minute, 'MINUTE', `policy.moduleRules[${index}].minute`);
    checkLimit(custom.hour, 'HOUR', `policy.moduleRules[${index}].hour`);
    const limits = (
      [
        ['MINUTE', custom.minute],
        ['HOUR', custom.hour],
      ] as const
    ).flatMap(([period, limit]) =>
      limit === null
        ? []
        : [
            window(
              base.limits.find((entry) => entry.period === period),
              period,
              limit,
            ),
          ],
    );
    if (limits.length === 0) {
      throw new PolicyRejectedError(
        `policy.moduleRules[${index}]`,
        `The module rule "${custom.id}" has no limit left; remove it from the list instead.`,
      );
    }
    rules.push({ ...base, limits });
  });
  if (rules.length === 0) {
    throw new PolicyRejectedError(
      'policy',
      'This policy has no limit at all, so nothing could go over it. Give at least one limit.',
    );
  }
  return rules;
}

/** The rules of a published version for this account (its tier and granted overrides). */
function publishedRules(version: RateLimitPolicy, inForce: PolicyInForce): RateLimitRule[] {
  const overrides: PolicyOverrides =
    version === 'per-endpoint'
      ? inForce.overrides
      : // An account-minute override has no meaning under the per-endpoint policy, and the
        // per-endpoint default none under the other: each version keeps only what applies to it.
        { ...(inForce.overrides.account ? { account: inForce.overrides.account } : {}) };
  return rulesForPolicy(version, inForce.tier, overrides, inForce.moduleRules);
}

/** The connection a `connection` choice names; one this console does not serve is refused. */
export function chosenConnection(
  choice: Extract<PolicyChoice, { kind: 'connection' }>,
  connections: readonly ConnectionPolicy[],
): ConnectionPolicy {
  const found = connections.find((connection) => connection.name === choice.connection);
  if (!found) {
    throw new PolicyRejectedError(
      'policy.connection',
      `This console serves no connection named "${choice.connection}"; pick one of the connections offered.`,
    );
  }
  return found;
}

/**
 * The rules of `choice`; a custom policy's limits are checked first. Another connection's policy
 * is its published version in force with its tier, overrides and module rules: that account's
 * limits, not this one's.
 */
export function rulesOf(
  choice: PolicyChoice,
  inForce: PolicyInForce,
  connections: readonly ConnectionPolicy[] = [],
): RateLimitRule[] {
  if (choice.kind === 'published') return publishedRules(choice.version, inForce);
  if (choice.kind === 'custom') return customRules(choice, inForce);
  const other = chosenConnection(choice, connections).inForce;
  return publishedRules(other.policy, other);
}

/** The limits of `rules` as the page lists them. */
export function limitsOf(rules: readonly RateLimitRule[]): PolicyLimit[] {
  return rules.flatMap((rule) =>
    rule.limits.map((limit) => ({
      ruleId: rule.id,
      name: limitName(rule.id, limit.period),
      scope: rule.scope,
      period: limit.period,
      limit: limit.limit,
      kind: rule.kind,
      blocks: rule.blocks,
      blockSeconds: rule.kind === 'soft' ? 0 : limit.blockSeconds,
    })),
  );
}

/** How a policy is named: "Custom", "Published: … (in force)", "UAT's policy in force (…)". */
function labelOf(
  choice: PolicyChoice,
  inForce: PolicyInForce,
  connections: readonly ConnectionPolicy[],
): string {
  if (choice.kind === 'custom') return 'Custom';
  if (choice.kind === 'published') {
    return `${POLICY_LABELS[choice.version]}${choice.version === inForce.policy ? ' (in force)' : ''}`;
  }
  // The tier is named: two connections on the same published version differ by it.
  const other = chosenConnection(choice, connections);
  return `${other.label}’s policy in force (${POLICY_LABELS[other.inForce.policy]}, ${other.inForce.tier} tier)`;
}

/** A policy as the answer names it. */
export function summaryOf(
  choice: PolicyChoice,
  rules: readonly RateLimitRule[],
  inForce: PolicyInForce,
  connections: readonly ConnectionPolicy[] = [],
): PolicySummary {
  return { label: labelOf(choice, inForce, connections), choice, limits: limitsOf(rules) };
}

/** The published version that is not in force. */
export function otherVersion(inForce: PolicyInForce): RateLimitPolicy {
  return inForce.policy === 'per-endpoint' ? 'account-and-module' : 'per-endpoint';
}
