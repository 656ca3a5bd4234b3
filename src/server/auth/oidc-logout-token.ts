// OpenID Connect Back-Channel Logout 1.0, section 2.6: the checks of a logout token before any
// session ends. The signature is checked by jose against the provider's published keys; then the
// issuer, the audience, iat and exp, the back-channel logout event, sid or sub, no nonce, and a
// jti not seen before (by any replica: seen-tokens live where sessions live).
import * as jose from 'jose';
import type { SeenLogoutTokens } from './oidc-seen-tokens';

const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** A logout token older than this (by its iat) is refused, whatever its exp says. */
const MAX_TOKEN_AGE_SECONDS = 300;

/** The logout token was refused; the message says which check failed (never its contents). */
export class LogoutTokenError extends Error {
  override name = 'LogoutTokenError';
}

/** Whose sessions a valid logout token ends: a provider session (sid) or a person (sub). */
export interface LogoutTarget {
  readonly issuer: string;
  readonly sub?: string;
  readonly sid?: string;
}

export interface LogoutTokenVerifierOptions {
  readonly issuer: string;
  readonly clientId: string;
  /** The provider's keys (jose.createRemoteJWKSet on its jwks_uri). */
  readonly keys: jose.JWTVerifyGetKey;
  /** Signature algorithms the provider uses for ID tokens (discovery), RS256 when unstated. */
  readonly algorithms: readonly string[];
  readonly seen: SeenLogoutTokens;
  readonly now: () => number;
}

/** Checks `token` and answers whose sessions end; throws LogoutTokenError otherwise. */
export async function verifyLogoutToken(
  token: string,
  options: LogoutTokenVerifierOptions,
): Promise<LogoutTarget> {
  let payload: jose.JWTPayload;
  try {
    ({ payload } = await jose.jwtVerify(token, options.keys, {
      issuer: options.issuer,
      audience: options.clientId,
      algorithms: [...options.algorithms],
      requiredClaims: ['iat', 'exp', 'jti'],
      maxTokenAge: MAX_TOKEN_AGE_SECONDS,
      currentDate: new Date(options.now()),
    }));
  } catch (error) {
    throw new LogoutTokenError(
      error instanceof jose.errors.JOSEError
        ? `the logout token is not valid (${error.code}: ${error.message})`
        : 'the logout token is not valid',
    );
  }
  const events = payload.events;
  const event =
    typeof events === 'object' && events !== null && !Array.isArray(events)
      ? (events as Record<string, unknown>)[BACKCHANNEL_LOGOUT_EVENT]
      : undefined;
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new LogoutTokenError('the logout token carries no back-channel logout event');
  }
  if ('nonce' in payload) throw new LogoutTokenError('a logout token must not carry a nonce');
  const sub = typeof payload.sub === 'string' && payload.sub ? payload.sub : undefined;
  const sid = typeof payload.sid === 'string' && payload.sid ? payload.sid : undefined;
  if (!sub && !sid) throw new LogoutTokenError('the logout token names neither sid nor sub');
  if (typeof payload.jti !== 'string' || !payload.jti) {
    throw new LogoutTokenError('the logout token has no jti');
  }
  // Last, so a token refused for another reason does not use up its jti.
  if (!(await options.seen.firstSeen(payload.jti, payload.exp! * 1000))) {
    throw new LogoutTokenError('the logout token was already used (its jti was seen before)');
  }
  return { issuer: options.issuer, ...(sub ? { sub } : {}), ...(sid ? { sid } : {}) };
}
