// Tokens for scripts: what `POST /api/tokens` takes and answers, and how the list shows them.
import * as z from 'zod/mini';
import { RoleSchema, type Role } from './session';

/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'pac_';

/** The longest a token may live: a year, so a forgotten one does not last for ever. */
export const API_TOKEN_MAX_DAYS = 365;

/** What a token's name may be: shown in lists and the audit trail, so plain and short. */
export const API_TOKEN_NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,63}$/u;

/** The body of `POST /api/tokens`. */
export const CreateApiTokenSchema = z.object({
  name: z.string().check(z.trim(), z.regex(API_TOKEN_NAME_PATTERN)),
  role: RoleSchema,
  /** Days until the token stops working, 1 to API_TOKEN_MAX_DAYS. */
  expiresInDays: z.number().check(z.int(), z.minimum(1), z.maximum(API_TOKEN_MAX_DAYS)),
});
export type CreateApiToken = z.infer<typeof CreateApiTokenSchema>;

/** A token as lists show it: never the token itself. */
export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The console user who made it; requests made with it act for them, with `role`. */
  owner: z.string(),
  role: RoleSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
  /** Within a minute; null until first used. */
  lastUsedAt: z.nullable(z.string()),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** `GET /api/tokens`: own tokens, or everyone's for an admin; newest first. */
export const ApiTokenListSchema = z.object({ items: z.array(ApiTokenSchema) });
export type ApiTokenList = z.infer<typeof ApiTokenListSchema>;

/** `POST /api/tokens` answers the token once, beside its listing. */
export const CreatedApiTokenSchema = z.object({ ...ApiTokenSchema.shape, token: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiTokenSchema>;

/**
 * The roles `creator` may give a token: an admin any, everyone else only their own, nobody without
 * a role (tokens are console-wide: a person with roles in named connections only makes none). A token never
 * reaches further than the person who made it, and the auditor's separation of duties holds
 * (an auditor cannot make an admin token, an admin may make a read-only auditor token for a
 * script that exports the trail).
 */
export function tokenRolesFor(creator: Role | undefined): readonly Role[] {
  if (creator === undefined) return [];
  return creator === 'admin' ? RoleSchema.options : [creator];
}
