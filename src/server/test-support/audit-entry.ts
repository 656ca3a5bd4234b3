// One successful lookup as the audit store records it, for tests that fill a trail.
import type { AuditEntry } from '../store/audit-store';

/** An admin's `v4-details` lookup at `at` that found its subject; `overrides` replace any field. */
export function sampleAuditEntry(at: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    at,
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
