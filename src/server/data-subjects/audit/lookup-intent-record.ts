// Builds a lookup's intent record from what is asked (written before anything is sent), and the
// 503 that withholds an answer, or sends nothing, when the trail cannot take the record. Plain
// values only, so the lookup use case runs the same with or without HTTP.
import type { AuditOutcome } from '../../../shared/audit-trail';
import type { LookupRequest } from '../../../shared/data-subject-lookups';
import type { LookupPurpose } from '../../../shared/lookup-purpose';
import { DATA_SUBJECT_PROBLEM_TYPES } from '../../../shared/data-subject-operations';
import type { DataSubjectLookups } from '../data-subject-lookups';
import { HttpProblem } from '../../http/problem';
import type { LookupIntent } from './lookup-audit-writer';

/** Who asks for what, as the lookup's caller knows it. */
export interface LookupAsker {
  readonly user: string;
  /** The name of the token for scripts that asked, if one did. */
  readonly token?: string | undefined;
  /** The id of the request that asked, to find its log lines; null outside a request. */
  readonly requestId: string | null;
  /** The request, when it could be read; absent when it was not a lookup request at all. */
  readonly request: LookupRequest | undefined;
  /** The identifier the request names, as given: what the audit hashes. */
  readonly identifier: string | undefined;
  /** Why the person is looked up; null when none was stated (LOOKUP_PURPOSE optional or off). */
  readonly purpose?: LookupPurpose | null;
  /** The client's address as the console sees it; only for the entry's log line and alert. */
  readonly address?: string | null;
}

/** Who asks for what: the audit's account of a lookup before its outcome is known. */
export function lookupIntent(
  lookups: DataSubjectLookups,
  { user, token, requestId, request, identifier, purpose, address }: LookupAsker,
): LookupIntent {
  const operation = request ? lookups.find(request.operation) : undefined;
  return {
    user,
    token,
    operation: operation?.id ?? 'unknown',
    identifier,
    continued: request?.continuation !== undefined,
    requestId,
    purpose,
    address,
    params: request?.params,
    identifierParams: operation?.params
      .filter((param) => param.format === 'identifier')
      .map((param) => param.name),
  };
}

/** Where a lookup's record was refused: its intent (nothing sent), or its outcome (answer withheld). */
export type AuditStage = 'intent' | AuditOutcome;

/** The message logged when the trail refuses a lookup's record at `stage`. */
export function auditWithheldMessage(stage: AuditStage): string {
  return stage === 'intent'
    ? 'lookup intent could not be written to the audit trail; nothing sent'
    : 'lookup could not be written to the audit trail; answer withheld';
}

/**
 * The 503 when the trail cannot take a lookup's record. `stage` `intent`: nothing was sent;
 * otherwise the answer is withheld.
 */
export function auditWithheldProblem(stage: AuditStage): HttpProblem {
  return new HttpProblem({
    type: DATA_SUBJECT_PROBLEM_TYPES.auditUnavailable,
    title: 'The lookup could not be recorded in the audit trail',
    status: 503,
    detail:
      stage === 'intent'
        ? 'Every lookup of personal data is recorded before it is made, and the audit trail cannot take records now (the console’s store is full, failing, read-only or unreachable), so nothing was sent to the privacy platform. Try again once the store is back; /readyz shows its state.'
        : 'Every lookup of personal data must be accounted for, so its answer was withheld. Try again; if it persists, the console’s store needs attention.',
  });
}
