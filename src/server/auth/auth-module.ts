// The auth area: console users, sessions (in Redis when replicas share one, else in the
// database), the failed sign-in throttle, and their routes. Built first, so a live mode without
// usable console users stops before anything else is built.
import type { AreaModule } from '../area-module';
import type { RecordChange } from '../http/admin-change';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { RedisClient } from '../redis/redis-connection';
import type { RedisKeys } from '../redis/redis-keys';
import type { ConsoleStore } from '../store/open-store';
import { ANY_ROLE } from '../http/api-operation';
import { createConsoleAuth, type ConsoleAuth } from './console-auth';
import { consoleSessionsRoutes } from './console-sessions-routes';
import { createSessionBackends } from './session-backends';
import { sessionRoutes } from './session-routes';
import { signInLockRoutes } from './sign-in-lock-routes';

export interface AuthAreaDeps {
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => number;
  readonly store: ConsoleStore;
  readonly redis?: { readonly connection: RedisClient; readonly keys: RedisKeys } | undefined;
  /** Records sign-ins, unlocks and sessions ended by others in the audit trail (compose.ts). */
  readonly recordChange: RecordChange;
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
  const auth = createConsoleAuth({ config, logger, now, ...backends });
  return {
    auth,
    routes: [
      // Signing in needs no session (the Origin and CSRF checks still apply).
      { path: '/api/session', app: sessionRoutes(auth, deps.recordChange), access: 'no-session' },
      {
        path: '/api/sign-in-locks',
        app: signInLockRoutes(auth, deps.recordChange),
        access: ['admin'],
      },
      // Everyone sees and ends their own sessions; the routes let admins at everyone's.
      {
        path: '/api/sessions',
        app: consoleSessionsRoutes(auth, deps.recordChange),
        access: ANY_ROLE,
      },
    ],
    start() {},
    stop() {},
  };
}
