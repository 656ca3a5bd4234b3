// RFC 9457 problem details as the BFF sends them and the SPA reads them.
import * as z from 'zod/mini';

/**
 * The stable problem types of the console. The `type` member is a relative URI reference
 * (`/problems/<slug>`) that never changes once published; clients switch on it, people read
 * `title` and `detail`.
 */
export const PROBLEM_TYPES = {
  invalidParameter: '/problems/invalid-parameter',
  notFound: '/problems/not-found',
  upstreamBadRequest: '/problems/upstream-bad-request',
  upstreamUnauthorized: '/problems/upstream-unauthorized',
  upstreamForbidden: '/problems/upstream-forbidden',
  upstreamError: '/problems/upstream-error',
  upstreamUnavailable: '/problems/upstream-unavailable',
  upstreamTimeout: '/problems/upstream-timeout',
  upstreamInvalidResponse: '/problems/upstream-invalid-response',
  rateLimited: '/problems/rate-limited',
  csrfMissing: '/problems/csrf-missing',
  internal: '/problems/internal',
  /** A store the console shares between replicas (Redis) cannot be reached for the moment. */
  storeUnavailable: '/problems/store-unavailable',
} as const;
export type ProblemType = (typeof PROBLEM_TYPES)[keyof typeof PROBLEM_TYPES];

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** A problem+json body. Extension members are optional and only ever hold non-secret values. */
export const ProblemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.int(),
  detail: z.optional(z.string()),
  /** The query or body parameter at fault, for `invalid-parameter`. */
  parameter: z.optional(z.string()),
  /** Seconds until the upstream (or the console's governor) lets requests through again. */
  retryAfterSeconds: z.optional(z.int()),
  /** The upstream's `ot-ratelimit-event-id`, when a 429 carried one. */
  incidentId: z.optional(z.string()),
  /** The HTTP status the upstream answered with, for `upstream-*` problems. */
  upstreamStatus: z.optional(z.int()),
});
export type Problem = z.infer<typeof ProblemSchema>;
