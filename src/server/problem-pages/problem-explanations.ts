// What each problem type means for the person who meets it: what happened and what to do. The
// `/problems/<slug>` pages and docs/problems.md are both made from this one table; a type added to
// PROBLEM_TYPES without an entry here does not compile.
import { PROBLEM_TYPES } from '../../shared/problem';

/** One problem type, explained. */
export interface ProblemExplanation {
  /** A short name for the situation. */
  readonly title: string;
  /** The HTTP status (or statuses) it is sent with. */
  readonly status: string;
  /** What happened, in plain words. */
  readonly happened: string;
  /** What to do about it. */
  readonly todo: string;
}

const OPERATOR_LOG =
  'The console operator finds the cause in the console’s log (by the X-Request-Id of the answer) and on /readyz.';

/** Every problem type, explained; keyed like PROBLEM_TYPES. */
export const PROBLEM_EXPLANATIONS: Record<keyof typeof PROBLEM_TYPES, ProblemExplanation> = {
  invalidParameter: {
    title: 'Invalid parameter',
    status: '400',
    happened:
      'A query, path or body parameter was missing, unknown or not acceptable. The `parameter` member names it and `detail` says what is expected. Nothing was sent to the platform.',
    todo: 'Correct the named parameter and send the request again. The API description (/api/openapi.json) lists every parameter and its rules.',
  },
  notFound: {
    title: 'Not found',
    status: '404',
    happened:
      'There is no such API route, or the resource it names (a destination, an integration, an export) does not exist or no longer exists.',
    todo: 'Check the address against /api/openapi.json, or reload the page: someone may have removed the resource.',
  },
  upstreamBadRequest: {
    title: 'The platform refused the request',
    status: '502',
    happened:
      'The privacy platform answered 400 Bad Request to a call the console made for you. The console checks parameters before it sends, so the platform expects something the console does not know about.',
    todo: 'Try other values. If it persists, tell the console operator: the console may need updating for a change on the platform.',
  },
  upstreamUnauthorized: {
    title: 'The platform refused the console’s credentials',
    status: '502',
    happened:
      'The platform or its token service did not accept the console’s OAuth client credentials, even after a fresh token.',
    todo: `Nothing on your side. The operator checks the connection’s client id and secret (OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET, or its entry in CONNECTIONS_FILE) and the client’s status on the platform. ${OPERATOR_LOG}`,
  },
  upstreamForbidden: {
    title: 'The platform refused access',
    status: '502',
    happened:
      'The platform answered 403 Forbidden: the console’s OAuth client is probably missing a scope this call needs.',
    todo: 'The operator grants the scope to the client on the platform and lists it in OAUTH_SCOPE.',
  },
  upstreamError: {
    title: 'The platform failed',
    status: '502',
    happened:
      'The platform answered with an error status the console has no more specific explanation for (often a 5xx). `upstreamStatus` holds the status.',
    todo: 'Try again in a moment. If it persists, the platform is having trouble; check its status page.',
  },
  upstreamUnavailable: {
    title: 'The platform cannot be reached',
    status: '502, 503',
    happened:
      'The console could not reach the platform or its token service, or the connection broke off before an answer arrived.',
    todo: `Try again in a moment. ${OPERATOR_LOG}`,
  },
  upstreamTimeout: {
    title: 'The platform did not answer in time',
    status: '504',
    happened:
      'The platform did not answer within the console’s deadline (UPSTREAM_TIMEOUT_MS). The call was abandoned.',
    todo: 'Try again; a narrower request (fewer filters, a smaller page) may answer faster.',
  },
  upstreamInvalidResponse: {
    title: 'The platform’s answer could not be used',
    status: '502',
    happened:
      'The platform answered, but not in the documented shape, not as JSON, or larger than the console accepts. Nothing of it was passed on.',
    todo: `Try again. If it persists, tell the console operator: the platform may have changed. ${OPERATOR_LOG}`,
  },
  rateLimited: {
    title: 'Rate limited',
    status: '429',
    happened:
      'The platform, or the console’s governor keeping the platform’s limits ahead of it, holds requests back. `retryAfterSeconds` (and the Retry-After header) say for how long; `incidentId` names the platform’s 429 when there was one.',
    todo: 'Wait the given time, then try again. The Rate limits page shows which limit and who used it.',
  },
  csrfMissing: {
    title: 'X-CSRF header missing',
    status: '403',
    happened:
      'A request to the API came without the header `X-CSRF: 1`. Every API call needs it (except signing in and the live stream), so that no other website can act in your name.',
    todo: 'Scripts send `X-CSRF: 1` with every request. In the browser, reload the console.',
  },
  internal: {
    title: 'Internal error',
    status: '500',
    happened:
      'Something failed inside the console server. The error was logged; the answer says nothing more on purpose.',
    todo: `Try again. If it persists, tell the console operator with the time and the X-Request-Id of the answer. ${OPERATOR_LOG}`,
  },
  storeUnavailable: {
    title: 'The console’s store is unavailable',
    status: '503',
    happened:
      'The console’s own store could not be used: its database (incidents, audit trail, alerts) or Redis, where replicas share sessions. Nothing was read or recorded.',
    todo: `Try again later. ${OPERATOR_LOG}`,
  },
  conflict: {
    title: 'Conflict',
    status: '409',
    happened:
      'The request does not fit the resource’s present state: a name that is already taken, an alert still on its way, an export not yet read to its end.',
    todo: 'Read `detail`: choose another name, or wait until the work has finished, then try again.',
  },
  noRecordedTraffic: {
    title: 'No recorded traffic to replay',
    status: '422',
    happened:
      'A what-if replay was asked for a period in which neither the console nor any reporting integration recorded a request. An empty replay would look like "no breaches", so the console answers this instead.',
    todo: 'Choose a longer period, or wait until integrations have reported (the Integrations page shows when each last did).',
  },
  replayBusy: {
    title: 'A replay is already running',
    status: '429',
    happened:
      'Each console replica runs at most a few what-if replays at once (REPLAY_CONCURRENCY, 2 by default), so replays cannot slow down everything else the console does. This one would have been one too many, and was not started. The platform is not involved.',
    todo: 'Try again after the time in `Retry-After` (the form keeps what you entered). Asking for the very same replay while it runs is never refused: it waits for that one’s result.',
  },
  exportTooLarge: {
    title: 'The export is too large',
    status: '413',
    happened:
      'More audit records match than one export may hold (AUDIT_EXPORT_MAX_RECORDS). Nothing was exported.',
    todo: 'Narrow the time range or the filters and export in parts.',
  },
  tooManyStreams: {
    title: 'Too many live streams',
    status: '503',
    happened:
      'The console already holds as many live update streams open as it allows, for this server, your user or this browser. The platform is not involved and works as usual.',
    todo: 'Close console tabs you do not need. Open pages retry by themselves (Retry-After) and keep working without live updates meanwhile.',
  },
  consoleBusy: {
    title: 'The console is busy fetching lists',
    status: '503',
    happened:
      'Many different event-type lists (other filters) were asked for at once. The console fetches a few from the platform at a time, since each may be a large answer held in memory, and queues a bounded number more; this request found the queue full, or waited for its turn past the configured timeout (UPSTREAM_TIMEOUT_MS). The platform is not involved. Where the console has an earlier list for the same filters, it answers with that list, marked stale, instead.',
    todo: 'Try again after the Retry-After seconds. A script that walks many filters should ask for a few lists at a time, or ask for the whole list once and filter it itself.',
  },
  signedOut: {
    title: 'Signed out',
    status: '401',
    happened:
      'The request carried no valid session: you signed out, the session expired, or the cookie is not one this console issued.',
    todo: 'Sign in again (POST /api/session with your username and password, or the sign-in page).',
  },
  signInFailed: {
    title: 'Sign-in failed',
    status: '401',
    happened:
      'The username or the password was wrong. The answer does not say which, so that nobody can find out which names exist.',
    todo: 'Check both and try again; names are not case-sensitive, passwords are. Repeated failures pause signing in for a while.',
  },
  signInThrottled: {
    title: 'Sign-in paused',
    status: '429',
    happened:
      'Too many failed sign-ins for this user or from this address. Signing in is paused for the time `retryAfterSeconds` gives.',
    todo: 'Wait, then sign in with the right password. Ask a console administrator if you forgot it.',
  },
  reauthenticationRequired: {
    title: 'Sign in again to look someone up',
    status: '401',
    happened:
      'Looking up personal data needs a recent sign-in at the identity provider (PERSONAL_DATA_MAX_AUTH_AGE_MINUTES), and yours is older. Your session goes on; nothing was looked up or recorded.',
    todo: 'Follow `signInUrl` (the console page does so by itself and brings you back to the lookup), sign in at the identity provider again, then repeat the lookup.',
  },
  forbidden: {
    title: 'Not available for your role',
    status: '403',
    happened:
      'You are signed in, but your role may not use this part of the console (personal data and administration are for admins).',
    todo: 'Ask a console administrator if you need it.',
  },
  dataSubjectNotFound: {
    title: 'No such data subject',
    status: '404',
    happened:
      'The platform answered, in its documented not-found answer, that it holds no record for this identifier.',
    todo: 'Check the identifier (spelling, the right kind of identifier for the operation). The lookup is in the audit trail.',
  },
  dataSubjectOperationUnavailable: {
    title: 'The platform does not know this operation',
    status: '502',
    happened:
      'The platform answered 404 without its documented not-found answer: it does not know the path the console called, so the console’s base URL or operations catalog is wrong.',
    todo: 'The operator checks UPSTREAM_BASE_URL and DATA_SUBJECT_OPERATIONS_FILE.',
  },
  auditUnavailable: {
    title: 'The audit trail cannot be written',
    status: '503',
    happened:
      'Every lookup of personal data is recorded before its answer is shown. The record could not be written, so the answer was withheld.',
    todo: `Try again later. ${OPERATOR_LOG}`,
  },
  alertDestinationRefused: {
    title: 'Alert destination refused',
    status: '400',
    happened:
      'The console will not send alerts to this URL: it is not https://, carries credentials, or points at a private, loopback or link-local address.',
    todo: 'Use a public https:// address. For an internal receiver the operator sets ALERT_ALLOW_PRIVATE=true.',
  },
  integrationUnauthorized: {
    title: 'Reporting key missing or not valid',
    status: '401',
    happened:
      'An integration’s report came without a reporting key, or with one that is unknown, rotated or revoked.',
    todo: 'Send the key as `Authorization: Bearer <key>`. An admin issues or rotates keys on the Integrations page.',
  },
  metricsUnauthorized: {
    title: 'Metrics need the scraper’s token',
    status: '401',
    happened: 'GET /metrics came without the bearer token the operator configured (METRICS_TOKEN).',
    todo: 'Configure the scraper with `Authorization: Bearer` and the value of METRICS_TOKEN.',
  },
  metricsForbidden: {
    title: 'Metrics are served to this machine only',
    status: '403',
    happened:
      'Without METRICS_TOKEN, only direct requests from the console’s own machine (loopback, not through a proxy) may read /metrics.',
    todo: 'Scrape from the same machine, or set METRICS_TOKEN and send it as a bearer token.',
  },
  crossOrigin: {
    title: 'Cross-origin request refused',
    status: '403',
    happened:
      'The request came from another website (its Origin or Sec-Fetch-Site said so). The console’s API only answers its own pages.',
    todo: 'Call the API from the console’s origin, or from a script that sends no Origin header.',
  },
  invalidRequestTarget: {
    title: 'Not a plain request path',
    status: '400',
    happened:
      'The request target was not a plain path: an absolute URL, `//host`, dot segments, encoded slashes or backslashes.',
    todo: 'Send a plain path such as /api/event-types.',
  },
  methodNotAllowed: {
    title: 'Method not allowed',
    status: '405',
    happened:
      'The path exists, but not for this method. The Allow header lists the methods it takes.',
    todo: 'Use one of the methods in Allow (see /api/openapi.json).',
  },
  payloadTooLarge: {
    title: 'Request body too large',
    status: '413',
    happened:
      'The request body was larger than the console accepts (64 KB, or a report’s entry limits).',
    todo: 'Send less: smaller batches, shorter values.',
  },
  headersTooLarge: {
    title: 'Request headers too large',
    status: '431',
    happened:
      'The request’s headers were larger than 16 KB in all, often because of many or large cookies.',
    todo: 'Clear this site’s cookies in the browser, or send fewer headers.',
  },
  unsupportedMediaType: {
    title: 'Unsupported media type',
    status: '415',
    happened:
      'The body came in a media type this route does not take: signing in and integration reports take JSON only.',
    todo: 'Send `Content-Type: application/json` with a JSON body.',
  },
  badRequest: {
    title: 'Malformed request',
    status: '400, 408',
    happened:
      'The request could not be read as HTTP/1.1 (a malformed request line or header, a bad Host), or it arrived too slowly.',
    todo: 'Check the client or proxy that sent it; plain HTTP clients never meet this.',
  },
};

/** The slug of a problem type URI (`/problems/signed-out` -> `signed-out`). */
export function slugOf(type: string): string {
  return type.slice('/problems/'.length);
}

/** Every problem type with its URI and explanation, in PROBLEM_TYPES order. */
export function explainedProblemTypes(): {
  type: string;
  slug: string;
  explanation: ProblemExplanation;
}[] {
  return (Object.keys(PROBLEM_TYPES) as (keyof typeof PROBLEM_TYPES)[]).map((key) => ({
    type: PROBLEM_TYPES[key],
    slug: slugOf(PROBLEM_TYPES[key]),
    explanation: PROBLEM_EXPLANATIONS[key],
  }));
}
