// The key of the identifier HMAC in the lookup audit trail. Live mode requires AUDIT_KEY; demo mode
// generates one on first start and keeps it under DATA_DIR (mode 600), so identifiers hashed
// before a restart are still found after it.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The key file inside DATA_DIR (demo mode). */
export const AUDIT_KEY_FILE = 'audit-key';

/** Could not read or create the demo-mode key file. */
export class AuditKeyError extends Error {
  override name = 'AuditKeyError';
}

/**
 * The demo-mode key kept in `dataDir`: read when the file exists, otherwise created with 32 random
 * bytes. The file is made private to the owner (600) whatever it was.
 */
export function loadOrCreateAuditKey(dataDir: string): string {
  const file = join(dataDir, AUDIT_KEY_FILE);
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      // `wx`: never overwrite a key another process just wrote; lookups hashed with it would be lost.
      writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, {
        flag: 'wx',
        mode: 0o600,
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    const key = readFileSync(file, 'utf8').trim();
    if (key.length < 32) throw new Error(`${file} holds fewer than 32 characters`);
    return key;
  } catch (error) {
    throw new AuditKeyError(
      `could not read or create the audit key in DATA_DIR ${dataDir}: ${(error as Error).message}`,
    );
  }
}
