// OAuth 2.0 client-credentials tokens for every upstream call: cached until shortly before they
// expire, fetched once for any number of concurrent callers, never cached when the fetch failed,
// and renewed on demand when the upstream rejects one (the behaviour of
// Duende.AccessTokenManagement, which no maintained Node library gets right for a BFF). After a
// failure the console backs off (token-backoff.ts): callers meanwhile get the same diagnosis at
// once. The form goes out as the vendor document declares it, unless configured otherwise
// (token-request.ts); a 415 makes the console try the other encoding once and keep it.
import type { SettingNames } from '../config/connection-settings';
import * as z from 'zod/mini';
import { HttpProblem } from '../http/problem';
import { TransportError, type Transport, type TransportResponse } from './http-transport';
import { tokenBackoffMs } from './token-backoff';
import {
  MAX_TOKEN_ANSWER_BYTES,
  TokenError,
  cleanDescription,
  cleanErrorCode,
  transportFailureFacts,
  type TokenFailureFacts,
  type TokenFailureReason,
} from './token-failure';
import { encodeTokenForm, otherEncoding, type TokenEncoding } from './token-request';

export { TokenError } from './token-failure';

export interface TokenManagerOptions {
  /**
   * How failures name the connection's settings for the administrator (default: the
   * single-connection variables).
   */
  settingNames?: SettingNames;
  tokenUrl: URL;
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes to request; unset sends no `scope` field (the vendor document has none). */
  scope?: string;
  clientAuth: 'body' | 'basic';
  /** How the form is encoded first (`OAUTH_TOKEN_ENCODING`); the other is tried once on a 415. */
  encoding?: TokenEncoding;
  /** Lifetime to assume when the answer has no `expires_in` (the upstream does not show one). */
  defaultTtlSeconds: number;
  transport: Transport;
  /** The transport's whole-call deadline, named in the timeout diagnosis. */
  timeoutMs?: number;
  now?: () => number;
  /** The backoff's jitter, in [0, 1) (default Math.random). */
  random?: () => number;
  /** Called after every token request the console tried to send, for metrics and the log. */
  onTokenRequest?: (event: TokenRequestEvent) => void;
}

/** One token request as the log and the metrics see it: never the secret or the token. */
export interface TokenRequestEvent {
  readonly outcome: 'success' | 'failure';
  readonly encoding: TokenEncoding;
  readonly status?: number;
  readonly reason?: TokenFailureReason;
  readonly oauthError?: string;
  /** Set when this answer made the console switch encodings: the one it had used until now. */
  readonly switchedFrom?: TokenEncoding;
  /** After the last failure of a round: how long until the console asks again. */
  readonly retryInMs?: number;
}

/**
 * A token the console can send: visible ASCII only (RFC 6750's b64token and any JWT fit), at most
 * 8 KB so the Authorization header stays within what servers accept. A token with CR/LF or other
 * controls would be refused by the HTTP client on every call, and a huge one answered 431: both
 * are refused when they arrive rather than cached for their whole life.
 */
const USABLE_TOKEN = /^[\x21-\x7e]{1,8192}$/;

/** The shortest time a token is cached, whatever its `expires_in` says: no token per call. */
const MIN_TOKEN_CACHE_SECONDS = 30;

// Extra fields (the vendor's answer carries a dozen: email, guid, jti, ot-scopes, …) are ignored.
const TokenAnswerSchema = z.object({
  access_token: z.string().check(z.minLength(1)),
  token_type: z.optional(z.string()),
  expires_in: z.optional(z.union([z.number(), z.string()])),
});

interface CachedToken {
  value: string;
  /** When we stop using it: some margin before the upstream's expiry. */
  refreshAt: number;
}

/** Seconds before expiry at which a token is renewed: 60 s, or a tenth of short lifetimes. */
function refreshMarginMs(ttlSeconds: number): number {
  return Math.min(60, ttlSeconds / 10) * 1000;
}

/** One request's result: a token and its lifetime, or what went wrong. */
type Attempt =
  | { readonly ok: true; readonly value: string; readonly ttlSeconds: number | undefined }
  | { readonly ok: false; readonly facts: TokenFailureFacts };

