// The 429 the browser gets when a call is held back: problem+json with Retry-After and the
// RateLimit-Policy / RateLimit fields of draft-ietf-httpapi-ratelimit-headers, so a client can
// see which quota is spent and when it has room again.
import { PROBLEM_TYPES, type Problem } from '../../shared/problem';
import { HttpProblem } from '../http/problem';
import { rateLimitField, rateLimitPolicyField } from '../http/rate-limit-fields';
import type { GovernedLimit, Refusal } from './governor';

/**
 * `RateLimit-Policy`: one Structured Fields list member per limit,
 * `"<policy>";q=<quota>;w=<window seconds>`.
 */
export function rateLimitPolicyHeader(limits: readonly GovernedLimit[]): string {
  return rateLimitPolicyField(
    limits.map(({ policyId, limit }) => ({
      id: policyId,
      quota: limit.limit,
      windowSeconds: windowSeconds(limit.period),
    })),
  );
}

/** `RateLimit` for a spent policy: no requests remain, room again in `seconds`. */
export const rateLimitHeader = rateLimitField;

function windowSeconds(period: 'MINUTE' | 'HOUR'): number {
  return period === 'MINUTE' ? 60 : 3_600;
}

/** The limit a block stands for: its rule's limit of its period, else the first that applies. */
function blockedPolicy(refusal: Refusal): GovernedLimit | undefined {
  const block = refusal.block;
  return (
    refusal.limits.find(
      (limit) =>
        (block?.ruleId === null || limit.rule.id === block?.ruleId) &&
        (block?.period === null || limit.limit.period === block?.period),
    ) ?? refusal.limits[0]
  );
}

/** The headers of a held-back call. */
export function refusalHeaders(refusal: Refusal): Record<string, string> {
  const seconds = refusal.retryAfterSeconds;
  const headers: Record<string, string> = { 'Retry-After': String(seconds) };
  if (refusal.limits.length > 0)
    headers['RateLimit-Policy'] = rateLimitPolicyHeader(refusal.limits);
  const spent = refusal.refusing ?? blockedPolicy(refusal);
  if (spent) headers.RateLimit = rateLimitHeader(spent.policyId, seconds);
  return headers;
}

/**
 * The problem for a call the governor did not send. While an upstream block runs, the incident
 * it belongs to is named, so support can quote it.
 */
export function refusalProblem(refusal: Refusal): HttpProblem {
  const seconds = refusal.retryAfterSeconds;
  const problem: Problem =
    refusal.reason === 'blocked'
      ? {
          type: PROBLEM_TYPES.rateLimited,
          title: 'The privacy platform has blocked these requests for a while',
          status: 429,
          detail:
            refusal.block?.scope === 'account'
              ? `The platform blocked the account after a rate limit was exceeded. The console sends nothing until the block ends in ${seconds} seconds.`
              : `The platform blocked this kind of request after its quota was exceeded. The console sends none until the block ends in ${seconds} seconds.`,
          retryAfterSeconds: seconds,
          ...(refusal.block?.incidentKey ? { incidentId: refusal.block.incidentKey } : {}),
          ...(refusal.block?.ruleId ? { ruleId: refusal.block.ruleId } : {}),
          limitedBy: 'upstream-block',
        }
      : {
          type: PROBLEM_TYPES.rateLimited,
          title: 'The console is holding requests back to stay within the platform’s limits',
          status: 429,
          detail: `Sending now would exceed “${refusal.refusing?.rule.name ?? 'a limit'}” (${refusal.refusing?.limit.limit.toLocaleString('en-US')} per ${refusal.refusing?.limit.period.toLowerCase()}). Try again in ${seconds} seconds.`,
          retryAfterSeconds: seconds,
          ...(refusal.refusing ? { ruleId: refusal.refusing.rule.id } : {}),
          limitedBy: 'console',
        };
  return new HttpProblem(problem, refusalHeaders(refusal));
}
