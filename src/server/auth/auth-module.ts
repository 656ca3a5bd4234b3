// The auth area: console users, sessions (in Redis when replicas share one, else in the
// database), the failed sign-in throttle, tokens for scripts (in the database), and their routes. Built first, so a live mode without
// usable console users stops before anything else is built.
import type { AreaModule } from '../area-module';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { RedisClient } from '../redis/redis-connection';
import type { RedisKeys } from '../redis/redis-keys';
import type { ConsoleStore } from '../store/open-store';
import { ApiTokens } from './api-tokens';
import { createConsoleAuth, type ConsoleAuth } from './console-auth';
import { consoleSessionsRoutes } from './console-sessions-routes';
import { createSessionBackends } from './session-backends';
import { sessionRoutes } from './session-routes';
import { signInLockRoutes } from './sign-in-lock-routes';
import { tokenRoutes } from './token-routes';

export interface AuthAreaDeps {
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => number;
  readonly store: ConsoleStore;
  readonly redis?: { readonly connection: RedisClient; readonly keys: RedisKeys } | undefined;
}

export interface AuthArea extends AreaModule {
  readonly auth: ConsoleAuth;
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
  return {
    auth,
    routes: [
      // Signing in needs no session (the Origin and CSRF checks still apply).
      { path: '/api/session', app: sessionRoutes(auth), access: 'no-session' },
      { path: '/api/sign-in-locks', app: signInLockRoutes(auth) },
      // Everyone sees and ends their own sessions; the routes let admins at everyone's.
      { path: '/api/sessions', app: consoleSessionsRoutes(auth) },
      { path: '/api/tokens', app: tokenRoutes({ tokens, logger }) },
    ],
    start() {},
    stop() {},
  };
}