/**
 * Whether a refusal says the body's encoding was the problem: a 415, or an RFC 6749 server's
 * 400 `invalid_request` that names the content type (as oidc-provider's does). Only then is the
 * other encoding worth one more request.
 */
function refusedEncoding(facts: TokenFailureFacts): boolean {
  if (facts.status === 415) return true;
  return (
    facts.status === 400 &&
    facts.oauthError === 'invalid_request' &&
    /content.?type|urlencoded|multipart|form-data/i.test(facts.oauthErrorDescription ?? '')
  );
}

/** Holds the BFF's one access token. Safe for any number of concurrent callers. */
export class TokenManager {
  readonly #options: TokenManagerOptions;
  readonly #now: () => number;
  readonly #random: () => number;
  #cached: CachedToken | undefined;
  #inFlight: Promise<string> | undefined;
  /** The encoding the endpoint last took (starts as configured). */
  #encoding: TokenEncoding;
  /** Failed rounds in a row, and the last one's error (cleared by a token). */
  #failures = 0;
  #lastError: TokenError | undefined;

  constructor(options: TokenManagerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
    this.#encoding = options.encoding ?? 'multipart';
  }

  /**
   * A valid access token: the cached one, or one fetched for all callers waiting now. While the
   * console backs off after a failure, callers get that failure at once, without a request.
   */
  getToken(): Promise<string> {
    const cached = this.#cached;
    if (cached && this.#now() < cached.refreshAt) return Promise.resolve(cached.value);
    if (this.#inFlight) return this.#inFlight;
    const failed = this.#lastError;
    if (failed?.retryAt !== undefined && this.#now() < failed.retryAt) {
      return Promise.reject(failed);
    }
    this.#inFlight = this.#fetchToken().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  /** Why the last round failed, while no token has been had since (for the health banner). */
  lastFailure(): TokenError | undefined {
    return this.#lastError;
  }

  /** The encoding the next token request uses. */
  get encoding(): TokenEncoding {
    return this.#encoding;
  }

  /**
   * Forgets `rejectedToken` after the upstream answered 401 to it. Only that token is dropped:
   * if a concurrent caller already replaced it, the newer token is kept, so a burst of 401s
   * causes one renewal, not one per request.
   */
  invalidate(rejectedToken: string): void {
    if (this.#cached?.value === rejectedToken) this.#cached = undefined;
  }

  async #fetchToken(): Promise<string> {
    const first = this.#encoding;
    let result = await this.#attempt(first);
    const events: TokenRequestEvent[] = [eventOf(result, first)];
    let encodings: TokenEncoding[] = [first];
    if (!result.ok && refusedEncoding(result.facts)) {
      // The endpoint does not take this encoding: try the other once, and keep whichever it took.
      const second = otherEncoding(first);
      const retry = await this.#attempt(second);
      const refusedToo = !retry.ok && retry.facts.status === 415;
      if (!refusedToo) this.#encoding = second;
      events.push({ ...eventOf(retry, second), ...(refusedToo ? {} : { switchedFrom: first }) });
      encodings = [first, second];
      result =
        refusedToo && result.facts.status === 415
          ? { ok: false, facts: { ...retry.facts, reason: 'unsupported-encoding', encodings } }
          : retry;
    }
    if (result.ok) {
      events.forEach((event) => this.#options.onTokenRequest?.(event));
      this.#failures = 0;
      this.#lastError = undefined;
      const ttlSeconds = result.ttlSeconds ?? this.#options.defaultTtlSeconds;
      const lifetimeMs = Math.max(
        ttlSeconds * 1000 - refreshMarginMs(ttlSeconds),
        MIN_TOKEN_CACHE_SECONDS * 1000,
      );
      this.#cached = { value: result.value, refreshAt: this.#now() + lifetimeMs };
      return result.value;
    }
    const error = new TokenError({ ...result.facts, encodings }, this.#options.settingNames);
    // A request the governor held back never reached the endpoint: its block decides when the
    // next one goes, not this backoff.
    if (error.reason !== 'held-back') {
      this.#failures += 1;
      const waitMs = tokenBackoffMs(this.#failures, this.#random);
      error.retryAt = this.#now() + waitMs;
      events[events.length - 1] = { ...events[events.length - 1]!, retryInMs: waitMs };
    }
    events.forEach((event) => this.#options.onTokenRequest?.(event));
    this.#lastError = error;
    throw error;
  }

  /** Sends one token request in `encoding` and reads its answer. */
  async #attempt(encoding: TokenEncoding): Promise<Attempt> {
    const { tokenUrl, clientId, clientSecret, scope, clientAuth, transport } = this.#options;
    const fields: [string, string][] = [['grant_type', 'client_credentials']];
    if (scope) fields.push(['scope', scope]);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (clientAuth === 'basic') {
      // RFC 6749 §2.3.1: form-urlencode each part before base64.
      const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    } else {
      fields.push(['client_id', clientId], ['client_secret', clientSecret]);
    }
    const form = encodeTokenForm(fields, encoding);
    headers['content-type'] = form.contentType;
    const base = { host: tokenUrl.host, encodings: [encoding] };
    let response: TransportResponse;
    try {
      response = await transport({
        method: 'POST',
        url: tokenUrl,
        headers,
        body: form.body,
        maxAnswerBytes: MAX_TOKEN_ANSWER_BYTES,
      });
    } catch (error) {
      if (error instanceof TransportError) {
        const facts = transportFailureFacts(error);
        return {
          ok: false,
          facts: {
            ...base,
            ...facts,
            ...(facts.reason === 'timeout' && this.#options.timeoutMs
              ? { timeoutMs: this.#options.timeoutMs }
              : {}),
          },
        };
      }
      if (error instanceof HttpProblem && error.problem.status === 429) {
        return { ok: false, facts: { ...base, reason: 'held-back' } };
      }
      return { ok: false, facts: { ...base, reason: 'unreachable' } };
    }
    return readAnswer(response, base, clientSecret);
  }
}

function eventOf(result: Attempt, encoding: TokenEncoding): TokenRequestEvent {
  if (result.ok) return { outcome: 'success', encoding, status: 200 };
  const { status, reason, oauthError } = result.facts;
  return {
    outcome: 'failure',
    encoding,
    reason,
    ...(status === undefined ? {} : { status }),
    ...(oauthError ? { oauthError } : {}),
  };
}

function header(response: TransportResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads a token answer: the token, or the precise reason it is not one. */
function readAnswer(
  response: TransportResponse,
  base: Pick<TokenFailureFacts, 'host' | 'encodings'>,
  secret: string,
): Attempt {
  const { status } = response;
  const json = safeJson(response.body);
  const fail = (reason: TokenFailureReason, extra: Partial<TokenFailureFacts> = {}): Attempt => ({
    ok: false,
    facts: { ...base, reason, status, ...extra },
  });
  if (status !== 200) {
    const body = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
    const oauthError = cleanErrorCode(body.error);
    const oauthErrorDescription = cleanDescription(body.error_description, secret);
    const said = {
      ...(oauthError ? { oauthError } : {}),
      ...(oauthErrorDescription ? { oauthErrorDescription } : {}),
    };
    if (status === 415) return fail('unsupported-encoding', said);
    if (status === 429) return fail('rate-limited', said);
    const credentials =
      status === 401 ||
      status === 403 ||
      oauthError === 'invalid_client' ||
      oauthError === 'unauthorized_client';
    if (credentials) return fail('credentials-refused', said);
    if (status === 400) return fail('request-refused', said);
    return fail('endpoint-error', said);
  }
  if (json === undefined) {
    return fail('not-json', {
      contentType: (header(response, 'content-type') ?? 'no Content-Type').slice(0, 80),
      bytes: Buffer.byteLength(response.body),
    });
  }
  const answer = TokenAnswerSchema.safeParse(json);
  if (!answer.success) return fail('unexpected-shape', { detail: 'without an access_token' });
  if (!USABLE_TOKEN.test(answer.data.access_token)) {
    return fail('unexpected-shape', {
      detail: 'with an access token the console cannot send (control characters or over 8 KB)',
    });
  }
  return {
    ok: true,
    value: answer.data.access_token,
    ttlSeconds: parseTtl(answer.data.expires_in),
  };
}

function parseTtl(expiresIn: number | string | undefined): number | undefined {
  const seconds = typeof expiresIn === 'string' ? Number(expiresIn) : expiresIn;
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
