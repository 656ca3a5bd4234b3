// The browser's routes of single sign-on, outside /api (docs/identity.md has each one's threat
// model): /auth/sign-in sends the browser to the provider, /auth/callback brings it back signed
// in (or to a page saying why not), /auth/sign-out continues a sign-out at the provider, and
// /auth/backchannel-logout is the provider ending sessions.
import { Hono, type Context } from 'hono';
import * as jose from 'jose';
import { safeReturnTo } from '../../shared/return-to';
import type { AppEnv, RequestUser } from '../http/app-env';
import type { RecordChange } from '../http/admin-change';
import type { IdentityConfig } from '../config/config';
import { browserDescription } from './browser-description';
import { connectionRoles } from './connection-roles';
import type { ConsoleAuth } from './console-auth';
import { ProviderUnreachableError, type OidcDiscovery } from './oidc-discovery';
import { LogoutTokenError, verifyLogoutToken } from './oidc-logout-token';
import { refusalPage } from './oidc-pages';
import type { SeenLogoutTokens } from './oidc-seen-tokens';
import {
  SignInRefusedError,
  type OidcSignIn,
  type ProviderIdentity,
  type SignInRefusal,
} from './oidc-sign-in';
import {
  clearTransactionCookie,
  readTransactionCookie,
  writeTransactionCookie,
} from './oidc-transaction';
import { sessionUser } from './require-session';
import { endSession, endSessions } from './end-sessions';
import { writeSessionCookie } from './session-cookie';
import { rolesRecorded, signInRecorder } from './sign-in-record';
import { NO_STORE } from '../http/no-store';

export interface OidcRoutesDeps {
  readonly auth: ConsoleAuth;
  readonly config: IdentityConfig;
  readonly discovery: OidcDiscovery;
  readonly signIn: OidcSignIn;
  readonly seenLogoutTokens: SeenLogoutTokens;
  readonly localSignIn: boolean;
  /** Records sign-ins and refused sign-ins in the audit trail (never refusing one for it). */
  readonly recordChange: RecordChange;
  readonly now: () => number;
}

/** An OAuth error code as the provider sent it, when it looks like one (RFC 6749 §5.2). */
const OAUTH_ERROR_CODE = /^[a-z0-9_.-]{1,64}$/i;

/**
 * What a refused sign-in's audit entry says: the reason's kind and, from the provider, its OAuth
 * error code. Never the details, which quote the provider's answer: those go to the log only, so
 * no code, token or claim can reach the trail.
 */
function refusalEntry(refusal: SignInRefusal) {
  return {
    method: 'provider',
    reason: refusal.kind,
    ...(refusal.kind === 'provider-error' && OAUTH_ERROR_CODE.test(refusal.error)
      ? { providerError: refusal.error }
      : {}),
  };
}

/** The provider's keys for logout tokens, fetched by jose when first needed and cached. */
function logoutKeys(discovery: OidcDiscovery): () => Promise<{
  keys: jose.JWTVerifyGetKey;
  algorithms: string[];
}> {
  let cached: { jwksUri: string; keys: jose.JWTVerifyGetKey; algorithms: string[] } | undefined;
  return async () => {
    const server = (await discovery.configuration()).serverMetadata();
    if (!server.jwks_uri) throw new ProviderUnreachableError('the provider publishes no jwks_uri');
    if (cached?.jwksUri !== server.jwks_uri) {
      cached = {
        jwksUri: server.jwks_uri,
        keys: jose.createRemoteJWKSet(new URL(server.jwks_uri)),
        algorithms: server.id_token_signing_alg_values_supported ?? ['RS256'],
      };
    }
    return cached;
  };
}

