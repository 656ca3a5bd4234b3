// The NAME_FILE reader: what a secret file gives, and each way one is refused without its content.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSecretFiles, SECRET_FILE_MAX_BYTES, SecretFileError } from './secret-files';

const SECRET = 'correct-horse-battery-staple-0123456789';

function secretFile(content: string | Buffer, mode = 0o600): string {
  const file = join(mkdtempSync(join(tmpdir(), 'secret-files-')), 'secret');
  writeFileSync(file, content, { mode });
  chmodSync(file, mode);
  return file;
}

/** The error readSecretFiles throws for `env`, checked never to repeat the secret. */
function refusal(env: Record<string, string>): string {
  try {
    readSecretFiles(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SecretFileError);
    expect((error as Error).message).not.toContain(SECRET);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

describe('readSecretFiles', () => {
  it('reads NAME_FILE into NAME without one trailing newline, and drops NAME_FILE', () => {
    const { env, warnings } = readSecretFiles({
      SESSION_SECRET_FILE: secretFile(`${SECRET}\n`),
      AUDIT_KEY_FILE: secretFile(`${SECRET}\r\n`),
      OAUTH_CLIENT_SECRET_FILE: secretFile(`${SECRET}\n\n`),
      HOST: '0.0.0.0',
    });
    expect(env.SESSION_SECRET).toBe(SECRET);
    expect(env.AUDIT_KEY).toBe(SECRET);
    // Only one newline is the file's ending; a second one is part of the value as written.
    expect(env.OAUTH_CLIENT_SECRET).toBe(`${SECRET}\n`);
    expect(env.HOST).toBe('0.0.0.0');
    expect(env).not.toHaveProperty('SESSION_SECRET_FILE');
    expect(warnings).toEqual([]);
  });

  it('keeps the value read: a file changed afterwards changes nothing', () => {
    const file = secretFile(SECRET);
    const { env } = readSecretFiles({ METRICS_TOKEN_FILE: file });
    writeFileSync(file, 'another-token-entirely-0123456789abcdef');
    expect(env.METRICS_TOKEN).toBe(SECRET);
  });

  it('treats an empty NAME_FILE as unset and leaves variables that are not secrets alone', () => {
    const { env } = readSecretFiles({ SESSION_SECRET: SECRET, SESSION_SECRET_FILE: '' });
    expect(env.SESSION_SECRET).toBe(SECRET);
    expect(readSecretFiles({ HOST_FILE: '/nonexistent' }).env.HOST).toBeUndefined();
  });

  it('refuses NAME and NAME_FILE both set, naming both', () => {
    expect(refusal({ AUDIT_KEY: SECRET, AUDIT_KEY_FILE: secretFile(SECRET) })).toBe(
      'AUDIT_KEY and AUDIT_KEY_FILE are both set; set only one of them',
    );
  });

  it('refuses a missing file, a directory, an empty file and one over the limit, naming the path', () => {
    const missing = join(tmpdir(), 'no-such-secret-file');
    expect(refusal({ SESSION_SECRET_FILE: missing })).toBe(
      `SESSION_SECRET_FILE ${missing} does not exist`,
    );
    const dir = mkdtempSync(join(tmpdir(), 'secret-dir-'));
    expect(refusal({ SESSION_SECRET_FILE: dir })).toMatch(
      new RegExp(`^SESSION_SECRET_FILE ${dir} is a directory`),
    );
    const empty = secretFile('\n');
    expect(refusal({ SESSION_SECRET_FILE: empty })).toBe(`SESSION_SECRET_FILE ${empty} is empty`);
    const huge = secretFile(SECRET.repeat(Math.ceil((SECRET_FILE_MAX_BYTES + 1) / SECRET.length)));
    expect(refusal({ SESSION_SECRET_FILE: huge })).toBe(
      `SESSION_SECRET_FILE ${huge} is larger than 64 KiB; it must hold the secret alone`,
    );
    // Exactly at the limit is read.
    const full = secretFile('x'.repeat(SECRET_FILE_MAX_BYTES));
    expect(readSecretFiles({ SESSION_SECRET_FILE: full }).env.SESSION_SECRET).toHaveLength(
      SECRET_FILE_MAX_BYTES,
    );
  });

  it('refuses a device that never ends', () => {
    expect(refusal({ DATABASE_URL_FILE: '/dev/zero' })).toMatch(
      /^DATABASE_URL_FILE \/dev\/zero is not a regular file/,
    );
  });

  it.skipIf(process.getuid?.() === 0)(
    "refuses a file the console's user cannot read (root reads every file)",
    () => {
      const locked = secretFile(SECRET, 0o000);
      expect(refusal({ REDIS_URL_FILE: locked })).toBe(
        `REDIS_URL_FILE ${locked} cannot be read by the console's user (permission denied)`,
      );
    },
  );

  it('warns when group or others may read the file, and still reads it', () => {
    const loose = secretFile(SECRET, 0o644);
    const groupOnly = secretFile(SECRET, 0o640);
    const { env, warnings } = readSecretFiles({
      OIDC_CLIENT_SECRET_FILE: loose,
      SESSION_SECRET_FILE: groupOnly,
      AUDIT_KEY_FILE: secretFile(SECRET, 0o400),
    });
    expect(env.OIDC_CLIENT_SECRET).toBe(SECRET);
    expect(warnings).toEqual([
      `SESSION_SECRET_FILE ${groupOnly} is readable by other users (mode 640); make it readable by the console's user alone (chmod 400 or 600)`,
      `OIDC_CLIENT_SECRET_FILE ${loose} is readable by other users (mode 644); make it readable by the console's user alone (chmod 400 or 600)`,
    ]);
  });
});
