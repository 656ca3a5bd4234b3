// How a sign-in (by password or through the identity provider) reaches the audit trail: recorded
// like every administrative change, but never refused when the trail cannot take the entry.
import type { RecordChange } from '../http/admin-change';

/**
 * `recordChange` for sign-ins: a full or unreachable store must not lock out the people who look
 * at /readyz and fix it, so a failed write resolves; the recorder has logged it at error level.
 */
export function signInRecorder(recordChange: RecordChange): RecordChange {
  return (c, change) => recordChange(c, change).catch(() => undefined);
}
