// The lookup audit trail as the BFF answers it and the SPA reads it: who looked up personal data,
// when, with which operation, what it asked for, how many records came back and what came of it.
// Identifiers are never part of it: the trail keeps them only as keyed hashes.
import * as z from 'zod/mini';
import { LookupPurposeSchema } from './lookup-purpose';
import { PERSON_KEY_KINDS } from './data-subject-contract';
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

/**
 * One parameter a lookup asked with: dates, filters and ids as given; an identifier only as
 * `hashed` (its value is never kept).
 */
const AuditParamSchema = z.object({
  name: z.string(),
  /** The value as sent; absent for identifiers. */
  value: z.optional(z.string()),
  /** True when the parameter was an identifier, kept as a keyed hash. */
  hashed: z.optional(z.boolean()),
});
export type AuditParam = z.infer<typeof AuditParamSchema>;

/** One lookup of personal data. */
export const AuditRecordSchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  /** The console user who made it (for a token: the token's owner). */
  user: z.string(),
  /** The name of the token for scripts it was made with; absent when a person made it. */
  token: z.optional(z.string()),
  /**
   * The platform connection the lookup went to (`default` for records made before a console
   * served several). A person search answers sights in every connection, each naming its own.
   */
  connection: z.string(),
  /** Catalog operation id, or `unknown` when the request named none the catalog has. */
  operation: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
  /** The HTTP status the console answered with (0 while the lookup is still running). */
  status: z.int(),
  /** A short, non-personal note: the problem type, the incident id of a 429. */
  detail: z.nullable(z.string()),
  /** Whether the lookup named a data subject (its identifier is stored only as a keyed hash). */
  identifierHashed: z.boolean(),
  /** True for a "load more" page of an earlier lookup. */
  continued: z.boolean(),
  /**
   * False while the lookup is under way, and for good when the console stopped before its
   * outcome could be written (the intent was recorded before anything was sent).
   */
  completed: z.optional(z.boolean()),
  /** The parameters asked (identifiers hashed); absent on records made before they were kept. */
  params: z.optional(z.array(AuditParamSchema)),
  /** Why the person was looked up; null when no purpose was recorded (older records, `optional`). */
  purpose: z.optional(z.nullable(LookupPurposeSchema)),
  /** Records the answer held (slice `content`, a list's length, 1 for one object). */
  recordCount: z.optional(z.nullable(z.int())),
  /** Distinct data subjects (identifiers) the answer showed. */
  subjectCount: z.optional(z.int()),
  /**
   * Search results only: whether the key searched for was asked for, shown in the answer, or both;
   * `linked` when neither, and the record matched only through another key of the person.
   */
  matchedBy: z.optional(z.enum(['asked', 'shown', 'both', 'linked'])),
  /**
   * Search results only: which of the person's keys matched (the identifier, the platform's
   * data-subject id, a link token): the searched key's kinds, or, for a match through a link, the
   * kinds of the linked keys. Absent on records made before kinds were kept.
   */
  matchedKeys: z.optional(z.array(z.enum(PERSON_KEY_KINDS))),
  /**
   * Search results only: true when the record matched through a key another lookup showed
   * together with the one searched (the same person under another key), not the key itself.
   */
  matchedThroughLink: z.optional(z.boolean()),
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;

