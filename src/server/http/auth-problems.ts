// The problems of signing in and of access control, worded for the person at the browser and
// never saying more than they need: a failed sign-in does not say whether the name exists.
import { counted } from '../../shared/counted';
import { SESSION_PROBLEM_TYPES, SIGN_IN_LOCK_SECONDS, type Role } from '../../shared/session';
import { HttpProblem } from './problem';
import { quotaRefusalHeaders, type QuotaPolicy } from './rate-limit-fields';

/**
 * The challenge of a session 401 (RFC 9110 §11.6.1 requires one). The console authenticates with
 * a session cookie that POST /api/session sets, which no registered scheme names; `Cookie` with
 * the realm says so to any HTTP client, and no browser shows a password dialog for an unknown
 * scheme (docs/security-model.md).
 */
export const SESSION_CHALLENGE = { 'WWW-Authenticate': 'Cookie realm="console"' } as const;

/** 401: no valid session. */
export function signedOutProblem(): HttpProblem {
  return new HttpProblem(
    {
      type: SESSION_PROBLEM_TYPES.signedOut,
      title: 'You are signed out',
      status: 401,
      detail: 'Sign in to the console to continue.',
    },
    SESSION_CHALLENGE,
  );
}

/** 401: wrong username or password; the same answer whether or not the user exists. */
export function signInFailedProblem(): HttpProblem {
  return new HttpProblem(
    {
      type: SESSION_PROBLEM_TYPES.signInFailed,
      title: 'Wrong username or password',
      status: 401,
      detail: 'Check both and try again. Names are not case-sensitive; passwords are.',
    },
    SESSION_CHALLENGE,
  );
}

/**
 * 429 with Retry-After and the RateLimit fields every 429 of the console carries: too many failed
 * sign-ins for this user or address. The detail says how long; only a lock (SIGN_IN_LOCK_SECONDS
 * or more) mentions asking for an unlock, since a pause of a second is over before anyone answers.
 */
export function signInThrottledProblem(
  retryAfterSeconds: number,
  policies: readonly QuotaPolicy[],
  spent: QuotaPolicy,
): HttpProblem {
  const wait =
    retryAfterSeconds >= 120
      ? `${Math.ceil(retryAfterSeconds / 60)} minutes`
      : counted(retryAfterSeconds, 'second');
  return new HttpProblem(
    {
      type: SESSION_PROBLEM_TYPES.signInThrottled,
      title: 'Too many failed sign-in attempts',
      status: 429,
      detail:
        retryAfterSeconds >= SIGN_IN_LOCK_SECONDS
          ? `For your account's safety, signing in is locked. Try again in ${wait}, or ask whoever runs the console to unlock your sign-in.`
          : `Too many failed attempts in a row. Try again in ${wait}.`,
      retryAfterSeconds,
    },
    quotaRefusalHeaders(policies, spent, retryAfterSeconds),
  );
}

/**
 * 403: signed in, but the role may not use this; without a role (a person with roles in named
 * connections only, on a console-wide page), that it needs a console-wide one.
 */
export function forbiddenProblem(role: Role | undefined): HttpProblem {
  return new HttpProblem({
    type: SESSION_PROBLEM_TYPES.forbidden,
    title: 'Not available for your role',
    status: 403,
    detail: role
      ? `The ${role} role cannot use this part of the console. Ask a console administrator if you need it.`
      : 'This part of the console needs a console-wide role, and yours are in named connections only. Ask a console administrator if you need it.',
  });
}

/** The challenge of a refused token (RFC 6750 §3). */
export const INVALID_TOKEN_CHALLENGE = {
  'WWW-Authenticate': 'Bearer error="invalid_token"',
} as const;

/** The challenge beside a 403 for a token used above its role (RFC 6750 §3.1). */
export const INSUFFICIENT_SCOPE_CHALLENGE = {
  'WWW-Authenticate': 'Bearer error="insufficient_scope"',
} as const;

/** 401: the bearer token is malformed, unknown, revoked or expired. */
export function invalidTokenProblem(): HttpProblem {
  return new HttpProblem(
    {
      type: SESSION_PROBLEM_TYPES.signedOut,
      title: 'The token is not valid',
      status: 401,
      detail:
        'The bearer token is malformed, revoked or expired, or its owner may no longer give it. Make a new one on the Tokens page.',
    },
    INVALID_TOKEN_CHALLENGE,
  );
}
