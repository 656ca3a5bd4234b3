// The lookup audit trail as the BFF answers it and the SPA reads it: who looked up personal data,
// when, with which operation and what came of it. The identifier itself is never part of it.
import * as z from 'zod/mini';
import { IDENTIFIER_MAX_LENGTH } from './data-subject-operations';

/**
 * What came of a lookup:
 * - `ok`: the platform answered with data;
 * - `not-found`: the platform knows no data subject (or record) for the parameters;
 * - `invalid`: the console refused the parameters; nothing was sent;
 * - `rate-limited`: the console held it back, or the platform answered 429;
 * - `error`: the platform failed, timed out, or answered in an unexpected shape.
 */
export const AUDIT_OUTCOMES = ['ok', 'not-found', 'invalid', 'rate-limited', 'error'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One lookup of personal data. */
export const AuditRecordSchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  /** The console user who made it. */
  user: z.string(),
  /** Catalog operation id, or `unknown` when the request named none the catalog has. */
  operation: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
  /** The HTTP status the console answered with. */
  status: z.int(),
  /** A short, non-personal note: the problem type, the incident id of a 429. */
  detail: z.nullable(z.string()),
  /** Whether the lookup named a data subject (its identifier is stored only as a keyed hash). */
  identifierHashed: z.boolean(),
  /** True for a "load more" page of an earlier lookup. */
  continued: z.boolean(),
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;

/** A page of the trail, newest first. */
export const AuditPageSchema = z.object({
  items: z.array(AuditRecordSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;

/** `POST /api/audit-trail/search`: the identifier travels in the body, never in a URL. */
export const AuditSearchRequestSchema = z.strictObject({
  identifier: z.string().check(z.minLength(1), z.maxLength(IDENTIFIER_MAX_LENGTH)),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(600))),
});
export type AuditSearchRequest = z.infer<typeof AuditSearchRequestSchema>;

/** Page sizes of the trail. */
export const AUDIT_QUERY_LIMITS = { defaultPageSize: 50, maxPageSize: 200 } as const;

/** The same identifier typed twice hashes the same: surrounding spaces and Unicode forms aside. */
export function normalizeIdentifier(identifier: string): string {
  return identifier.trim().normalize('NFC');
}
