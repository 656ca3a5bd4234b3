// A lookup as rows of lookup_audit and lookup_audit_subjects, read back the two ways the trail
// needs (as the audit page shows it, and as the chain walk compares it), and as the payloads of
// its two chain entries (intent, outcome). Every store of the trail reads a lookup through here.
import * as z from 'zod';
import { AUDIT_OUTCOMES, type AuditParam, type AuditRecord } from '../../../shared/audit-trail';
import type { LookupPurpose } from '../../../shared/lookup-purpose';
import { flag, integer } from '../../store/typed-rows';

/** A shown key as stored; kind and person are null on records made before they were kept. */
export interface StoredShownKey {
  hash: string;
  kind: string | null;
  person: number | null;
}

/** A record's columns as stored. */
export interface StoredAuditRow {
  id: string;
  at: string;
  username: string;
  operation: string;
  outcome: string;
  status: number;
  detail: string | null;
  identifierHash: string | null;
  keyId: string;
  continued: boolean;
  requestId: string | null;
  params: string | null;
  purposeCategory: string | null;
  purposeReference: string | null;
  recordCount: number | null;
  subjectCount: number;
  completed: boolean;
  tokenName: string | null;
  /** The platform connection the lookup went to. */
  connection: string;
}

// Row schemas are built once, here: zod compiles an object schema on its first parse, so one built
// inside a method pays that compile (about 0.1 ms) on every call.
export const AuditRowSchema = z.object({
  id: z.string(),
  at: z.string(),
  username: z.string(),
  operation: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
  status: integer,
  detail: z.string().nullable(),
  identifier_hash: z.string().nullable(),
  key_id: z.string(),
  continued: flag,
  request_id: z.string().nullable(),
  params: z.string().nullable(),
  purpose_category: z.string().nullable(),
  purpose_reference: z.string().nullable(),
  record_count: integer.nullable(),
  subject_count: integer,
  completed: flag,
  token_name: z.string().nullable(),
  connection: z.string(),
  matched_by: z.string().nullable().optional(),
});
export type AuditRow = z.infer<typeof AuditRowSchema>;

/** The columns of lookup_audit a record is read with (AuditRowSchema). */
export const COLUMNS = `id, at, username, operation, outcome, status, detail, identifier_hash, key_id,
  continued, request_id, params, record_count, subject_count, completed, token_name,
  purpose_category, purpose_reference, connection`;

/** A row of lookup_audit_subjects: one key an answer showed. */
export const ShownKeyRowSchema = z.object({
  audit_id: z.string(),
  identifier_hash: z.string(),
  kind: z.string().nullable(),
  person: integer.nullable(),
});

export const storedKey = (row: z.infer<typeof ShownKeyRowSchema>): StoredShownKey => ({
  hash: row.identifier_hash,
  kind: row.kind,
  person: row.person,
});

/** Shown keys in the order the chain covers them: by hash. */
export const byHash = (a: StoredShownKey, b: StoredShownKey) =>
  a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0;

/**
 * How many data subjects an answer showed: its distinct persons (keys shown as one person count
 * once); a key kept without a person (records made before persons were) counts as one.
 */
export function personCount(keys: readonly StoredShownKey[]): number {
  return new Set(keys.map((key) => (key.person === null ? `key:${key.hash}` : key.person))).size;
}

function parseParams(text: string | null): AuditParam[] | undefined {
  if (text === null) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as AuditParam[]) : undefined;
  } catch {
    return undefined;
  }
}

/** What a row says happened, read the same way for the trail and for the chain walk. */
function outcomeOf(row: AuditRow) {
  return {
    operation: row.operation,
    outcome: row.outcome,
    status: row.status,
    detail: row.detail,
  };
}

/** The purpose a record states; null when none was recorded (records made before, `optional`). */
function purposeOf(row: AuditRow): LookupPurpose | null {
  return row.purpose_category !== null && row.purpose_reference !== null
    ? { category: row.purpose_category, reference: row.purpose_reference }
    : null;
}

