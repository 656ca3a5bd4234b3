// Why a person is looked up: a category from the console's list and a reference (a ticket or
// request id), stated once per investigation and sent with each lookup, kept in the audit trail.
import * as z from 'zod/mini';

/** The categories offered when LOOKUP_PURPOSE_CATEGORIES does not name others. */
export const DEFAULT_PURPOSE_CATEGORIES = [
  'access request',
  'erasure request',
  'rectification',
  'complaint',
  'support ticket',
  'legal hold',
  'other',
] as const;

/** Whether a lookup must state a purpose (LOOKUP_PURPOSE). */
export const PURPOSE_MODES = ['required', 'optional', 'off'] as const;
export type PurposeMode = (typeof PURPOSE_MODES)[number];

/** The longest category name and reference: a ticket id, never a paragraph. */
export const PURPOSE_CATEGORY_MAX_LENGTH = 64;
export const PURPOSE_REFERENCE_MAX_LENGTH = 80;

/** A lookup's purpose as the SPA and scripts send it; the category is checked against the list. */
export const LookupPurposeSchema = z.strictObject({
  category: z.string().check(z.minLength(1), z.maxLength(PURPOSE_CATEGORY_MAX_LENGTH)),
  reference: z.string().check(z.minLength(1), z.maxLength(PURPOSE_REFERENCE_MAX_LENGTH)),
});
export type LookupPurpose = z.infer<typeof LookupPurposeSchema>;
