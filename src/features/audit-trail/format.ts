// Words of the audit page, fixed to English like the rest of the UI.
import type { AuditOutcome, AuditParam, AuditRecord } from '../../shared/audit-trail';
import { BUILT_IN_OPERATIONS, operationLabel } from '../../shared/data-subject-operations';

/** How each outcome reads, and its tone. */
export const OUTCOME_TEXT: Readonly<
  Record<AuditOutcome, { label: string; tone: 'good' | 'none' | 'wait' | 'bad' }>
> = {
  ok: { label: 'Answered', tone: 'good' },
  'not-found': { label: 'Not found', tone: 'none' },
  invalid: { label: 'Refused: invalid', tone: 'wait' },
  'rate-limited': { label: 'Rate limited', tone: 'wait' },
  error: { label: 'Failed', tone: 'bad' },
};

/** "v4 · Details with purposes" for an operation id of the catalog. */
export function operationTitle(id: string): string {
  const operation = BUILT_IN_OPERATIONS.find((candidate) => candidate.id === id);
  return operation ? operationLabel(operation) : 'Unknown operation';
}

/** How a search result relates to the identifier searched for. */
export const MATCH_TEXT: Readonly<Record<NonNullable<AuditRecord['matchedBy']>, string>> = {
  asked: 'Asked for it',
  shown: 'Shown in the answer',
  both: 'Asked for and shown',
  linked: 'Linked: another key of the person',
};

/** The person's keys a search result matched by, in words. */
export const KEY_TEXT: Readonly<Record<NonNullable<AuditRecord['matchedKeys']>[number], string>> = {
  identifier: 'identifier',
  'subject-id': 'data-subject id',
  'link-token': 'link token',
};

/** "by data-subject id and link token, linked through another lookup", for a search result. */
export function matchedKeysText(record: AuditRecord): string | null {
  if (!record.matchedKeys?.length) return null;
  const keys = record.matchedKeys.map((kind) => KEY_TEXT[kind]);
  const list = keys.length > 1 ? `${keys.slice(0, -1).join(', ')} and ${keys.at(-1)}` : keys[0];
  return record.matchedThroughLink
    ? `by ${list}, shown with the searched key in another lookup`
    : `by ${list}`;
}

/** The parameters asked, in words; identifiers only as "(hashed)". */
export function paramsText(params: readonly AuditParam[] | undefined): string {
  return (params ?? [])
    .map((param) => `${param.name}: ${param.hashed ? '(hashed)' : (param.value ?? '')}`)
    .join(' · ');
}
