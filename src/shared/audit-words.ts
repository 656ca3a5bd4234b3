// The audit trail's codes in the words the audit page shows, written once for the page and the
// signed CSV export (whose word columns sit beside the stable code columns scripts read).
import type { AuditOutcome, AuditRecord } from './audit-trail';
import { BUILT_IN_OPERATIONS, operationLabel } from './data-subject-operations';

/** How each outcome reads. */
export const OUTCOME_LABELS: Readonly<Record<AuditOutcome, string>> = {
  ok: 'Answered',
  'not-found': 'Not found',
  invalid: 'Refused: invalid',
  'rate-limited': 'Rate limited',
  error: 'Failed',
};

/** How a search result relates to the identifier searched for. */
export const MATCH_TEXT: Readonly<Record<NonNullable<AuditRecord['matchedBy']>, string>> = {
  asked: 'Asked for it',
  shown: 'Shown in the answer',
  both: 'Asked for and shown',
  linked: 'Linked: another key of the person',
};

/** "v4 · Details with purposes" for an operation id of the catalog. */
export function operationTitle(id: string): string {
  const operation = BUILT_IN_OPERATIONS.find((candidate) => candidate.id === id);
  return operation ? operationLabel(operation) : 'Unknown operation';
}
