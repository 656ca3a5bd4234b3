// The sessions page's data: who is signed in where (GET /api/sessions), as the BFF sends it and
// the SPA reads it. A session is named by its handle, which signs nobody in; never by its id.
import * as z from 'zod/mini';
import { RoleSchema } from './session';

const IsoTime = z.iso.datetime({ offset: true });

/** A session's handle: the base64url SHA-256 of its id (43 characters). */
export const SESSION_HANDLE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** One signed-in session. */
export const ConsoleSessionSchema = z.object({
  /** The handle: DELETE /api/sessions/{id} ends the session. */
  id: z.string(),
  username: z.string(),
  /** The console-wide role it acts with; absent for a person with roles in connections only. */
  role: z.optional(RoleSchema),
  /** Display name and e-mail (provider sign-ins). */
  name: z.optional(z.string()),
  email: z.optional(z.string()),
  /** How it was signed in: the console's password, or the organisation's identity provider. */
  method: z.enum(['password', 'provider']),
  startedAt: IsoTime,
  lastActiveAt: IsoTime,
  /** A short description of the browser ("Firefox on Windows"), when it sent one. */
  browser: z.optional(z.string()),
  /** The session of the browser asking. */
  current: z.boolean(),
});
export type ConsoleSession = z.infer<typeof ConsoleSessionSchema>;

/** `GET /api/sessions`: one's own sessions, or for an admin everyone's; newest first. */
export const ConsoleSessionListSchema = z.object({
  sessions: z.array(ConsoleSessionSchema),
  /** Whether the list holds everyone's sessions (admins) or only the caller's. */
  everyone: z.boolean(),
});
export type ConsoleSessionList = z.infer<typeof ConsoleSessionListSchema>;

/** `DELETE /api/sessions` ("Sign out everywhere"): how many sessions ended, this one included. */
export const SignedOutEverywhereSchema = z.object({ ended: z.number() });
export type SignedOutEverywhere = z.infer<typeof SignedOutEverywhereSchema>;
