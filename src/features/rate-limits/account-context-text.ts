// The account-wide part of "Copy for support": what the rate-limits page's account-wide card shows
// (each limit's requests as the account's clients reported them, the blocks running now), in
// words for the vendor's support engineer, who sees the account's total and not our clients.
import { formatCount } from '../../lib/format';
import type { AccountOverview } from '../../shared/integrations';
import type { BlockState } from '../../shared/limit-state';
import { blockedLabel } from '../../shared/limit-state';
import { limitName } from '../../shared/rate-limits';
import { utcText } from '../../shared/utc-text';

/** What the page knows account-wide; either part may still be loading. */
export interface AccountContext {
  readonly overview?: AccountOverview | undefined;
  /** The blocks running now, as the rate-limit usage describes them. */
  readonly blocks?: readonly BlockState[] | undefined;
}

/** "Account minute limit: 1,234 reported of 20,000 (this console 1,000; Nightly sync 234) …". */
function limitLine(limit: AccountOverview['limits'][number]): string {
  const sources = [
    { name: 'this console', used: limit.console },
    ...limit.integrations.filter((entry) => entry.used > 0),
  ];
  const counted =
    limit.unreported === null
      ? 'requests of clients that do not report are unknown'
      : `the platform counted ${formatCount(limit.reported + limit.unreported)} at its last 429`;
  return `  ${limitName(limit.ruleId, limit.period)}: ${formatCount(limit.reported)} of ${formatCount(limit.limit)} (${sources
    .map((source) => `${source.name} ${formatCount(source.used)}`)
    .join('; ')}); ${counted}`;
}

/** "Blocked by the platform: Account minute limit, until 2026-… UTC. Why." */
function blockLine(block: BlockState): string {
  return `  ${blockedLabel(block)}, until ${utcText(block.until)}. ${block.reason}`;
}

/** The lines, headed; "not loaded" for a part the page had not received yet. */
export function accountContextLines({ overview, blocks }: AccountContext): string[] {
  return [
    'Blocks running when this was copied:',
    ...(blocks === undefined
      ? ['  (not loaded)']
      : blocks.length === 0
        ? ['  none']
        : blocks.map(blockLine)),
    overview
      ? `Account-wide use at ${utcText(overview.now)}: requests in each limit's current window, as this console and the account's reporting integrations counted them:`
      : 'Account-wide use:',
    ...(overview ? overview.limits.map(limitLine) : ['  (not loaded)']),
  ];
}
