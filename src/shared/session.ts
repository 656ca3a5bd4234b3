// Console users, roles and the signed-in session as the BFF sends them and the SPA reads them.
import * as z from 'zod/mini';
import { PROBLEM_TYPES } from './problem';

/**
 * The console's roles: `admin` sees and changes everything; `auditor` reads, verifies and exports
 * the audit trail and reads the operational pages but looks nobody up and changes nothing;
 * `support` works the operational pages and never sees personal data.
 */
const ROLES = ['admin', 'auditor', 'support'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** Who may read, search, verify and export the audit trail (the BFF's routes and the SPA's page). */
export const AUDIT_TRAIL_ROLES: readonly Role[] = ['admin', 'auditor'];

/**
 * What a console username may look like, after the BFF lower-cases it: a letter or digit first,
 * then letters, digits, `.`, `_`, `-`, at most 64 characters. Narrow on purpose: a name is shown,
 * logged and used as a throttling key, so it must not carry markup or control characters.
 */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * A sign-in pause at least this long is a lock worth asking someone to lift; a shorter one is the
 * throttle's slow-down after a few wrong passwords, over before anyone could answer.
 */
export const SIGN_IN_LOCK_SECONDS = 60;

/** Passwords are limited only so that a huge body cannot make the BFF hash megabytes. */
export const PASSWORD_MAX_LENGTH = 1024;

/**
 * A person's role in each platform connection they may use, by connection name: their grant for
 * that connection where they have one, else their console-wide role (docs/security-model.md). A
 * connection missing here is one they have no access to.
 */
export const ConnectionRolesSchema = z.record(z.string(), RoleSchema);
export type ConnectionRoles = z.infer<typeof ConnectionRolesSchema>;

/** `GET /api/session` and a successful `POST /api/session` answer with this. */
export const SessionSchema = z.object({
  username: z.string(),
  /**
   * The console-wide role: it governs the console-wide pages (users' sessions, tokens, alerts,
   * integrations, the audit trail). Absent for a person with roles in named connections only, who
   * sees their connections' pages and none of those.
   */
  role: z.optional(RoleSchema),
  /**
   * The person's role in each configured connection they may use. Read as none when absent: a
   * replica of the release before connections, during a rolling upgrade, does not send it.
   */
  roles: z._default(ConnectionRolesSchema, () => ({})),
  /**
   * Seconds without a person's action after which the session ends (SESSION_IDLE_MINUTES); the
   * page warns a minute before. Requests the page makes by itself do not count as actions.
   */
  idleSeconds: z.optional(z.number()),
  /** Display name and e-mail (provider sign-ins). */
  name: z.optional(z.string()),
  email: z.optional(z.string()),
  /** How the session was signed in. */
  method: z.optional(z.enum(['password', 'provider'])),
});
export type Session = z.infer<typeof SessionSchema>;

/** The body of `POST /api/session`. */
export const SignInRequestSchema = z.object({
  username: z.string().check(z.minLength(1), z.maxLength(64)),
  password: z.string().check(z.minLength(1), z.maxLength(PASSWORD_MAX_LENGTH)),
});
export type SignInRequest = z.infer<typeof SignInRequestSchema>;

/** Problem types of signing in and of access control (a view of PROBLEM_TYPES). */
export const SESSION_PROBLEM_TYPES = {
  signedOut: PROBLEM_TYPES.signedOut,
  signInFailed: PROBLEM_TYPES.signInFailed,
  signInThrottled: PROBLEM_TYPES.signInThrottled,
  forbidden: PROBLEM_TYPES.forbidden,
} as const;

/**
 * True when `role` may use something restricted to `roles` (no restriction: every role may). No
 * role (a person without a console-wide role, on a console-wide page) may use nothing.
 */
export function roleAllows(role: Role | undefined, roles: readonly Role[] | undefined): boolean {
  return role !== undefined && (roles === undefined || roles.includes(role));
}

/** `DELETE /api/sign-in-locks/:username` (admins): whose sign-in lockout was lifted. */
export const SignInUnlockSchema = z.object({
  username: z.string(),
  unlocked: z.literal(true),
  /** Whether the name was locked (or slowed down) before: false when there was nothing to lift. */
  wasLocked: z.boolean(),
});
export type SignInUnlock = z.infer<typeof SignInUnlockSchema>;
