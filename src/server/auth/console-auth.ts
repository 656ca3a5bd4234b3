// Builds the console's sign-in machinery from configuration: who the users are, where sessions
// live, how the cookie is signed, and the failed-sign-in throttle.
import { ConfigError, type Config } from '../config/config';
import type { Logger } from '../observability/logger';
import type { WebSettings } from '../security/web-settings';
import type { ApiTokens } from './api-tokens';
import type { SessionCookieSettings } from './session-cookie';
import { MemorySessionStore, type SessionStore } from './session-store';
import { SignInThrottle } from './sign-in-throttle';
import { demoUserDirectory, fileUserDirectory, type UserDirectory } from './user-directory';
import { UsersFileError } from './users-file';

/** The directory when local sign-in is off: nobody. */
const NO_LOCAL_USERS: UserDirectory = {
  find: () => undefined,
  authenticate: async () => undefined,
  list: () => [],
};

/** Everything the session routes and the session middleware need. */
export interface ConsoleAuth {
  users: UserDirectory;
  /** The configured connections' names: a person's roles are resolved for these. */
  connections: readonly string[];
  /** Whether the password form signs anyone in (LOCAL_SIGN_IN). */
  localSignIn: boolean;
  sessions: SessionStore;
  cookie: SessionCookieSettings;
  throttle: SignInThrottle;
  web: WebSettings;
  logger: Logger;
  /**
   * Told of every session this process ends (sign-out, a new sign-in replacing it, the sessions
   * page, the identity provider), by its handle (SessionRecord.handle), so what belongs to it,
   * such as its live streams, ends at once. end-sessions.ts tells them.
   */
  sessionEnds: Set<(handle: string) => void>;
  /** SESSION_IDLE_MINUTES in seconds: the page warns a minute before. */
  idleSeconds: number;
  /** Tokens for scripts (`Authorization: Bearer`); without them every bearer token is refused. */
  tokens?: ApiTokens;
}

export interface ConsoleAuthOptions {
  config: Config;
  logger: Logger;
  now?: () => number;
  /** Where sessions live (session-backends.ts); default this process's memory. */
  sessions?: SessionStore;
  /** Failed sign-in counting; default this process's memory (REDIS_URL: shared, scale-out.ts). */
  throttle?: SignInThrottle;
  /** Tokens for scripts (api-tokens.ts). */
  tokens?: ApiTokens;
}

/**
 * Creates the console's auth from `config`. In live mode the users file must exist and hold at
 * least one user; otherwise this throws ConfigError with one line saying what to do.
 */
export function createConsoleAuth({
  config,
  logger,
  now,
  sessions,
  throttle,
  tokens,
}: ConsoleAuthOptions): ConsoleAuth {
  const web: WebSettings = {
    publicOrigin: config.web.publicOrigin,
    trustProxy: config.web.trustProxy,
  };
  const signInThrottle = throttle ?? new SignInThrottle();
  const connections = config.connections.map((connection) => connection.name);
  let users: UserDirectory;
  if (!config.auth.localSignIn) {
    // Single sign-on only (LOCAL_SIGN_IN=off): no password signs anyone in, whatever a users
    // file holds, and password sessions from before end at their next request.
    users = NO_LOCAL_USERS;
  } else if (config.mode === 'demo') {
    users = demoUserDirectory(config.auth.demoPassword, connections);
  } else {
    const file = config.auth.usersFile;
    if (!file)
      throw new ConfigError('CONSOLE_USERS_FILE is required when UPSTREAM_BASE_URL is set');
    try {
      users = fileUserDirectory(file, {
        logger,
        connections,
        ...(now ? { now } : {}),
        onUnlock: (username) => {
          signInThrottle.unlock(username).then(
            () => logger.info({ user: username }, 'sign-in unlocked from the command line'),
            (error: unknown) => logger.warn({ err: error, user: username }, 'could not unlock'),
          );
        },
      });
    } catch (error) {
      if (!(error instanceof UsersFileError)) throw error;
      const hint = error.missing ? '; create it with: npm run users -- add NAME --role admin' : '';
      throw new ConfigError(`CONSOLE_USERS_FILE: ${error.message}${hint}`);
    }
    if (users.list().length === 0) {
      throw new ConfigError(
        `CONSOLE_USERS_FILE: ${file} has no users; add one with: npm run users -- add NAME --role admin`,
      );
    }
  }
  return {
    users,
    connections,
    localSignIn: config.auth.localSignIn,
    sessions:
      sessions ??
      new MemorySessionStore({
        idleMs: config.auth.sessionIdleMinutes * 60_000,
        maxAgeMs: config.auth.sessionMaxHours * 3_600_000,
        ...(now ? { now } : {}),
      }),
    cookie: { secret: config.auth.sessionSecret, web },
    throttle: signInThrottle,
    web,
    logger,
    sessionEnds: new Set(),
    idleSeconds: config.auth.sessionIdleMinutes * 60,
    ...(tokens ? { tokens } : {}),
  };
}
