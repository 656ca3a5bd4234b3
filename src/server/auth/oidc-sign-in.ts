// Signing in at the identity provider, both halves: the authorization request (PKCE S256, state,
// nonce, and max_age for a step-up) and the callback (code exchange and ID token validation by
// openid-client), then the console's own rules: a second factor when required, a mapped group.
import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import { USERNAME_PATTERN } from '../../shared/session';
import type { IdentityConfig } from '../config/config';
import { ProviderUnreachableError, type OidcDiscovery } from './oidc-discovery';
import { groupsIn, rolesForGroups, type ProviderRoles } from './oidc-role-map';
import { TRANSACTION_TTL_SECONDS, type SignInTransaction } from './oidc-transaction';

/** Why a return from the provider gives no session; each has its own page (oidc-pages.ts). */
export type SignInRefusal =
  | { readonly kind: 'unreachable'; readonly detail: string }
  | { readonly kind: 'no-transaction' }
  | { readonly kind: 'provider-error'; readonly error: string; readonly detail?: string }
  | { readonly kind: 'invalid-response'; readonly detail: string }
  | { readonly kind: 'mfa-required' }
  | { readonly kind: 'no-access'; readonly name?: string };

/** A person the provider vouched for, with the console roles their groups give. */
export interface ProviderIdentity extends ProviderRoles {
  readonly username: string;
  readonly name?: string;
  readonly email?: string;
  readonly issuer: string;
  readonly sub: string;
  readonly sid?: string;
  /** When they last authenticated at the provider (epoch ms). */
  readonly authTime: number;
  readonly returnTo: string;
}

/** Thrown by finishSignIn with the reason. */
export class SignInRefusedError extends Error {
  override name = 'SignInRefusedError';
  constructor(readonly refusal: SignInRefusal) {
    super(refusal.kind);
  }
}

/**
 * `amr` values of RFC 8176 that are, or include, a factor beyond a password. `pwd`, `pin` and
 * `kba` alone are one factor.
 */
const SECOND_FACTOR_AMR = new Set([
  'mfa',
  'otp',
  'hwk',
  'swk',
  'sms',
  'tel',
  'fpt',
  'face',
  'iris',
  'retina',
  'vbm',
  'sc',
]);

/**
 * The console username for a provider sign-in: `preferred_username`, else `email`, lower-cased
 * with every character USERNAME_PATTERN does not allow replaced by `-` (`ada@example.com` becomes
 * `ada-example.com`). Without either (or nothing usable left), `user-` and a hash of the subject.
 * Shown and audited as the actor; sessions are matched by issuer and subject, never by this name.
 */
export function providerUsername(claims: Record<string, unknown>, sub: string): string {
  for (const claim of ['preferred_username', 'email']) {
    const value = claims[claim];
    if (typeof value !== 'string') continue;
    const name = value
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '')
      .slice(0, 64);
    if (USERNAME_PATTERN.test(name)) return name;
  }
  return `user-${createHash('sha256').update(sub).digest('hex').slice(0, 16)}`;
}

function claimString(claims: Record<string, unknown>, name: string): string | undefined {
  const value = claims[name];
  return typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : undefined;
}

/** Whether the ID token shows a second factor: its `amr`, or an `acr` the operator accepts. */
export function showsSecondFactor(
  claims: Record<string, unknown>,
  acrValues: readonly string[],
): boolean {
  const amr = Array.isArray(claims.amr) ? claims.amr : [];
  if (amr.some((value) => typeof value === 'string' && SECOND_FACTOR_AMR.has(value))) return true;
  return typeof claims.acr === 'string' && acrValues.includes(claims.acr);
}

export interface OidcSignInOptions {
  readonly config: IdentityConfig;
  readonly discovery: OidcDiscovery;
  readonly now: () => number;
}

/** The two halves of a provider sign-in. */
export class OidcSignIn {
  readonly #options: OidcSignInOptions;

  constructor(options: OidcSignInOptions) {
    this.#options = options;
  }

