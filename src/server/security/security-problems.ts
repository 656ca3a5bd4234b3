// Problem types for requests the BFF refuses at its edge (before any route), and the baseline
// security headers for the few answers written outside Hono (malformed requests on the socket).
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPES, type Problem } from '../../shared/problem';
import { NO_STORE } from '../http/no-store';

/** The edge's problem types (a view of PROBLEM_TYPES). */
export const SECURITY_PROBLEM_TYPES = {
  crossOrigin: PROBLEM_TYPES.crossOrigin,
  invalidRequestTarget: PROBLEM_TYPES.invalidRequestTarget,
  methodNotAllowed: PROBLEM_TYPES.methodNotAllowed,
  payloadTooLarge: PROBLEM_TYPES.payloadTooLarge,
  headersTooLarge: PROBLEM_TYPES.headersTooLarge,
  unsupportedMediaType: PROBLEM_TYPES.unsupportedMediaType,
  badRequest: PROBLEM_TYPES.badRequest,
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
  ...NO_STORE,
};

/** A problem document as a standalone Response, for answers produced outside the Hono app. */
export function standaloneProblemResponse(problem: Problem): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { ...BASELINE_SECURITY_HEADERS, 'Content-Type': PROBLEM_CONTENT_TYPE },
  });
}
