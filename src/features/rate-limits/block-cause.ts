// What the console-wide block notice says happened: who refused what, and what the console chose to
// do about it. "The platform has blocked this account" was true only for the account limits; after
// a 429 the console could not place (an unknown limit, a 429 without headers) the platform had
// refused one call to one endpoint and the console paused the account itself, as a precaution.
import type { ActiveBlock, Incident, Rule } from '../../shared/incident';
import { limitName } from '../../shared/rate-limits';
import { formatCount } from '../../lib/format';

export interface BlockCause {
  /** The first, bold sentence. */
  readonly headline: string;
  /** What the console does until the block ends; the countdown follows its last words. */
  readonly action: string;
}

/**
 * The notice's words for an account block. `incident` (when loaded) names the call; `operations`
 * maps the console's operation ids to the platform's method and path.
 */
export function blockCause(
  block: Pick<ActiveBlock, 'ruleId'>,
  rule: Pick<Rule, 'id' | 'blocks'> | undefined,
  incident: Incident | undefined,
  operations: Readonly<Record<string, string>> | undefined,
): BlockCause {
  const request = incident
    ? (operations?.[incident.operation] ?? `the console's ${incident.operation} call`)
    : undefined;
  const call = request ? `one call (${request})` : 'one call';
  if (block.ruleId !== null && rule?.blocks === 'account') {
    const name = limitName(block.ruleId, incident?.period ?? undefined);
    return {
      headline: `The privacy platform has blocked this account: the ${name} was used up.`,
      action:
        'As its published limits say, the platform refuses every request of the account until the block ends; the console sends none until then, so the block is not extended. It ends in',
    };
  }
  const stated =
    incident?.requestsAllowed != null && incident.period !== null
      ? ` (it stated ${formatCount(incident.requestsAllowed)} a ${incident.period.toLowerCase()})`
      : incident && incident.requestsAllowed === null && incident.period === null
        ? ' (without rate-limit headers)'
        : '';
  return {
    headline: `The privacy platform refused ${call} with a 429 under a limit this console does not know${stated}.`,
    action:
      'The platform has not blocked the account: as a precaution, this console has paused every request of the account. It resumes in',
  };
}