/** A record as the trail shows it: no hashes, no key id. */
export function toRecord(row: AuditRow): AuditRecord {
  const params = parseParams(row.params);
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    user: row.username,
    ...(row.token_name === null ? {} : { token: row.token_name }),
    connection: row.connection,
    ...outcomeOf(row),
    identifierHashed: row.identifier_hash !== null,
    continued: row.continued,
    completed: row.completed,
    ...(params ? { params } : {}),
    purpose: purposeOf(row),
    recordCount: row.record_count,
    subjectCount: row.subject_count,
    ...(row.matched_by === 'asked' || row.matched_by === 'shown' || row.matched_by === 'both'
      ? { matchedBy: row.matched_by }
      : {}),
  };
}

/** A record as stored, every column, for the chain walk and the trail's stream. */
export function toStored(row: AuditRow): StoredAuditRow {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    username: row.username,
    ...outcomeOf(row),
    identifierHash: row.identifier_hash,
    keyId: row.key_id,
    continued: row.continued,
    requestId: row.request_id,
    params: row.params,
    purposeCategory: row.purpose_category,
    purposeReference: row.purpose_reference,
    recordCount: row.record_count,
    subjectCount: row.subject_count,
    completed: row.completed,
    tokenName: row.token_name,
    connection: row.connection,
  };
}

/** The versions of an intent entry's payload; the newest is written, every one is verified. */
export type IntentPayloadVersion = 1 | 2 | 3;

/**
 * The payload of a lookup's intent entry: exactly the columns it wrote. Version 3 covers the
 * platform connection, so a record cannot be moved to another connection afterwards; version 2
 * covers the purpose (null when none was stated), so it cannot be added, edited or removed
 * afterwards; version 1, written before purposes were kept, covers the rest alone. Versions 1
 * and 2 were written before connections existed: their records are `default`'s.
 */
export function intentPayload(
  row: {
    id: string;
    at: string;
    username: string;
    operation: string;
    identifierHash: string | null;
    keyId: string;
    continued: boolean;
    requestId: string | null;
    params: string | null;
    tokenName: string | null;
    purposeCategory: string | null;
    purposeReference: string | null;
    connection: string;
  },
  version: IntentPayloadVersion = 3,
): string {
  const fields = {
    kind: 'intent',
    id: row.id,
    at: row.at,
    user: row.username,
    operation: row.operation,
    identifierHash: row.identifierHash,
    keyId: row.keyId,
    continued: row.continued,
    requestId: row.requestId,
    params: row.params,
    // Only when set: an intent written before tokens existed has the same payload as it had.
    ...(row.tokenName === null ? {} : { token: row.tokenName }),
  };
  if (version === 1) return JSON.stringify(fields);
  const purpose =
    row.purposeCategory === null && row.purposeReference === null
      ? null
      : [row.purposeCategory, row.purposeReference];
  if (version === 2) return JSON.stringify({ ...fields, v: 2, purpose });
  return JSON.stringify({ ...fields, v: 3, purpose, connection: row.connection });
}

/**
 * The payload of a lookup's outcome entry: the columns it wrote and the keys it showed, sorted by
 * hash. Version 2 covers each key's kind and person (the links a search follows); version 1,
 * written before, covers the hashes alone.
 */
export function outcomePayload(
  row: {
    id: string;
    at: string;
    outcome: string;
    status: number;
    detail: string | null;
    recordCount: number | null;
    subjects: readonly StoredShownKey[];
  },
  version: 1 | 2 = 2,
): string {
  const sorted = [...row.subjects].sort(byHash);
  const fields = {
    kind: 'outcome',
    id: row.id,
    recordAt: row.at,
    outcome: row.outcome,
    status: row.status,
    detail: row.detail,
    recordCount: row.recordCount,
  };
  if (version === 1) {
    return JSON.stringify({ ...fields, subjects: sorted.map((key) => key.hash) });
  }
  return JSON.stringify({
    ...fields,
    v: 2,
    keys: sorted.map((key) => [key.hash, key.kind, key.person]),
  });
}
