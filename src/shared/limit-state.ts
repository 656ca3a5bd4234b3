// The one answer to "what state is this limit in": every running block described once (the rule's
// name, who stopped what and why), and which limits each block stops. The BFF describes its
// governor's blocks with it in every answer that shows a limit (usage, forecast, the account-wide
// view), so the rate-limits page, the account-wide card, Alerts, Planning and the banner cannot
// disagree: they print these words instead of deriving their own.
import * as z from 'zod/mini';
import { formatCount } from './counted';
import { limitName, type RateLimitPeriod } from './rate-limits';

const IsoTime = z.iso.datetime({ offset: true });

/** What the 429 that started a block stated, as far as the console knows it. */
export interface BlockStated {
  /** `ot-requests-allowed`, when the 429 carried a usable one. */
  readonly requestsAllowed: number | null;
  /** The call that drew it, as method and path template ("GET /api/…"); never a path value. */
  readonly request?: string | undefined;
}

/** A running block as the governor keeps it (epoch ms), with what its 429 stated when known. */
export interface BlockFacts {
  readonly scope: 'account' | 'rule';
  readonly ruleId: string | null;
  readonly period: RateLimitPeriod | null;
  readonly until: number;
  readonly incidentKey: string | null;
  readonly endpoint?: string | undefined;
  /** Absent for a block restored or learnt without its 429's figures. */
  readonly stated?: BlockStated | undefined;
}

/**
 * Who stopped the requests: `platform`, the platform blocked them under a limit the console knows
 * (its published rules say what it blocks); `precaution`, the platform refused a call under a limit
 * the console cannot place, and the console paused the account itself to be safe.
 */
export const BLOCK_CAUSES = ['platform', 'precaution'] as const;

/** A running block, described: the same words on every page. */
export const BlockStateSchema = z.object({
  /** `account`: every request of the account is stopped; `rule`: the requests of one rule. */
  scope: z.enum(['account', 'rule']),
  ruleId: z.nullable(z.string()),
  /** The limit's one name: "Account minute limit", "Unknown limit (1,000 per minute, …)". */
  ruleName: z.string(),
  cause: z.enum(BLOCK_CAUSES),
  /** One sentence: who stopped what, and why. */
  reason: z.string(),
  until: IsoTime,
  incidentKey: z.nullable(z.string()),
  /** For a per-endpoint rule: the one endpoint the block stops. */
  endpoint: z.optional(z.string()),
});
export type BlockState = z.infer<typeof BlockStateSchema>;

/** What an unknown limit's 429 stated: "1,000 per minute", "per hour"; null for nothing usable. */
function statedFigures(
  period: RateLimitPeriod | null,
  requestsAllowed: number | null | undefined,
): string | null {
  if (period === null) return null;
  return requestsAllowed != null
    ? `${formatCount(requestsAllowed)} per ${period.toLowerCase()}`
    : `per ${period.toLowerCase()}`;
}

const NO_FIGURES = 'the 429 had no usable rate-limit headers';

/**
 * The one name of the limit a 429 was about. A 429 no rule of the call matches is an "Unknown
 * limit" with the figures the platform stated, never another operation's limit.
 */
export function incidentLimitName(incident: {
  readonly ruleId: string | null;
  readonly period: RateLimitPeriod | null;
  readonly requestsAllowed: number | null;
}): string {
  if (incident.ruleId !== null) return limitName(incident.ruleId, incident.period ?? undefined);
  const figures = statedFigures(incident.period, incident.requestsAllowed);
  return figures
    ? `Unknown limit (${figures}, as the platform stated)`
    : `Unknown limit (${NO_FIGURES})`;
}

/** Describes one running block: its limit's name, who stopped what, and why. */
export function describeBlock(block: BlockFacts): BlockState {
  const ruleName = incidentLimitName({
    ruleId: block.ruleId,
    period: block.period,
    requestsAllowed: block.stated?.requestsAllowed ?? null,
  });
  const cause = block.ruleId === null ? 'precaution' : 'platform';
  const reason =
    cause === 'precaution'
      ? `The platform refused ${block.stated?.request ? `one call (${block.stated.request})` : 'one call'} with a 429 under a limit this console does not know (${statedFigures(block.period, block.stated?.requestsAllowed) ?? NO_FIGURES}); it has not blocked the account, but the console paused every request of the account as a precaution.`
      : block.scope === 'account'
        ? `The platform blocked the account: the ${ruleName} was used up, and every request of the account is refused until the block ends.`
        : `The platform blocked the requests the ${ruleName} counts${block.endpoint ? ` (${block.endpoint})` : ''}: it was used up; other requests still go out.`;
  return {
    scope: block.scope,
    ruleId: block.ruleId,
    ruleName,
    cause,
    reason,
    until: new Date(block.until).toISOString(),
    incidentKey: block.incidentKey,
    ...(block.endpoint === undefined ? {} : { endpoint: block.endpoint }),
  };
}

/**
 * The block that stops a limit now, of `blocks` (described, running): the account's stops every
 * limit; a rule's stops that rule's limits (for a per-endpoint rule, its endpoint's). The longest
 * wins, as the governor keeps the longest.
 */
export function blockOfLimit(
  limit: { readonly ruleId: string; readonly endpoint?: string | undefined },
  blocks: readonly BlockState[],
): BlockState | null {
  const stopping = blocks.filter(
    (block) =>
      block.scope === 'account' ||
      (block.ruleId === limit.ruleId &&
        (block.endpoint === undefined ||
          limit.endpoint === undefined ||
          block.endpoint === limit.endpoint)),
  );
  return stopping.sort((a, b) => Date.parse(b.until) - Date.parse(a.until))[0] ?? null;
}

/** The account-wide block running now, if any (the banner's). */
export function accountBlock(blocks: readonly BlockState[]): BlockState | null {
  return (
    blocks
      .filter((block) => block.scope === 'account')
      .sort((a, b) => Date.parse(b.until) - Date.parse(a.until))[0] ?? null
  );
}

/**
 * The short state every page shows beside a blocked limit, with the limit's one name: "Blocked by
 * the platform: Account minute limit", "Paused by the console after a 429: Unknown limit (…)".
 */
export function blockedLabel(block: Pick<BlockState, 'ruleName' | 'cause'>): string {
  return block.cause === 'precaution'
    ? `Paused by the console after a 429: ${block.ruleName}`
    : `Blocked by the platform: ${block.ruleName}`;
}

/**
 * The block every blocked limit of a list shares, when more than one has it (an account block
 * stops every limit): the pages say it once above the list instead of on every row, so the rows
 * read cleanly at any width. The same words and the same end are the same block.
 */
export function sharedBlock(blocks: readonly (BlockState | null | undefined)[]): BlockState | null {
  const present = blocks.filter((block): block is BlockState => block != null);
  const first = present[0];
  if (!first || present.length < 2) return null;
  return present.every(
    (block) =>
      blockedLabel(block) === blockedLabel(first) &&
      block.until === first.until &&
      block.reason === first.reason,
  )
    ? first
    : null;
}
