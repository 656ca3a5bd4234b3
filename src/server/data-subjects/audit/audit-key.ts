// The key of the identifier HMAC in the lookup audit trail. Live mode requires AUDIT_KEY; demo mode
// generates one on first start and keeps it under DATA_DIR (mode 600), so identifiers hashed
// before a restart are still found after it.
import { loadOrCreateKeyFile } from '../../security/key-file';

/** The key file inside DATA_DIR (demo mode). */
export const AUDIT_KEY_FILE = 'audit-key';

/** Could not read or create the demo-mode key file. */
export class AuditKeyError extends Error {
  override name = 'AuditKeyError';
}

/** The demo-mode key kept in `dataDir` (security/key-file.ts). */
export function loadOrCreateAuditKey(dataDir: string): string {
  try {
    return loadOrCreateKeyFile(dataDir, AUDIT_KEY_FILE);
  } catch (error) {
    throw new AuditKeyError(
      `could not read or create the audit key in DATA_DIR ${dataDir}: ${(error as Error).message}`,
    );
  }
}
