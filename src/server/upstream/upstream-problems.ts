// Turns what went wrong upstream into the problem the browser sees: a plain-language title, a
// stable type, and never an upstream body, header or token.
import { PROBLEM_TYPES, type Problem } from '../../shared/problem';
import { parseRetryAfter } from '../../shared/retry-after';
import { HttpProblem } from '../http/problem';
import { TransportError, type TransportResponse } from './http-transport';
import { TOKEN_BACKOFF } from './token-backoff';
import { TokenError, type TokenFailureReason } from './token-failure';

function header(response: TransportResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The problem for a non-success upstream answer. Upstream failures are 502s to the browser (the
 * console's own request was fine), except 429, which the browser must see as a rate limit.
 */
export function problemForUpstreamAnswer(response: TransportResponse, nowMs: number): HttpProblem {
  const status = response.status;
  if (status === 429) {
    const retryAfterSeconds = parseRetryAfter(header(response, 'retry-after'), nowMs);
    const incidentId = header(response, 'ot-ratelimit-event-id');
    const problem: Problem = {
      type: PROBLEM_TYPES.rateLimited,
      title: 'The privacy platform is rate limiting this account',
      status: 429,
      detail:
        retryAfterSeconds === undefined
          ? 'The platform did not say when to retry; wait a minute before trying again.'
          : `Requests are allowed again in ${retryAfterSeconds} seconds.`,
      upstreamStatus: 429,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
      ...(incidentId && /^[\w-]{1,64}$/.test(incidentId) ? { incidentId } : {}),
    };
    return new HttpProblem(
      problem,
      retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
    );
  }
  const known: Record<number, [Problem['type'], string, string]> = {
    400: [
      PROBLEM_TYPES.upstreamBadRequest,
      'The privacy platform rejected the request',
      'The platform answered 400 Bad Request. Check the filters; if they look right, the platform may not support them.',
    ],
    401: [
      PROBLEM_TYPES.upstreamUnauthorized,
      'The privacy platform did not accept the console’s credentials',
      'The platform answered 401 Unauthorized even with a fresh access token. An administrator should check the connection’s client id and secret (OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET, or its entry in CONNECTIONS_FILE).',
    ],
    403: [
      PROBLEM_TYPES.upstreamForbidden,
      'The console is not allowed to use this part of the privacy platform',
      'The platform answered 403 Forbidden. The console’s API client probably lacks a scope (OAUTH_SCOPE, or the connection’s scope in CONNECTIONS_FILE); an administrator can grant it.',
    ],
  };
  const [type, title, detail] = known[status] ?? [
    PROBLEM_TYPES.upstreamError,
    'The privacy platform had a problem answering',
    `The platform answered ${status}. This is usually temporary: try again in a moment.`,
  ];
  return new HttpProblem({ type, title, status: 502, detail, upstreamStatus: status });
}

/** The problem for an answer that arrived but is not the documented shape. */
export function invalidUpstreamAnswerProblem(): HttpProblem {
  return new HttpProblem({
    type: PROBLEM_TYPES.upstreamInvalidResponse,
    title: 'The privacy platform answered in an unexpected format',
    status: 502,
    detail: 'The answer did not match the documented shape, so the console did not use it.',
  });
}

/** The problem type and browser status for each reason a token could not be had. */
const TOKEN_PROBLEMS: Record<TokenFailureReason, [Problem['type'], number]> = {
  unreachable: [PROBLEM_TYPES.upstreamUnavailable, 503],
  tls: [PROBLEM_TYPES.upstreamUnavailable, 503],
  timeout: [PROBLEM_TYPES.upstreamTimeout, 504],
  closed: [PROBLEM_TYPES.upstreamUnavailable, 502],
  'credentials-refused': [PROBLEM_TYPES.upstreamUnauthorized, 502],
  'request-refused': [PROBLEM_TYPES.upstreamBadRequest, 502],
  'unsupported-encoding': [PROBLEM_TYPES.upstreamBadRequest, 502],
  'too-large': [PROBLEM_TYPES.upstreamInvalidResponse, 502],
  'malformed-http': [PROBLEM_TYPES.upstreamInvalidResponse, 502],
  'not-json': [PROBLEM_TYPES.upstreamInvalidResponse, 502],
  'unexpected-shape': [PROBLEM_TYPES.upstreamInvalidResponse, 502],
  'endpoint-error': [PROBLEM_TYPES.upstreamError, 502],
  'rate-limited': [PROBLEM_TYPES.upstreamUnavailable, 503],
  'held-back': [PROBLEM_TYPES.upstreamUnavailable, 503],
};

/**
 * The problem for no access token: the diagnosis's own title and detail, its reason as `cause`,
 * the endpoint's OAuth `error` when it gave one, and while the console backs off, when it asks
 * again (`retryAfterSeconds`).
 */
export function tokenFailureProblem(error: TokenError, nowMs: number): HttpProblem {
  const [type, status] = TOKEN_PROBLEMS[error.reason];
  const retryAfterSeconds =
    error.retryAt === undefined
      ? undefined
      : Math.min(
          TOKEN_BACKOFF.capMs / 1000,
          Math.max(1, Math.ceil((error.retryAt - nowMs) / 1000)),
        );
  return new HttpProblem(
    {
      type,
      title: error.title,
      status,
      detail: error.detail,
      cause: error.reason,
      ...(error.upstreamStatus === undefined ? {} : { upstreamStatus: error.upstreamStatus }),
      ...(error.facts.oauthError ? { oauthError: error.facts.oauthError } : {}),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    },
    retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
  );
}

/** The problem for a failure before any upstream answer: no token, timeout, unreachable. */
export function problemForUpstreamFailure(
  error: unknown,
  nowMs: number = Date.now(),
): HttpProblem | undefined {
  if (error instanceof TokenError) return tokenFailureProblem(error, nowMs);
  if (error instanceof TransportError) return problemForTransportFailure(error);
  return undefined;
}

/** Bytes as an operator reads them: "16 MB", "512 KB". */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

function problemForTransportFailure(error: TransportError): HttpProblem {
  switch (error.kind) {
    case 'timeout':
      return new HttpProblem({
        type: PROBLEM_TYPES.upstreamTimeout,
        title: 'The privacy platform took too long to answer',
        status: 504,
        detail:
          'The request was abandoned after the configured timeout (UPSTREAM_TIMEOUT_MS, or the connection’s timeoutMs in CONNECTIONS_FILE), waiting for a connection included.',
      });
    case 'closed':
      return new HttpProblem({
        type: PROBLEM_TYPES.upstreamUnavailable,
        title: 'The privacy platform broke off its answer',
        status: 502,
        detail: `The platform closed the connection before its answer was complete${error.reason ? ` (${error.reason}: the connection broke, or the Content-Length was wrong)` : ''}. This is usually temporary: try again in a moment.`,
      });
    case 'too-large': {
      const limit = error.limitBytes ?? 0;
      return new HttpProblem({
        type: PROBLEM_TYPES.upstreamInvalidResponse,
        title: 'The privacy platform’s answer was too large',
        status: 502,
        detail: `The answer was larger than the console accepts for this operation (${formatBytes(limit)}), so it was not read. An administrator can raise the limit (UPSTREAM_MAX_ANSWER_BYTES, or the connection’s maxAnswerBytes in CONNECTIONS_FILE).`,
        limitBytes: limit,
      });
    }
    case 'unreachable':
      return new HttpProblem({
        type: PROBLEM_TYPES.upstreamUnavailable,
        title: 'The privacy platform could not be reached',
        status: 503,
        detail: `The connection failed${error.reason ? ` (${error.reason})` : ''}. Check the network or the connection’s address (UPSTREAM_BASE_URL, or its baseUrl in CONNECTIONS_FILE) and try again.`,
        cause: 'unreachable',
      });
    case 'tls':
      return new HttpProblem({
        type: PROBLEM_TYPES.upstreamUnavailable,
        title: 'The TLS connection to the privacy platform failed',
        status: 503,
        detail: `The TLS handshake failed (${error.reason ?? 'no code'}): a certificate the console does not trust, a host name it does not cover, or an address that does not speak TLS. Check the connection’s address (UPSTREAM_BASE_URL, or its baseUrl in CONNECTIONS_FILE); a proxy that intercepts TLS needs its certificate authority in NODE_EXTRA_CA_CERTS.`,
        cause: 'tls',
      });
    case 'malformed':
      return new HttpProblem({
        type: PROBLEM_TYPES.upstreamInvalidResponse,
        title: 'The privacy platform answered with broken HTTP',
        status: 502,
        detail: `The answer broke HTTP/1.1's rules (${error.reason ?? 'unreadable'}), so it was not used. A proxy or load balancer in between is the usual cause.`,
        cause: 'malformed-http',
      });
  }
}
