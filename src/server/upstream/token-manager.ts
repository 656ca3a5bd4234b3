// OAuth 2.0 client-credentials tokens for every upstream call: cached until shortly before they
// expire, fetched once for any number of concurrent callers, never cached when the fetch failed,
// and renewed on demand when the upstream rejects one (the behaviour of
// Duende.AccessTokenManagement, which no maintained Node library gets right for a BFF).
import * as z from 'zod/mini';
import type { Transport } from './http-transport';

export interface TokenManagerOptions {
  tokenUrl: URL;
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes to request; unset sends no `scope` field (the vendor document has none). */
  scope?: string;
  clientAuth: 'body' | 'basic';
  /** Lifetime to assume when the answer has no `expires_in` (the upstream does not show one). */
  defaultTtlSeconds: number;
  transport: Transport;
  now?: () => number;
  /** Counts token requests, for metrics. */
  onTokenRequest?: (outcome: 'success' | 'failure') => void;
}

/** Why no token could be had. The message is safe to show: it never carries a secret. */
export class TokenError extends Error {
  /** `rejected`: the token endpoint refused us; `unavailable`: it gave no usable answer. */
  readonly kind: 'rejected' | 'unavailable';
  readonly upstreamStatus: number | undefined;
  constructor(kind: 'rejected' | 'unavailable', message: string, upstreamStatus?: number) {
    super(message);
    this.name = 'TokenError';
    this.kind = kind;
    this.upstreamStatus = upstreamStatus;
  }
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

/** Holds the BFF's one access token. Safe for any number of concurrent callers. */
export class TokenManager {
  readonly #options: TokenManagerOptions;
  readonly #now: () => number;
  #cached: CachedToken | undefined;
  #inFlight: Promise<string> | undefined;

  constructor(options: TokenManagerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** A valid access token: the cached one, or one fetched for all callers waiting now. */
  getToken(): Promise<string> {
    const cached = this.#cached;
    if (cached && this.#now() < cached.refreshAt) return Promise.resolve(cached.value);
    this.#inFlight ??= this.#fetchToken().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
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
    const { tokenUrl, clientId, clientSecret, scope, clientAuth, transport } = this.#options;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) form.set('scope', scope);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (clientAuth === 'basic') {
      // RFC 6749 §2.3.1: form-urlencode each part before base64.
      const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    } else {
      form.set('client_id', clientId);
      form.set('client_secret', clientSecret);
    }

    let response;
    try {
      response = await transport({ method: 'POST', url: tokenUrl, headers, body: form.toString() });
    } catch {
      this.#options.onTokenRequest?.('failure');
      throw new TokenError('unavailable', 'The token endpoint could not be reached');
    }
    if (response.status !== 200) {
      this.#options.onTokenRequest?.('failure');
      const rejected =
        response.status === 400 || response.status === 401 || response.status === 403;
      throw new TokenError(
        rejected ? 'rejected' : 'unavailable',
        rejected
          ? 'The token endpoint rejected the console’s client credentials or scope'
          : `The token endpoint answered ${response.status}`,
        response.status,
      );
    }
    const answer = TokenAnswerSchema.safeParse(safeJson(response.body));
    if (!answer.success) {
      this.#options.onTokenRequest?.('failure');
      throw new TokenError('unavailable', 'The token endpoint answered without an access token');
    }
    const value = answer.data.access_token;
    if (!USABLE_TOKEN.test(value)) {
      this.#options.onTokenRequest?.('failure');
      throw new TokenError(
        'unavailable',
        'The token endpoint answered with an access token the console cannot send (control characters or over 8 KB)',
      );
    }
    this.#options.onTokenRequest?.('success');
    const ttlSeconds = parseTtl(answer.data.expires_in) ?? this.#options.defaultTtlSeconds;
    const lifetimeMs = Math.max(
      ttlSeconds * 1000 - refreshMarginMs(ttlSeconds),
      MIN_TOKEN_CACHE_SECONDS * 1000,
    );
    this.#cached = { value, refreshAt: this.#now() + lifetimeMs };
    return value;
  }
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
