// A secret kept in a file under DATA_DIR (mode 600), generated on first start: what demo mode uses
// where live mode requires a configured secret (the audit key, the session-cookie secret), so what
// was made with it before a restart still holds after it.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The key in `dataDir/name`: read when the file exists, otherwise created with 32 random bytes.
 * The file is made private to the owner (600) whatever it was. Throws on a file that cannot be
 * read or created, or holds fewer than 32 characters.
 */
export function loadOrCreateKeyFile(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    // `wx`: never overwrite a key another process just wrote; what it made would be lost.
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
}
