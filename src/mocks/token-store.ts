// Access tokens the mock has issued, with their expiry and scopes, read against the injectable
// clock so a test can expire a token by moving time instead of waiting for it.

/** One issued access token. */
export interface IssuedToken {
  readonly accessToken: string;
  readonly scopes: readonly string[];
  /** Epoch milliseconds on the mock's clock at which the token stops being accepted. */
  readonly expiresAt: number;
}

/** Why a presented token is refused, or the token itself when it is accepted. */
export type TokenCheck =
  | { readonly ok: true; readonly token: IssuedToken }
  | { readonly ok: false; readonly reason: 'unknown' | 'expired' };

/** Issued tokens, looked up by their opaque value. */
export interface TokenStore {
  issue(scopes: readonly string[], ttlSeconds: number): IssuedToken;
  check(accessToken: string): TokenCheck;
  /** How many tokens are held (expired ones are swept lazily). */
  readonly size: number;
  clear(): void;
}

// Expired tokens are swept only when the map has doubled since the last sweep: issue() stays O(1)
// amortised, and a long benchmark that keeps renewing tokens cannot grow the map without bound.
const MIN_SWEEP_SIZE = 1_000;

/** Creates an empty store reading time from `now` (epoch milliseconds). */
export function createTokenStore(now: () => number): TokenStore {
  const tokens = new Map<string, IssuedToken>();
  let sweepAt = MIN_SWEEP_SIZE;

  function sweep(): void {
    const at = now();
    for (const [value, token] of tokens) if (token.expiresAt <= at) tokens.delete(value);
    sweepAt = Math.max(MIN_SWEEP_SIZE, tokens.size * 2);
  }

  return {
    issue(scopes, ttlSeconds) {
      if (tokens.size >= sweepAt) sweep();
      const token: IssuedToken = {
        accessToken: opaqueToken(),
        scopes: [...scopes],
        expiresAt: now() + ttlSeconds * 1_000,
      };
      tokens.set(token.accessToken, token);
      return token;
    },
    check(accessToken) {
      const token = tokens.get(accessToken);
      if (!token) return { ok: false, reason: 'unknown' };
      if (token.expiresAt <= now()) return { ok: false, reason: 'expired' };
      return { ok: true, token };
    },
    get size() {
      return tokens.size;
    },
    clear() {
      tokens.clear();
      sweepAt = MIN_SWEEP_SIZE;
    },
  };
}

// 32 random bytes, base64url: opaque, unguessable, and safe in an Authorization header.
function opaqueToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
