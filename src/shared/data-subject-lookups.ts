// A data-subject lookup as the SPA asks for it and the BFF answers it, and the tolerant schemas the
// BFF reads the upstream's answers with: upstream-api.md shows none of their fields, so the
// console checks only the structure it lays out (lists where it expects lists) and keeps every
// field it does not know.
import * as z from 'zod/mini';
import { CONTINUATION_MAX_LENGTH, type AnswerKind } from './data-subject-operations';

/** `POST /api/data-subjects/lookups`: one operation of the catalog with its parameters. */
export const LookupRequestSchema = z.strictObject({
  operation: z.string().check(z.minLength(1), z.maxLength(64)),
  params: z.optional(
    z.record(
      z.string().check(z.maxLength(64)),
      z.union([z.string().check(z.maxLength(4_096)), z.number(), z.null()]),
    ),
  ),
  /** The continuation token of the previous page ("load more"). */
  continuation: z.optional(z.string().check(z.minLength(1), z.maxLength(CONTINUATION_MAX_LENGTH))),
});
export type LookupRequest = z.infer<typeof LookupRequestSchema>;

/** The BFF's answer to a lookup. */
export const LookupResponseSchema = z.object({
  operation: z.string(),
  /** The upstream's answer, validated; unknown fields kept. */
  data: z.unknown(),
  /** Pass back as `continuation` for the next page; absent on the last page. */
  continuation: z.optional(z.string()),
  fetchedAt: z.iso.datetime(),
});
export type LookupResponse = z.infer<typeof LookupResponseSchema>;

const Text = z.optional(z.nullable(z.string()));

/** One purpose of a data subject. */
export const PurposeSchema = z.looseObject({
  purposeGuid: Text,
  purposeName: Text,
  status: Text,
});

/** A data subject, with or without its purposes. */
export const SubjectSchema = z.looseObject({
  dataSubjectGuid: Text,
  identifier: Text,
  purposes: z.optional(z.nullable(z.array(PurposeSchema))),
});

/** A link token. */
export const LinkTokenSchema = z.looseObject({ token: Text, identifier: Text });

/** A linked identity group with its members. */
export const GroupSchema = z.looseObject({
  members: z.optional(z.nullable(z.array(z.looseObject({ identifier: Text })))),
});

const page = <T extends z.ZodMiniType>(item: T) => z.looseObject({ content: z.array(item) });

/** The schema that validates an answer of each kind. */
export const ANSWER_SCHEMAS: Readonly<Record<AnswerKind, z.ZodMiniType>> = {
  subject: SubjectSchema,
  'subject-purposes': SubjectSchema,
  'profile-page': page(SubjectSchema),
  'purpose-page': page(PurposeSchema),
  'link-token': LinkTokenSchema,
  'link-token-page': page(LinkTokenSchema),
  'group-page': page(GroupSchema),
  group: GroupSchema,
};

/** True for answers that list records under `content`. */
export function isPageAnswer(kind: AnswerKind): boolean {
  return kind.endsWith('-page');
}
