// Reads one connection's card of the rate-limit overview from what the console already holds: its
// governor's windows and blocks, its governor's mode, and the last known failure of its token
// request. Nothing is sent to the platform, so the overview stays cheap to poll, and a connection
// whose windows cannot be read (its Redis slot away) gets a card saying so instead of failing
// the others.
import type {
  ConnectionOverview,
  OverviewLimit,
  PlatformState,
} from '../../shared/connection-overview';
import type { ConnectionColour } from '../../shared/connections';
import type { AccountTier } from '../../shared/rate-limits';
import type { Governor } from '../governor/governor';
import { withinDeadline } from '../runtime/within-deadline';
import type { TokenError, TokenFailureReason } from '../upstream/token-failure';

/** What the overview reads of one connection (compose.ts fills it in from the connection's stack). */
export interface OverviewSource {
  readonly name: string;
  readonly label: string;
  readonly colour: ConnectionColour;
  readonly tier: AccountTier;
  readonly governor: Pick<Governor, 'usage' | 'blockStates'>;
  /** Which windows decide (scale-out.ts `mode`). */
  readonly governorMode: () => ConnectionOverview['governor'];
  /** The last token failure while no token has been had since (token-manager.ts `lastFailure`). */
  readonly lastTokenFailure: () => TokenError | undefined;
}

/**
 * How long one connection's windows may take: a Redis slot that hangs must not hold the whole
 * overview (the governor itself falls back after its own deadline; this is the page's bound).
 */
export const OVERVIEW_READ_TIMEOUT_MS = 1_500;

/**
 * The platform's state as a token failure says it. A 429 on the token request, or the governor
 * holding it back, is a block the card shows already: the platform answers.
 */
function platformState(reason: TokenFailureReason): PlatformState {
  if (reason === 'credentials-refused') return 'credential-refused';
  if (reason === 'held-back' || reason === 'rate-limited') return 'answering';
  return 'unreachable';
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The card of `source` now; `unreadable` hears why its limits could not be read (the log). */
export async function readConnectionOverview(
  source: OverviewSource,
  unreadable: (error: unknown) => void,
): Promise<ConnectionOverview> {
  const failure = source.lastTokenFailure();
  const state = failure ? platformState(failure.reason) : 'answering';
  const card = {
    name: source.name,
    label: source.label,
    colour: source.colour,
    tier: source.tier,
    platform: state === 'answering' || !failure ? { state } : { state, title: failure.title },
    governor: source.governorMode(),
    // The blocks are this replica's memory: they read even when the windows do not.
    blocks: source.governor.blockStates(),
  };
  try {
    const usage = await withinDeadline(source.governor.usage(), OVERVIEW_READ_TIMEOUT_MS, () => {
      throw new Error('the limits did not answer in time');
    });
    const limits = usage.map((limit): OverviewLimit => ({
      ruleId: limit.ruleId,
      period: limit.period,
      limit: limit.limit,
      windowSeconds: limit.windowSeconds,
      used: limit.used,
      remaining: Math.max(0, limit.limit - limit.used),
      resetsAt: iso(limit.resetsAt),
      enforced: limit.enforced,
      ...(limit.endpoint === undefined ? {} : { endpoint: limit.endpoint }),
    }));
    return { ...card, limits };
  } catch (error) {
    // The cause (a Redis error with its address) is the operator's, in the log and on /readyz.
    unreadable(error);
    return {
      ...card,
      limits: null,
      problem:
        'The limits of this connection could not be read just now; its own page may say more.',
    };
  }
}
