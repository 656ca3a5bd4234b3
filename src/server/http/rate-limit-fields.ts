// The RateLimit-Policy and RateLimit fields of draft-ietf-httpapi-ratelimit-headers, written the
// same way on every 429 the console gives: its governor's (the platform's limits it keeps), the
// sign-in throttle's and the integration reports' per-key limit. A client reads one format
// whichever of the console's limits it met.

/** One quota: a name, so many requests, per a window of so many seconds. */
export interface QuotaPolicy {
  readonly id: string;
  readonly quota: number;
  readonly windowSeconds: number;
}

/** `RateLimit-Policy`: one Structured Fields list member per policy, `"<id>";q=<quota>;w=<s>`. */
export function rateLimitPolicyField(policies: readonly QuotaPolicy[]): string {
  return policies
    .map(({ id, quota, windowSeconds }) => `"${id}";q=${quota};w=${windowSeconds}`)
    .join(', ');
}

/** `RateLimit` for a spent policy: no requests remain, room again in `seconds`. */
export function rateLimitField(policyId: string, seconds: number): string {
  return `"${policyId}";r=0;t=${seconds}`;
}

/** Retry-After, RateLimit-Policy (every policy that applies) and RateLimit (the spent one). */
export function quotaRefusalHeaders(
  policies: readonly QuotaPolicy[],
  spent: QuotaPolicy,
  retryAfterSeconds: number,
): Record<string, string> {
  return {
    'Retry-After': String(retryAfterSeconds),
    'RateLimit-Policy': rateLimitPolicyField(policies),
    RateLimit: rateLimitField(spent.id, retryAfterSeconds),
  };
}
