// The auth area: console users, sessions (in Redis when replicas share one, else in the
// database), the failed sign-in throttle, tokens for scripts (in the database), and their routes. Built first, so a live mode without
// usable console users stops before anything else is built.
import type { AreaModule } from '../runtime/area-module';
import type { RecordChange } from '../http/admin-change';
import type { Config } from '../config/config';
import type { Logger } from '../observability/logger';
import type { RedisClient } from '../redis/redis-connection';
import type { ConsoleRedisKeys } from '../redis/redis-keys';
import type { ConsoleStore } from '../store/open-store';
import { ApiTokens } from './api-tokens';
import { Hono, type MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/app-env';
import type { SignInOptions } from '../../shared/sign-in-options';
import { createConsoleAuth, type ConsoleAuth } from './console-auth';
import { connectionsRoutes } from './connections-routes';
import { consoleSessionsRoutes } from './console-sessions-routes';
import { OidcDiscovery, type ProviderFetch } from './oidc-discovery';
import { oidcRoutes } from './oidc-routes';
import { MemorySeenLogoutTokens } from './oidc-seen-tokens';
import { OidcSignIn } from './oidc-sign-in';
import { requireRecentAuthentication } from './oidc-step-up';
import { createSessionBackends } from './session-backends';
import { sessionRoutes } from './session-routes';
import { signInLockRoutes } from './sign-in-lock-routes';
import { tokenRoutes } from './token-routes';
import { NO_STORE } from '../http/no-store';

export interface AuthAreaDeps {
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => number;
  readonly store: ConsoleStore;
  readonly redis?:
    { readonly connection: RedisClient; readonly keys: ConsoleRedisKeys } | undefined;
  /**
   * Records sign-ins (password and provider), unlocks, sessions ended by others and tokens made
   * and revoked in the audit trail (compose.ts).
   */
  readonly recordChange: RecordChange;
  /** Replaces fetch for the calls to the identity provider (tests). */
  readonly providerFetch?: ProviderFetch;
}

export interface AuthArea extends AreaModule {
  readonly auth: ConsoleAuth;
  /**
   * Guards a personal-data route with the step-up of PERSONAL_DATA_MAX_AUTH_AGE_MINUTES; unset
   * when it is off.
   */
  readonly recentAuthentication?: MiddlewareHandler<AppEnv>;
}

export function createAuthArea(deps: AuthAreaDeps): AuthArea {
  const { config, logger, now } = deps;
  const backends = createSessionBackends({
    config,
    now,
    store: deps.store,
    ...(deps.redis ? { redis: deps.redis } : {}),
  });
  const tokens = new ApiTokens({ database: deps.store.database, now });
  const auth = createConsoleAuth({ config, logger, now, ...backends, tokens });
  const identity = config.identity;
  const discovery = identity
    ? new OidcDiscovery({
        config: identity,
        now,
        ...(deps.providerFetch ? { fetch: deps.providerFetch } : {}),
      })
    : undefined;
  // What the sign-in page offers, whether or not single sign-on is configured.
  const options = new Hono().get('/options', (c) =>
    c.json<SignInOptions>(
      {
        provider: identity ? { name: identity.displayName } : null,
        localSignIn: config.auth.localSignIn,
      },
      200,
      NO_STORE,
    ),
  );
  return {
    auth,
    // Single sign-on only: whether the identity provider's discovery works. The provider away
    // only stops single sign-on: degraded, still ready (password sign-in and every signed-in
    // session go on).
    readiness: discovery
      ? [{ name: 'identityProvider', required: false, check: () => discovery.readiness() }]
      : [],
    ...(identity?.personalDataMaxAuthAgeSeconds
      ? {
          recentAuthentication: requireRecentAuthentication(
            identity.personalDataMaxAuthAgeSeconds,
            now,
          ),
        }
      : {}),
    routes: [
      // Signing in needs no session (the Origin and CSRF checks still apply).
      { path: '/api/session', app: sessionRoutes(auth, deps.recordChange), access: 'no-session' },
      { path: '/api/sign-in-locks', app: signInLockRoutes(auth, deps.recordChange) },
      // Everyone sees and ends their own sessions; the routes let admins at everyone's.
      { path: '/api/sessions', app: consoleSessionsRoutes(auth, deps.recordChange) },
      // Anyone signed in, also with roles in named connections only (its description says so).
      { path: '/api/connections', app: connectionsRoutes(config.connections) },
      {
        path: '/api/tokens',
        app: tokenRoutes({ tokens, logger, recordChange: deps.recordChange }),
      },
      // Browser navigations and the provider's back-channel calls, outside /api.
      { path: '/auth', app: options, access: 'no-session' },
      ...(identity && discovery
        ? [
            {
              path: '/auth',
              app: oidcRoutes({
                auth,
                config: identity,
                discovery,
                signIn: new OidcSignIn({ config: identity, discovery, now }),
                seenLogoutTokens: backends.seenLogoutTokens ?? new MemorySeenLogoutTokens(now),
                localSignIn: config.auth.localSignIn,
                recordChange: deps.recordChange,
                now,
              }),
              access: 'no-session' as const,
            },
          ]
        : []),
    ],
    start() {},
    stop() {},
  };
}