  /**
   * Where to send the browser, and the transaction to keep until it returns. `maxAge` (seconds):
   * the provider must have authenticated the person within it (step-up before a lookup).
   */
  async start(
    returnTo: string,
    maxAge?: number,
  ): Promise<{ url: URL; transaction: SignInTransaction }> {
    const { config, discovery, now } = this.#options;
    const configuration = await discovery.configuration();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const parameters: Record<string, string> = {
      redirect_uri: config.redirectUri,
      scope: config.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    };
    if (config.acrValues.length > 0) parameters.acr_values = config.acrValues.join(' ');
    if (maxAge !== undefined) parameters.max_age = String(maxAge);
    return {
      url: client.buildAuthorizationUrl(configuration, parameters),
      transaction: {
        state,
        nonce,
        codeVerifier,
        returnTo,
        ...(maxAge === undefined ? {} : { maxAge }),
        expiresAt: now() + TRANSACTION_TTL_SECONDS * 1000,
      },
    };
  }

  /**
   * Exchanges the code of `callbackUrl` and checks the ID token (openid-client: signature,
   * issuer, audience, expiry, nonce, state, PKCE, auth_time against max_age), then the console's
   * rules. Throws SignInRefusedError saying why there is no session.
   */
  async finish(callbackUrl: URL, transaction: SignInTransaction): Promise<ProviderIdentity> {
    const { config, discovery, now } = this.#options;
    let configuration: client.Configuration;
    try {
      configuration = await discovery.configuration();
    } catch (error) {
      throw refusedFor(error);
    }
    let claims: Record<string, unknown>;
    try {
      const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
        ...(transaction.maxAge === undefined ? {} : { maxAge: transaction.maxAge }),
      });
      const idClaims = tokens.claims();
      if (!idClaims)
        throw new SignInRefusedError({ kind: 'invalid-response', detail: 'no ID token' });
      claims = idClaims as Record<string, unknown>;
    } catch (error) {
      throw refusedFor(error);
    }
    if (config.requireMfa && !showsSecondFactor(claims, config.acrValues)) {
      throw new SignInRefusedError({ kind: 'mfa-required' });
    }
    const sub = String(claims.sub);
    const name = claimString(claims, 'name');
    const roles = rolesForGroups(config.roleMap, groupsIn(claims, config.rolesClaim));
    if (!roles.role && Object.keys(roles.connectionRoles).length === 0) {
      throw new SignInRefusedError({ kind: 'no-access', ...(name ? { name } : {}) });
    }
    const email = claimString(claims, 'email');
    const sid = claimString(claims, 'sid');
    return {
      username: providerUsername(claims, sub),
      ...roles,
      ...(name ? { name } : {}),
      ...(email ? { email } : {}),
      issuer: String(claims.iss),
      sub,
      ...(sid ? { sid } : {}),
      authTime: typeof claims.auth_time === 'number' ? claims.auth_time * 1000 : now(),
      returnTo: transaction.returnTo,
    };
  }
}

/** The refusal an error of discovery, the code exchange or the ID token check stands for. */
function refusedFor(error: unknown): SignInRefusedError {
  if (error instanceof SignInRefusedError) return error;
  if (error instanceof ProviderUnreachableError) {
    return new SignInRefusedError({ kind: 'unreachable', detail: error.message });
  }
  if (
    error instanceof client.AuthorizationResponseError ||
    error instanceof client.ResponseBodyError
  ) {
    // The provider said no: at its page (access_denied, login_required) or at its token
    // endpoint (invalid_grant: a replayed code, a wrong PKCE verifier).
    return new SignInRefusedError({
      kind: 'provider-error',
      error: error.error,
      ...(error.error_description ? { detail: error.error_description } : {}),
    });
  }
  if (error instanceof client.ClientError) {
    // openid-client's own checks; the message of their cause names the check that failed
    // (`unexpected JWT "exp" …`), never a token's contents.
    const cause = error.cause;
    if (cause instanceof TypeError || error.code === 'OAUTH_TIMEOUT') {
      return new SignInRefusedError({ kind: 'unreachable', detail: error.message });
    }
    const detail = cause instanceof Error ? cause.message : error.message;
    return new SignInRefusedError({ kind: 'invalid-response', detail });
  }
  if (error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError')) {
    return new SignInRefusedError({ kind: 'unreachable', detail: error.message });
  }
  throw error;
}
