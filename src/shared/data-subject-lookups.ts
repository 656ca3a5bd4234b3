// A data-subject lookup as the SPA asks for it and the BFF answers it, and which documented schema
// of the platform contract reads each operation's answer (keeping every field it does not know).
import * as z from 'zod/mini';
import { contractOperation } from './data-subject-contract';
import { CONTINUATION_MAX_LENGTH, type DataSubjectOperation } from './data-subject-operations';
import { LookupPurposeSchema } from './lookup-purpose';

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
  /** Why the person is looked up (LOOKUP_PURPOSE says whether it is required). */
  purpose: z.optional(LookupPurposeSchema),
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

/**
 * The schema an operation's answer must match: its documented schema from the platform contract,
 * found by the vendor operation id the catalog names. Unknown fields are kept, never dropped.
 */
export function answerSchemaOf(operation: Pick<DataSubjectOperation, 'operationId'>) {
  return contractOperation(operation.operationId)?.answer;
}
