// Why no access token could be had, in words an administrator can act on. One reason per thing
// that really went wrong, so a refused secret, an encoding the endpoint does not take and a broken
// proxy never read alike. The same text reaches the problem the browser gets, the log line,
// /readyz and the health banner (docs/operations.md, "Token failures"). Nothing here ever holds
// the client secret or a token.
import { TOKEN_OPERATION } from '../../shared/platform-operations';
import { VARIABLE_NAMES, type SettingNames } from '../config/connection-settings';
import type { TransportError } from './http-transport';
import { TOKEN_ENCODING_MEDIA_TYPE, type TokenEncoding } from './token-request';

/** Every reason a token request can fail for. */
export const TOKEN_FAILURE_REASONS = [
  'unreachable',
  'tls',
  'timeout',
  'closed',
  'credentials-refused',
  'request-refused',
  'unsupported-encoding',
  'too-large',
  'malformed-http',
  'not-json',
  'unexpected-shape',
  'endpoint-error',
  'rate-limited',
  'held-back',
] as const;
export type TokenFailureReason = (typeof TOKEN_FAILURE_REASONS)[number];

/** What is known about one failure; every field is safe to log and show. */
export interface TokenFailureFacts {
  readonly reason: TokenFailureReason;
  /** The token endpoint's host, e.g. `app.example.com` (never its query). */
  readonly host: string;
  /** The encoding(s) the failing request(s) used. */
  readonly encodings: readonly TokenEncoding[];
  /** The HTTP status, when an answer arrived. */
  readonly status?: number;
  /** RFC 6749 §5.2 `error`, when the answer had one. */
  readonly oauthError?: string;
  /** RFC 6749 §5.2 `error_description`, cleaned (see cleanDescription). */
  readonly oauthErrorDescription?: string;
  /** The transport's precise reason: an error code or the HTTP parser's complaint. */
  readonly detail?: string;
  /** The answer's Content-Type, for answers that were not JSON. */
  readonly contentType?: string;
  /** Bytes, for answers too large or not JSON. */
  readonly bytes?: number;
  /** For timeouts: the configured whole-call deadline. */
  readonly timeoutMs?: number;
}

/** Why no token could be had. `message` is `title` and `detail` together, safe to show. */
export class TokenError extends Error {
  readonly reason: TokenFailureReason;
  readonly title: string;
  readonly detail: string;
  readonly facts: TokenFailureFacts;
  /** The HTTP status the token endpoint answered, when it answered. */
  readonly upstreamStatus: number | undefined;
  /** When the console asks the token endpoint again (ms since the epoch), if it backs off. */
  retryAt: number | undefined;
  /** `names`: how the connection's settings are named to the administrator (its variables). */
  constructor(facts: TokenFailureFacts, names: SettingNames = VARIABLE_NAMES) {
    const { title, detail } = describeTokenFailure(facts, names);
    super(`${title}. ${detail}`);
    this.name = 'TokenError';
    this.reason = facts.reason;
    this.title = title;
    this.detail = detail;
    this.facts = facts;
    this.upstreamStatus = facts.status;
  }
}

const ENDPOINT = 'The platform’s token endpoint';

/** Where to look when the endpoint's address may be wrong. */
const checkUrl = (names: SettingNames) =>
  `Check ${names.of('tokenUrl')} (default {${names.bare('baseUrl')}}${TOKEN_OPERATION.path})`;

function quoted(facts: TokenFailureFacts): string {
  const code = facts.oauthError ? ` ${facts.oauthError}` : '';
  const description = facts.oauthErrorDescription ? `: “${facts.oauthErrorDescription}”` : '';
  return `It answered ${facts.status ?? '?'}${code}${description}.`;
}

/**
 * The administrator's title and detail for one failure, naming the settings to check as they were
 * given (`names`: the variables, or the connection's entry in CONNECTIONS_FILE).
 */