/** The /auth routes. Mount at /auth, outside /api (no session, no X-CSRF: browser navigations). */
export function oidcRoutes(deps: OidcRoutesDeps) {
  const { auth, config, discovery, now } = deps;
  const pageContext = {
    providerName: config.displayName,
    localSignIn: deps.localSignIn,
    accessContact: config.accessContact,
  };
  const keys = logoutKeys(discovery);
  const recordSignIn = signInRecorder(deps.recordChange);

  /** Starts a session for `identity`, ending the one this browser had (no session fixation). */
  async function startSession(c: Context<AppEnv>, identity: ProviderIdentity): Promise<void> {
    const previous = await sessionUser(c, auth);
    if (previous.sessionId) await endSession(auth, previous.sessionId);
    const user: RequestUser = {
      username: identity.username,
      ...(identity.role ? { role: identity.role } : {}),
      roles: connectionRoles(auth.connections, identity.role, identity.connectionRoles),
      method: 'provider',
      ...(identity.name ? { name: identity.name } : {}),
      ...(identity.email ? { email: identity.email } : {}),
      authTime: identity.authTime,
    };
    const userAgent = browserDescription(c.req.header('user-agent'));
    const session = await auth.sessions.create(user, {
      method: 'provider',
      ...(identity.role ? { role: identity.role } : {}),
      connectionRoles: identity.connectionRoles,
      ...(identity.name ? { name: identity.name } : {}),
      ...(identity.email ? { email: identity.email } : {}),
      provider: {
        issuer: identity.issuer,
        sub: identity.sub,
        ...(identity.sid ? { sid: identity.sid } : {}),
        authTime: identity.authTime,
      },
      ...(userAgent ? { userAgent } : {}),
    });
    await writeSessionCookie(c, auth.cookie, session.id);
  }

  return (
    new Hono<AppEnv>()
      .get('/sign-in', async (c) => {
        const returnTo = safeReturnTo(c.req.query('returnTo'));
        // A step-up before a lookup: the provider must authenticate the person again unless it
        // did within PERSONAL_DATA_MAX_AUTH_AGE_MINUTES.
        const maxAge =
          c.req.query('reauthenticate') === '1' ? config.personalDataMaxAuthAgeSeconds : undefined;
        try {
          const { url, transaction } = await deps.signIn.start(returnTo, maxAge);
          writeTransactionCookie(c, auth.cookie, transaction);
          return c.redirect(url.href, 303);
        } catch (error) {
          if (!(error instanceof ProviderUnreachableError)) throw error;
          auth.logger.warn(
            { reqId: c.get('requestId'), err: error },
            'identity provider unreachable',
          );
          const page = refusalPage({ kind: 'unreachable', detail: error.message }, pageContext);
          return c.html(page.html, page.status, NO_STORE);
        }
      })
      .get('/callback', async (c) => {
        const transaction = readTransactionCookie(c, auth.cookie, now());
        // Used once, whatever happens next.
        clearTransactionCookie(c, auth.cookie);
        try {
          if (!transaction) throw new SignInRefusedError({ kind: 'no-transaction' });
          // The address the provider sent the browser to, as registered there (PUBLIC_URL), not
          // as this process was reached behind a proxy: openid-client sends it as redirect_uri.
          const callbackUrl = new URL(config.redirectUri);
          callbackUrl.search = new URL(c.req.url).search;
          const identity = await deps.signIn.finish(callbackUrl, transaction);
          const providerRoles = rolesRecorded({
            role: identity.role,
            connections: identity.connectionRoles,
          });
          await recordSignIn(c, {
            action: 'sign-in.succeeded',
            actorName: identity.username,
            target: identity.username,
            after: { method: 'provider', ...providerRoles },
          });
          await startSession(c, identity);
          auth.logger.info(
            { reqId: c.get('requestId'), user: identity.username, ...providerRoles },
            'signed in with the identity provider',
          );
          return c.redirect(identity.returnTo, 303);
        } catch (error) {
          if (!(error instanceof SignInRefusedError)) throw error;
          const { refusal } = error;
          auth.logger.warn(
            {
              reqId: c.get('requestId'),
              reason: refusal.kind,
              ...('detail' in refusal ? { detail: refusal.detail } : {}),
              ...('error' in refusal ? { error: refusal.error } : {}),
            },
            'provider sign-in refused',
          );
          // A callback without a transaction reached no provider: anyone can send those by the
          // thousand, so they are only logged, as throttled password guesses are.
          if (refusal.kind !== 'no-transaction') {
            await recordSignIn(c, {
              action: 'sign-in.refused',
              target: null,
              after: refusalEntry(refusal),
            });
          }
          const page = refusalPage(refusal, pageContext);
          return c.html(page.html, page.status, NO_STORE);
        }
      })
      // After DELETE /api/session ended a provider session, the SPA sends the browser here to
      // end the provider's session too (RP-initiated logout). It ends nothing itself, so a link
      // from another site can do no more than show the provider's own sign-out question.
      .get('/sign-out', async (c) => {
        try {
          const configuration = await discovery.configuration();
          if (configuration.serverMetadata().end_session_endpoint) {
            const url = new URL(configuration.serverMetadata().end_session_endpoint!);
            // client_id rather than id_token_hint: no token in a URL (docs/identity.md).
            url.searchParams.set('client_id', config.clientId);
            url.searchParams.set(
              'post_logout_redirect_uri',
              new URL('/sign-in', config.redirectUri).href,
            );
            return c.redirect(url.href, 303);
          }
        } catch (error) {
          if (!(error instanceof ProviderUnreachableError)) throw error;
        }
        return c.redirect('/sign-in', 303);
      })
      .post('/backchannel-logout', async (c) => {
        const refuse = (description: string) =>
          c.json({ error: 'invalid_request', error_description: description }, 400, NO_STORE);
        if (
          !/^application\/x-www-form-urlencoded\s*(;|$)/i.test(c.req.header('content-type') ?? '')
        ) {
          return refuse('the body must be application/x-www-form-urlencoded');
        }
        const token = new URLSearchParams(await c.req.text()).get('logout_token');
        if (!token) return refuse('logout_token is missing');
        try {
          const { keys: getKey, algorithms } = await keys();
          const target = await verifyLogoutToken(token, {
            issuer: config.issuer,
            clientId: config.clientId,
            keys: getKey,
            algorithms,
            seen: deps.seenLogoutTokens,
            now,
          });
          const ended = await auth.sessions.endWhere(target);
          endSessions(auth, ended);
          auth.logger.info(
            { reqId: c.get('requestId'), sessions: ended.length, by: target.sid ? 'sid' : 'sub' },
            'back-channel logout',
          );
          return c.body(null, 200, NO_STORE);
        } catch (error) {
          if (error instanceof LogoutTokenError) {
            auth.logger.warn(
              { reqId: c.get('requestId'), reason: error.message },
              'logout token refused',
            );
            return refuse(error.message);
          }
          if (error instanceof ProviderUnreachableError) {
            // The keys could not be had: the provider retries a logout it could not deliver.
            return c.json(
              {
                error: 'temporarily_unavailable',
                error_description: 'the provider keys could not be fetched',
              },
              503,
              NO_STORE,
            );
          }
          throw error;
        }
      })
  );
}
