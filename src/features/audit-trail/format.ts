// Words of the audit page, fixed to English like the rest of the UI.
import type { AuditOutcome, AuditParam, AuditRecord } from '../../shared/audit-trail';
import { OUTCOME_LABELS } from '../../shared/audit-words';

const OUTCOME_TONES: Readonly<Record<AuditOutcome, 'good' | 'none' | 'wait' | 'bad'>> = {
  ok: 'good',
  'not-found': 'none',
  invalid: 'wait',
  'rate-limited': 'wait',
  error: 'bad',
};

/** How each outcome reads (shared/audit-words.ts), and its tone. */
export const OUTCOME_TEXT = Object.fromEntries(
  Object.entries(OUTCOME_LABELS).map(([outcome, label]) => [
    outcome,
    { label, tone: OUTCOME_TONES[outcome as AuditOutcome] },
  ]),
) as Readonly<Record<AuditOutcome, { label: string; tone: 'good' | 'none' | 'wait' | 'bad' }>>;

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