/** A page of the trail, newest first. */
export const AuditPageSchema = z.object({
  items: z.array(AuditRecordSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;

/** How a searched identifier was matched (identifier-match rules, below). */
const AuditMatchSchema = z.object({
  /** `email`: compared without regard to case; `exact`: as typed, spaces around it aside. */
  rule: z.enum(['email', 'exact']),
  /** How many spellings were compared (the normalised one, and the one typed for old records). */
  forms: z.int(),
});
export type AuditMatch = z.infer<typeof AuditMatchSchema>;

/** The keys of the person a search compared: the typed one and those linked to it. */
const AuditSearchLinksSchema = z.object({
  /** Keys compared (hashes), the typed one's included. */
  keys: z.int(),
  /** The most a search follows. */
  max: z.int(),
  /**
   * False when the bound cut the search short: a lookup that showed the person only under a key
   * beyond it is not among the results.
   */
  complete: z.boolean(),
});
export type AuditSearchLinks = z.infer<typeof AuditSearchLinksSchema>;

/** The answer of a search: a page, how the identifier was matched, and the links followed. */
export const AuditSearchPageSchema = z.object({
  items: z.array(AuditRecordSchema),
  nextCursor: z.nullable(z.string()),
  match: AuditMatchSchema,
  links: AuditSearchLinksSchema,
});
export type AuditSearchPage = z.infer<typeof AuditSearchPageSchema>;

/** Longest identifier a search accepts (the same bound as a lookup's). */
export const AUDIT_SEARCH_MAX_LENGTH = IDENTIFIER_MAX_LENGTH;

/** `POST /api/audit-trail/search`: the identifier travels in the body, never in a URL. */
export const AuditSearchRequestSchema = z.strictObject({
  identifier: z.string().check(z.minLength(1), z.maxLength(AUDIT_SEARCH_MAX_LENGTH)),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(600))),
});
export type AuditSearchRequest = z.infer<typeof AuditSearchRequestSchema>;

/** Export formats. */
export const AUDIT_EXPORT_FORMATS = ['csv', 'json'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];

/** What a signed file may be: a trail export, or the accountability report as Markdown too. */
export const SIGNED_FILE_FORMATS = [...AUDIT_EXPORT_FORMATS, 'md'] as const;

/** The trail's filters as an export names them (the same meaning as the list's query). */
const AuditExportFiltersSchema = z.strictObject({
  since: z.optional(z.string().check(z.maxLength(40))),
  until: z.optional(z.string().check(z.maxLength(40))),
  user: z.optional(z.string().check(z.maxLength(64))),
  operation: z.optional(z.string().check(z.maxLength(64))),
  outcome: z.optional(z.string().check(z.maxLength(32))),
  reference: z.optional(z.string().check(z.maxLength(80))),
  category: z.optional(z.string().check(z.maxLength(64))),
  connection: z.optional(z.string().check(z.maxLength(32))),
});
export type AuditExportFilters = z.infer<typeof AuditExportFiltersSchema>;

/**
 * `POST /api/audit-trail/export`: the records of a search (`identifier`) or of filters, as CSV or
 * JSON. The answer streams; its detached signature is fetched afterwards by the export id.
 */
export const AuditExportRequestSchema = z.strictObject({
  format: z.enum(AUDIT_EXPORT_FORMATS),
  identifier: z.optional(z.string().check(z.minLength(1), z.maxLength(AUDIT_SEARCH_MAX_LENGTH))),
  filters: z.optional(AuditExportFiltersSchema),
});
export type AuditExportRequest = z.infer<typeof AuditExportRequestSchema>;

/**
 * The detached signature of an export: Ed25519 over the manifest's fields as documented lines
 * (docs/audit-trail.md, "What is signed"), so `jq` and `openssl` alone verify it.
 */
export const AuditExportSignatureSchema = z.object({
  /** 2: signed over the documented lines (docs/audit-trail.md); 1: older exports. */
  version: z.union([z.literal(1), z.literal(2)]),
  algorithm: z.literal('Ed25519'),
  exportId: z.string(),
  createdAt: z.iso.datetime(),
  format: z.enum(SIGNED_FILE_FORMATS),
  /** What was exported, in words: the filters, or "search by identifier (hashed)". */
  scope: z.string(),
  records: z.int(),
  bytes: z.int(),
  /** Hex SHA-256 of the export file's bytes. */
  sha256: z.string(),
  /** SHA-256 fingerprint of the public key (hex, first 16 characters). */
  keyFingerprint: z.string(),
  /** The public key, PEM (SPKI): compare its fingerprint with the one the operator published. */
  publicKey: z.string(),
  signature: z.string(),
});
export type AuditExportSignature = z.infer<typeof AuditExportSignatureSchema>;

/** One walk of the hash chain, by the daily job, `npm run audit -- verify` or the page. */
export const AuditVerificationSchema = z.object({
  at: z.iso.datetime(),
  ok: z.boolean(),
  entries: z.int(),
  /** The first broken link, when not ok. */
  brokenAt: z.nullable(z.int()),
  detail: z.string(),
  source: z.string(),
});

/** The trail's integrity as the audit page shows it. */
export const AuditIntegritySchema = z.object({
  /** The last walk of the hash chain. */
  lastVerification: z.nullable(AuditVerificationSchema),
  /** The retention kept and its last run. */
  retention: z.object({
    days: z.int(),
    lastRun: z.nullable(
      z.object({ at: z.iso.datetime(), deleted: z.int(), cutoff: z.iso.datetime() }),
    ),
  }),
  /** Largest export, in records. */
  exportMaxRecords: z.int(),
  /** Entries written to the chain since the last walk found it intact (null: never walked). */
  entriesSinceVerification: z.nullable(z.int()),
  /** Signed checkpoints of the chain's head (docs/audit-trail.md, "Checkpoints"). */
  checkpoints: z.object({
    /** Minutes between them while the chain grows. */
    everyMinutes: z.int(),
    /** Whether copies go to AUDIT_CHECKPOINT_DIR, outside the database. */
    outsideDirectory: z.boolean(),
    /**
     * The last checkpoint AUDIT_CHECKPOINT_DIR could not take (a file that is not the console's
     * regular file, storage that fails or hangs), until a later one is written there.
     */
    outsideFailure: z.nullable(z.object({ at: z.iso.datetime(), error: z.string() })),
    /** The latest kept in the database, if any. */
    latest: z.nullable(
      z.object({ seq: z.int(), at: z.iso.datetime(), keyFingerprint: z.string() }),
    ),
  }),
});
export type AuditIntegrity = z.infer<typeof AuditIntegritySchema>;

/** Page sizes of the trail. */
export const AUDIT_QUERY_LIMITS = { defaultPageSize: 50, maxPageSize: 200 } as const;

/**
 * The form identifiers were hashed in before e-mail addresses were matched without regard to
 * case: surrounding spaces and Unicode composition aside, exactly as typed. Searches still hash
 * this form too, so records made before are found by the spelling they were made with.
 */
export function normalizeIdentifier(identifier: string): string {
  return identifier.trim().normalize('NFC');
}

// One "@" with text on both sides and no spaces: the shape of an e-mail address. Identifiers of
// other types (customer ids, phone numbers) are left exactly as they are.
const EMAIL = /^[^\s@]+@[^\s@]+$/u;
// A UUID (the platform's data-subject ids): its hex digits mean the same in either case.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

/** Whether an identifier is matched as an e-mail address (case-insensitive). */
export function isEmailIdentifier(identifier: string): boolean {
  return EMAIL.test(normalizeIdentifier(identifier));
}

/**
 * The form the trail hashes an identifier in, the way the platform matches them: e-mail
 * addresses without regard to case (the platform types them `Email` and treats one address as one
 * data subject however it is capitalised) and UUIDs such as data-subject ids without regard to
 * case, every other identifier exactly as given; surrounding
 * spaces and Unicode composition never matter.
 */
export function canonicalIdentifier(identifier: string): string {
  const normal = normalizeIdentifier(identifier);
  return EMAIL.test(normal) || UUID.test(normal) ? normal.toLowerCase() : normal;
}
