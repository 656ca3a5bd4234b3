// Problem types for requests the BFF refuses at its edge (before any route), and the baseline
// security headers for the few answers written outside Hono (malformed requests on the socket).
import { PROBLEM_CONTENT_TYPE, type Problem } from '../../shared/problem';

/** Stable `type` members of the edge's problems. */
export const SECURITY_PROBLEM_TYPES = {
  crossOrigin: '/problems/cross-origin',
  invalidRequestTarget: '/problems/invalid-request-target',
  methodNotAllowed: '/problems/method-not-allowed',
  payloadTooLarge: '/problems/payload-too-large',
  headersTooLarge: '/problems/headers-too-large',
  unsupportedMediaType: '/problems/unsupported-media-type',
  badRequest: '/problems/bad-request',
} as const;

/**
 * The headers every answer carries even when Hono never saw the request: nothing in a problem
 * document may run, be framed, be sniffed as HTML or leak a referrer.
 */
export const BASELINE_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

/** A problem document as a standalone Response, for answers produced outside the Hono app. */
export function standaloneProblemResponse(problem: Problem): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { ...BASELINE_SECURITY_HEADERS, 'Content-Type': PROBLEM_CONTENT_TYPE },
  });
}
