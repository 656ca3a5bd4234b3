// RFC 9457 problem details as the BFF sends them and the SPA reads them.
import * as z from 'zod/mini';

/**
 * Every problem type the console answers with, in one registry: the BFF's routes and edge, and
 * the SPA that switches on them. The `type` member is a relative URI reference
 * (`/problems/<slug>`) that never changes once published; clients switch on it, people read
 * `title` and `detail`. Each entry notes the status it is sent with. Titles are not kept here:
 * they are worded for the situation where the problem is raised (one type, e.g. an invalid
 * parameter, reads differently on a sign-in form and in an audit search). Narrower views of this
 * registry (SESSION_PROBLEM_TYPES, DATA_SUBJECT_PROBLEM_TYPES, ALERT_PROBLEM_TYPES,
 * SECURITY_PROBLEM_TYPES) only pick entries from it.
 */
export const PROBLEM_TYPES = {
  /** A query, path or body parameter is not acceptable; `parameter` names it (400). */
  invalidParameter: '/problems/invalid-parameter',
  /** No such resource or route (404). */
  notFound: '/problems/not-found',
  /** The upstream answered 400 (502). */
  upstreamBadRequest: '/problems/upstream-bad-request',
  /** The upstream refused the console's credentials (502). */
  upstreamUnauthorized: '/problems/upstream-unauthorized',
  /** The upstream answered 403: a scope is probably missing (502). */
  upstreamForbidden: '/problems/upstream-forbidden',
  /** The upstream answered another failure (502). */
  upstreamError: '/problems/upstream-error',
  /** The upstream or its token endpoint could not be reached or broke off (502/503). */
  upstreamUnavailable: '/problems/upstream-unavailable',
  /** The upstream did not answer in time (504). */
  upstreamTimeout: '/problems/upstream-timeout',
  /** The upstream's answer was not the documented shape or too large (502). */
  upstreamInvalidResponse: '/problems/upstream-invalid-response',
  /** The upstream, or the console's governor ahead of it, holds requests back (429). */
  rateLimited: '/problems/rate-limited',
  /** A state-changing request came without the `X-CSRF: 1` header (403). */
  csrfMissing: '/problems/csrf-missing',
  /** Something failed inside the console; the detail says nothing more (500). */
  internal: '/problems/internal',
  /**
   * The console's own store cannot be used for the moment: its database (incidents, audit trail,
   * alerts), or Redis where replicas share sessions (503).
   */
  storeUnavailable: '/problems/store-unavailable',
  /** The request conflicts with the resource's state: a name taken, work not finished (409). */
  conflict: '/problems/conflict',
  /** A what-if replay asked for a period in which no request was recorded (422). */
  noRecordedTraffic: '/problems/no-recorded-traffic',
  /**
   * As many what-if replays run as the replica allows; see `retryAfterSeconds` (429). The same
   * request is never refused: it joins the one running.
   */
  replayBusy: '/problems/replay-busy',
  /** More audit records match than one export may hold (413). */
  exportTooLarge: '/problems/export-too-large',
  /** The console holds as many live streams open as it allows; the platform is not involved (503). */
  tooManyStreams: '/problems/too-many-streams',
  /**
   * The console is fetching as many distinct lists from the platform as it allows at once, and
   * this one found no turn; the platform is not involved (503).
   */
  consoleBusy: '/problems/console-busy',

  /** No valid session: signed out, expired, or a cookie that is not ours (401). */
  signedOut: '/problems/signed-out',
  /** Wrong username or password; deliberately does not say which (401). */
  signInFailed: '/problems/sign-in-failed',
  /** Too many failed sign-ins for this user or address; see `retryAfterSeconds` (429). */
  signInThrottled: '/problems/sign-in-throttled',
  /** Signed in, but the role may not use this part of the console (403). */
  forbidden: '/problems/forbidden',
  /**
   * A data-subject lookup needs a more recent sign-in at the identity provider
   * (PERSONAL_DATA_MAX_AUTH_AGE_MINUTES); `signInUrl` starts it (401). The session stays.
   */
  reauthenticationRequired: '/problems/reauthentication-required',

  /** The platform said, in its documented not-found answer, that it has no such record (404). */
  dataSubjectNotFound: '/problems/data-subject-not-found',
  /**
   * The platform answered 404 without its documented not-found answer: it does not know the path
   * asked for, so the console's configuration (base URL or catalog) is wrong (502).
   */
  dataSubjectOperationUnavailable: '/problems/data-subject-operation-unavailable',
  /** The lookup could not be written to the audit trail, so its answer was withheld (503). */
  auditUnavailable: '/problems/audit-unavailable',

  /** An alert destination URL the console may not call: scheme, address, credentials (400). */
  alertDestinationRefused: '/problems/alert-destination-refused',
  /** An integration's report came without a valid integration key (401). */
  integrationUnauthorized: '/problems/integration-unauthorized',
  /** GET /metrics without the metrics token (401). */
  metricsUnauthorized: '/problems/metrics-unauthorized',
  /** GET /metrics from an address that may not scrape it (403). */
  metricsForbidden: '/problems/metrics-forbidden',

  /** A cross-origin or cross-site request to the API (403). */
  crossOrigin: '/problems/cross-origin',
  /** A request target that is not a plain origin-form path (400). */
  invalidRequestTarget: '/problems/invalid-request-target',
  /** A method the path does not take, or CONNECT (405). */
  methodNotAllowed: '/problems/method-not-allowed',
  /** A body above the size limit (413). */
  payloadTooLarge: '/problems/payload-too-large',
  /** Request headers above 16 KB in all (431). */
  headersTooLarge: '/problems/headers-too-large',
  /** A body in a media type the route does not take (415). */
  unsupportedMediaType: '/problems/unsupported-media-type',
  /** A request that could not be read as HTTP/1.1, or arrived too slowly (400/408). */
  badRequest: '/problems/bad-request',
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
  /**
   * The console's diagnosis of why it could not reach or sign in to the platform (`tls`,
   * `credentials-refused`, `unsupported-encoding`, …); `title` and `detail` are then written for
   * that cause and are what an administrator should read.
   */
  cause: z.optional(z.string()),
  /** The token endpoint's RFC 6749 `error` code, when it gave one. */
  oauthError: z.optional(z.string()),
  /**
   * `reauthentication-required`: where to send the browser to sign in again (a console path; the
   * page adds `returnTo`).
   */
  signInUrl: z.optional(z.string()),
});
export type Problem = z.infer<typeof ProblemSchema>;
