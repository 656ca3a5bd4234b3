// The lookup route's side of the audit: what a lookup is about to ask (its intent, written
// before anything is sent), and the 503 that withholds an answer, or sends nothing, when the
// trail cannot take the record.
import type { Context } from 'hono';
import type { LookupRequest } from '../../../shared/data-subject-lookups';
import { DATA_SUBJECT_PROBLEM_TYPES } from '../../../shared/data-subject-operations';
import type { AppEnv } from '../../app-env';
import type { DataSubjectLookups } from '../data-subject-lookups';
import type { Logger } from '../../logger';
import { problemResponse } from '../../problem';
import type { LookupIntent } from './lookup-audit';

/** Who asks for what: the audit's account of a lookup before its outcome is known. */
export function lookupIntent(
  lookups: DataSubjectLookups,
  user: string,
  request: LookupRequest | undefined,
  identifier: string | undefined,
  c: Context<AppEnv>,
): LookupIntent {
  const operation = request ? lookups.find(request.operation) : undefined;
  return {
    user,
    operation: operation?.id ?? 'unknown',
    identifier,
    continued: request?.continuation !== undefined,
    requestId: c.get('requestId') ?? null,
    params: request?.params,
    identifierParams: operation?.params
      .filter((param) => param.format === 'identifier')
      .map((param) => param.name),
  };
}

/**
 * The 503 when the trail cannot take a lookup's record. `stage` `intent`: nothing was sent;
 * otherwise the answer is withheld.
 */
export function auditWithheld(
  c: Context<AppEnv>,
  logger: Logger,
  error: unknown,
  operation: string,
  stage: string,
) {
  // Never the identifier: the operation and the stage are enough to find the cause.
  logger.error(
    { err: error, operation, outcome: stage },
    stage === 'intent'
      ? 'lookup intent could not be written to the audit trail; nothing sent'
      : 'lookup could not be written to the audit trail; answer withheld',
  );
  return problemResponse(c, {
    type: DATA_SUBJECT_PROBLEM_TYPES.auditUnavailable,
    title: 'The lookup could not be recorded in the audit trail',
    status: 503,
    detail:
      stage === 'intent'
        ? 'Every lookup of personal data is recorded before it is made, and the audit trail cannot take records now (the console’s store is full, read-only or unreachable), so nothing was sent to the privacy platform. Try again once the store is back; /readyz shows its state.'
        : 'Every lookup of personal data must be accounted for, so its answer was withheld. Try again; if it persists, the console’s store needs attention.',
  });
}
