// The governor's hooks around every upstream call, API operations and token requests alike:
// before sending, take from the limits (or refuse with a 429 of our own); after a 429, honour its
// block at once, record the incident, and answer the browser with the incident's id. The 429
// handling is this area's; the governor (infrastructure) only admits, refuses and keeps blocks,
// and never calls back into the incidents.
//
// The path of one upstream 429:
// 1. The transport returns the platform's answer; the upstream client hands it to this guard
//    (afterAnswer; a token request's answer comes through guardTokenTransport).
// 2. The guard reads the rate-limit headers (read-rate-limit-headers.ts): scope, rule, period,
//    how long to wait, any limit the platform stated.
// 3. It tells the governor the 429 (noteThrottled): the timeline counts it, and the governor's
//    `upstream-429` event carries what was read.
// 4. It places the incident (IncidentRecorder.place): the incident's key and when its block ends.
// 5. It tells the governor the block (Governor.block): calls already waiting are refused from now
//    on; the governor's `block-started` event tells the other replicas (governor/shared-blocks.ts).
// 6. A limit the platform stated that no configured rule has is kept (noteReportedLimit).
// 7. It records the incident (IncidentRecorder.record): the store writes it, and the hub hands it
//    to this replica's live streams (incident-stream.ts), through the incident feed when
//    PostgreSQL orders every replica's changes (incident-feed.ts).
// 8. It throws the 429 problem naming the incident; the route answers the browser with it.
import { PROBLEM_TYPES } from '../../shared/problem';
import { endpointKey, type RateLimitRule } from '../../shared/rate-limits';
import type { IncidentRecorder } from './incident-recorder';
import { readRateLimitHeaders } from './read-rate-limit-headers';
import { HttpProblem } from '../http/problem';
import type { Transport, TransportResponse } from '../upstream/http-transport';
import type { GovernorGuard } from '../upstream/send-guard';
import { TokenError } from '../upstream/token-manager';
import type { GovernedOperation, Governor } from '../governor/governor';
import {
  rateLimitHeader,
  rateLimitPolicyHeader,
  refusalProblem,
} from '../governor/rate-limit-answer';

export interface UpstreamGuardOptions {
  readonly governor: Governor;
  readonly recorder: IncidentRecorder;
  readonly now: () => number;
  /** The token endpoint as an operation: it counts toward the account limits too. */
  readonly tokenOperation: GovernedOperation;
  readonly moduleRules?: readonly RateLimitRule[];
}

/** Creates the guard over a governor and an incident recorder. */
export function createUpstreamGuard(options: UpstreamGuardOptions): GovernorGuard {
  const { governor, recorder, now } = options;

  async function handle429(operation: GovernedOperation, response: TransportResponse) {
    const reading = readRateLimitHeaders(response.headers, {
      now: now(),
      tier: governor.tier,
      operation,
      rules: governor.rules(),
    });
    governor.noteThrottled({
      operation,
      scope: reading.scope,
      ruleId: reading.rule?.id ?? null,
      period: reading.period,
      retryAfterSeconds: reading.blockSeconds,
    });
    const placement = recorder.place(reading);
    // Honour the block before the store answers: calls already waiting must not go out.
    governor.block({
      scope: reading.scope,
      ruleId: reading.rule?.id ?? null,
      period: reading.period,
      until: placement.blockedUntil,
      incidentKey: placement.key,
      stated: {
        requestsAllowed: reading.requestsAllowed,
        request: `${operation.method} ${operation.path}`,
      },
      // A per-endpoint rule's 429 stops only the endpoint that drew it.
      ...(reading.rule?.scope === 'endpoint'
        ? { endpoint: endpointKey(operation.method, operation.path) }
        : {}),
    });
    // Figures no rule of this call has: the platform is stating the limit in force. Keep the
    // stricter of it and the configured one from now on, so this call does not draw it again.
    if (!reading.rule && reading.period !== null && reading.requestsAllowed !== null) {
      governor.noteReportedLimit(operation, reading.period, reading.requestsAllowed, placement.key);
    }
    await recorder.record(reading, operation.id, placement);

    // The wait as the upstream gave it (bounded), counted from receipt: the store write in
    // between is the console's time, not the browser's.
    const seconds = reading.blockSeconds;
    const headers: Record<string, string> = { 'Retry-After': String(seconds) };
    const limits = governor.limitsOf(operation);
    if (limits.length > 0) headers['RateLimit-Policy'] = rateLimitPolicyHeader(limits);
    const spent = reading.rule
      ? governor.findLimit(reading.rule.id, reading.period, operation)
      : undefined;
    if (spent) headers.RateLimit = rateLimitHeader(spent.policyId, seconds);
    return new HttpProblem(
      {
        type: PROBLEM_TYPES.rateLimited,
        title:
          reading.scope === 'account'
            ? 'The privacy platform is rate limiting this account'
            : 'The privacy platform’s quota for this kind of request is used up',
        status: 429,
        detail: `The platform answered 429 Too Many Requests. The console sends ${
          reading.scope === 'account' ? 'nothing' : 'none of these requests'
        } for ${seconds} seconds.`,
        upstreamStatus: 429,
        retryAfterSeconds: seconds,
        incidentId: placement.key,
        ...(reading.rule ? { ruleId: reading.rule.id } : {}),
        limitedBy: 'upstream',
      },
      headers,
    );
  }

  return {
    async beforeSend(operation) {
      const refusal = await governor.acquire(operation);
      if (refusal) throw refusalProblem(refusal);
    },
    async afterAnswer(operation, response) {
      if (response.status === 429) throw await handle429(operation, response);
    },
    async explainFailure(error) {
      if (!(error instanceof TokenError)) return undefined;
      const refusal = await governor.check(options.tokenOperation);
      return refusal ? refusalProblem(refusal) : undefined;
    },
    handle429,
  };
}

/**
 * Wraps the token manager's transport so token requests take from the account limits and their
 * 429s are honoured and recorded like any other. The token manager turns a refusal into a
 * TokenError; the upstream client asks the guard to explain it.
 */
export function guardTokenTransport(
  transport: Transport,
  guard: GovernorGuard,
  operation: GovernedOperation,
): Transport {
  return async (request) => {
    await guard.beforeSend(operation);
    const response = await transport(request);
    if (response.status === 429) await guard.handle429(operation, response);
    return response;
  };
}