export function describeTokenFailure(
  facts: TokenFailureFacts,
  names: SettingNames = VARIABLE_NAMES,
): { title: string; detail: string } {
  const { host } = facts;
  const checkAt = checkUrl(names);
  switch (facts.reason) {
    case 'unreachable':
      return {
        title: `${ENDPOINT} could not be reached`,
        detail: `No connection to ${host}${facts.detail ? ` (${facts.detail})` : ''}. Check the host name, DNS, firewall and proxy. ${checkAt}.`,
      };
    case 'tls':
      return {
        title: `The TLS connection to ${ENDPOINT.charAt(0).toLowerCase()}${ENDPOINT.slice(1)} failed`,
        detail: `The TLS handshake with ${host} failed (${facts.detail ?? 'no code'}): a certificate the console does not trust, a host name it does not cover, or an address that does not speak TLS. ${checkAt}; a proxy that intercepts TLS needs its certificate authority in NODE_EXTRA_CA_CERTS.`,
      };
    case 'timeout':
      return {
        title: `${ENDPOINT} did not answer in time`,
        detail: `${host} sent no complete answer within ${names.of('timeoutMs')}${facts.timeoutMs ? ` (${facts.timeoutMs} ms)` : ''}. The platform or the network is slow; the console tries again with a growing delay.`,
      };
    case 'closed':
      return {
        title: `${ENDPOINT} broke off its answer`,
        detail: `${host} closed the connection before its answer was complete${facts.detail ? ` (${facts.detail})` : ''}: the connection broke, or the answer's Content-Length was wrong (a proxy rewriting the body is the usual cause). The console tries again with a growing delay.`,
      };
    case 'credentials-refused':
      return {
        title: `${ENDPOINT} refused the console’s client credentials`,
        detail: `${quoted(facts)} Check ${names.of('clientId', 'clientSecret')} against the credential on the platform (Global Settings, OAuth 2.0 client credentials): it may be wrong, expired or deleted.`,
      };
    case 'request-refused':
      return {
        title:
          facts.oauthError === 'invalid_scope'
            ? `${ENDPOINT} refused the requested scope`
            : `${ENDPOINT} refused the token request`,
        detail:
          facts.oauthError === 'invalid_scope'
            ? `${quoted(facts)} Check ${names.of('scope')}, or leave it unset: the platform's document sends no scope.`
            : `${quoted(facts)} The credentials were not the problem. The request was sent as ${TOKEN_ENCODING_MEDIA_TYPE[facts.encodings.at(-1) ?? 'multipart']}; if the endpoint expects the other form encoding, set ${names.of('tokenEncoding')}, and check ${names.of('clientAuth')}.`,
      };
    case 'unsupported-encoding':
      return {
        title: `${ENDPOINT} accepts neither form encoding`,
        detail: `It answered 415 Unsupported Media Type to ${facts.encodings.map((encoding) => TOKEN_ENCODING_MEDIA_TYPE[encoding]).join(' and to ')}. The credentials were never checked. ${checkAt}: the address may not be a token endpoint.`,
      };
    case 'too-large':
      return {
        title: `${ENDPOINT} sent an answer too large to read`,
        detail: `The answer was larger than the ${facts.bytes ?? '?'} bytes a token answer may have, so it was not read. ${checkAt}: the address may serve something else.`,
      };
    case 'malformed-http':
      return {
        title: `${ENDPOINT} answered with broken HTTP`,
        detail: `The answer from ${host} broke HTTP/1.1's rules (${facts.detail ?? 'unreadable'}), so it was not used. A proxy or load balancer in between is the usual cause.`,
      };
    case 'not-json':
      return {
        title: `${ENDPOINT} did not answer with JSON`,
        detail: `It answered ${facts.status ?? '?'} with ${facts.contentType ?? 'no Content-Type'} (${facts.bytes ?? 0} bytes) that is not JSON: often a proxy's or a sign-in page. ${checkAt}.`,
      };
    case 'unexpected-shape':
      return {
        title: `${ENDPOINT} answered without a usable access token`,
        detail: `It answered ${facts.status ?? 200} with JSON ${facts.detail ?? 'without access_token'}. ${checkAt}: the address may be another service.`,
      };
    case 'endpoint-error':
      return {
        title: `${ENDPOINT} answered ${facts.status ?? '?'}`,
        detail:
          facts.status !== undefined && facts.status >= 300 && facts.status < 400
            ? `It redirected, which the console does not follow for a request carrying a secret. ${checkAt}.`
            : facts.status === 404 || facts.status === 405
              ? `There is no token endpoint at that address. ${checkAt}.`
              : `The platform has trouble signing clients in${facts.oauthError ? ` (${facts.oauthError})` : ''}. This is usually temporary; the console tries again with a growing delay.`,
      };
    case 'rate-limited':
      return {
        title: `${ENDPOINT} is rate limiting token requests`,
        detail: 'It answered 429. The console waits as the platform asks before trying again.',
      };
    case 'held-back':
      return {
        title: 'The console is holding the token request back',
        detail:
          'The rate-limit governor is not sending requests to the platform for now; the token request goes out when the block ends.',
      };
  }
}

/** Bytes a token answer may have: a token is at most 8 KB, the vendor's answer a dozen fields. */
export const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

/**
 * The token endpoint's `error_description`, shown to administrators: printable text only, at
 * most 200 characters, and any occurrence of the client secret blanked out, in case an endpoint
 * echoes what it was sent.
 */
export function cleanDescription(value: unknown, secret: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  let text = value.replace(/[^\x20-\x7e\u00a0-\u024f]/g, ' ').trim();
  if (secret.length > 0) text = text.split(secret).join('[redacted]');
  if (text.length > 200) text = `${text.slice(0, 199)}…`;
  return text.length > 0 ? text : undefined;
}

/** RFC 6749 §5.2 error codes are `%x20-21 / %x23-5B / %x5D-7E`; anything else is dropped. */
export function cleanErrorCode(value: unknown): string | undefined {
  return typeof value === 'string' && /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(value)
    ? value
    : undefined;
}

/** The reason and facts for a transport failure. */
export function transportFailureFacts(
  error: TransportError,
): Pick<TokenFailureFacts, 'reason' | 'detail' | 'bytes'> {
  switch (error.kind) {
    case 'timeout':
      return { reason: 'timeout' };
    case 'unreachable':
      return { reason: 'unreachable', ...(error.reason ? { detail: error.reason } : {}) };
    case 'tls':
      return { reason: 'tls', ...(error.reason ? { detail: error.reason } : {}) };
    case 'closed':
      return { reason: 'closed', ...(error.reason ? { detail: error.reason } : {}) };
    case 'malformed':
      return { reason: 'malformed-http', ...(error.reason ? { detail: error.reason } : {}) };
    case 'too-large':
      return { reason: 'too-large', bytes: error.limitBytes ?? MAX_TOKEN_ANSWER_BYTES };
  }
}
