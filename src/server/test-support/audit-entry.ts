// One successful lookup as the audit store records it, for tests that fill a trail.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import type { AuditEntry } from '../data-subjects/audit/audit-record-store';

/** An admin's `v4-details` lookup at `at` that found its subject; `overrides` replace any field. */
export function sampleAuditEntry(at: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    at,
    connection: DEFAULT_CONNECTION,
    user: 'admin',
    operation: 'v4-details',
    outcome: 'ok',
    status: 200,
    detail: null,
    identifierHash: 'a'.repeat(64),
    keyId: 'k',
    continued: false,
    requestId: null,
    ...overrides,
  };
}

/** Empties the audit trail's tables and sets the chain back to its start, between tests. */
export const RESET_AUDIT_TRAIL_SQL = `DELETE FROM lookup_audit; DELETE FROM lookup_audit_subjects;
  DELETE FROM audit_chain; DELETE FROM audit_verifications; DELETE FROM audit_checkpoints;
  DELETE FROM admin_changes;
  UPDATE audit_chain_state SET seq = 0, hash = '${'0'.repeat(64)}', checkpoint = NULL,
    last_retention = NULL, legacy_records = 0`;
