// The BFF's Hono environment: what middleware puts on the request context for later handlers.
import type { HttpBindings } from '@hono/node-server';
import type { ConnectionRoles, Role } from '../../shared/session';

/** The principal a request acts for. */
export interface RequestUser {
  /**
   * The users-file name, or for provider sign-ins a stable name taken from the claims (see
   * docs/identity.md).
   */
  username: string;
  /**
   * The console-wide role, for the console-wide routes (described-access.ts); absent for a person
   * with roles in named connections only, whom those routes refuse.
   */
  role?: Role;
  /** The role in each configured connection the principal may use (auth/connection-roles.ts). */
  roles: ConnectionRoles;
  /** How this principal proved itself. */
  method?: 'password' | 'provider' | 'token';
  /** Display name and e-mail from the provider's claims (provider sign-ins). */
  name?: string;
  email?: string;
  /** Provider sign-ins: when the person last authenticated at the provider (epoch ms). */
  authTime?: number;
  /** Token requests: which token; `username` is then the token's owner. */
  token?: { id: string; name: string };
}

/** Hono environment of the BFF; use as `new Hono<AppEnv>()` wherever context variables are read. */
export interface AppEnv {
  /** Node's request and response when served by @hono/node-server; absent under app.request. */
  Bindings: Partial<HttpBindings>;
  Variables: {
    /** Set first thing for every request; echoed as X-Request-Id and in every log line. */
    requestId: string;
    /** Set by requireSession; absent on routes that do not need a session. */
    user?: RequestUser;
    /** Set by requireSession with the user: the session's id (live streams end with it). */
    sessionId?: string;
    /**
     * Set by the access check on a connection's operation: the platform connection the request
     * acts on (its prefix's, or the first connection's at an old path).
     */
    connection?: string;
  };
}
