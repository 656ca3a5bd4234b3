// Administrative changes as GET /api/audit-trail/changes answers them and the audit page reads
// them: who changed what the console does, when, from where, and the state before and after.
import * as z from 'zod/mini';
import { AUDIT_EXPORT_FORMATS } from './audit-trail';

/**
 * The kinds of change, the part of an action before its dot (`token.created` is a `token`
 * change); docs/audit-trail.md lists every action of each.
 */
export const ADMIN_CHANGE_KINDS = [
  'alert-destination',
  'threshold',
  'integration',
  'token',
  'sign-in',
  'sign-in-lock',
  'session',
  'learned-limits',
  'blocks',
  'demo',
  'audit',
] as const;
export type AdminChangeKind = (typeof ADMIN_CHANGE_KINDS)[number];

/** One administrative change. Secrets in `before` and `after` are `sha256:` fingerprints. */
export const AdminChangeSchema = z.object({
  id: z.string(),
  at: z.string(),
  /** The person who made it; for a token, the token's owner. */
  user: z.string(),
  /** The token it was made with, when one was used. */
  token: z.nullable(z.object({ id: z.string(), name: z.string() })),
  /** The client's address as the console saw it (`unknown` when it could not tell). */
  address: z.string(),
  /** `<kind>.<verb>`, e.g. `threshold.changed`. */
  action: z.string(),
  /** What it concerned: an id or a name; null for the console as a whole. */
  target: z.nullable(z.string()),
  /** The state before (null: it did not exist) and after (null: it no longer exists). */
  before: z.nullable(z.record(z.string(), z.unknown())),
  after: z.nullable(z.record(z.string(), z.unknown())),
  /**
   * The platform connection it was made in; `default` for changes of the console as a whole and
   * for those made before a console served several connections.
   */
  connection: z.string(),
});
export type AdminChange = z.infer<typeof AdminChangeSchema>;

/** One page of changes, newest first. */
export const AdminChangePageSchema = z.object({
  items: z.array(AdminChangeSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type AdminChangePage = z.infer<typeof AdminChangePageSchema>;

/**
 * `POST /api/audit-trail/changes/export`: the changes matching the list's filters (the same
 * meaning as its query) as CSV or JSON, streamed; the detached signature is fetched afterwards by
 * the export id, as for the lookups' export.
 */
export const AdminChangeExportRequestSchema = z.strictObject({
  format: z.enum(AUDIT_EXPORT_FORMATS),
  filters: z.optional(
    z.strictObject({
      since: z.optional(z.string().check(z.maxLength(40))),
      until: z.optional(z.string().check(z.maxLength(40))),
      kind: z.optional(z.string().check(z.maxLength(32))),
      user: z.optional(z.string().check(z.maxLength(64))),
      connection: z.optional(z.string().check(z.maxLength(32))),
    }),
  ),
});
export type AdminChangeExportRequest = z.infer<typeof AdminChangeExportRequestSchema>;
