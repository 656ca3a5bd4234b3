// Reads a 429's RateLimit-Policy and RateLimit fields with an independent Structured Fields parser
// (the structured-headers package, RFC 8941), so the shape every 429 of the console must carry is
// checked by another implementation than the one that writes it.
import { parseItem, parseList } from 'structured-headers';
import { expect } from 'vitest';

/** Asserts `response` is a 429 with Retry-After and well-formed RateLimit fields that agree. */
export function expectRateLimitFields(response: Response): {
  policies: Array<{ id: string; quota: number; windowSeconds: number }>;
  spent: string;
} {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  const policyField = response.headers.get('ratelimit-policy');
  const field = response.headers.get('ratelimit');
  expect(policyField, 'RateLimit-Policy').not.toBeNull();
  expect(field, 'RateLimit').not.toBeNull();
  const policies = parseList(policyField!).map(([id, params]) => {
    expect(typeof id).toBe('string');
    const quota = params.get('q');
    const windowSeconds = params.get('w');
    expect(Number.isInteger(quota) && Number.isInteger(windowSeconds)).toBe(true);
    return { id: id as string, quota: quota as number, windowSeconds: windowSeconds as number };
  });
  const [spent, params] = parseItem(field!);
  expect(policies.map((policy) => policy.id)).toContain(spent);
  expect(params.get('r')).toBe(0);
  expect(params.get('t')).toBe(retryAfter);
  return { policies, spent: spent as string };
}
