// Demo mode's audit key: created once under DATA_DIR, private to its owner, and the same after a
// restart, so lookups hashed before it are still found.
import { readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_KEY_FILE, AuditKeyError, loadOrCreateAuditKey } from './audit-key';
import { createIdentifierHasher } from './identifier-hash';
import { tempDirsPerTest } from '../../test-support/temp-dirs';

const tempDir = tempDirsPerTest('console-audit-key-');
const dataDir = () => join(tempDir(), 'data');

describe('loadOrCreateAuditKey', () => {
  it('creates a 600 key file on first start and reads the same key afterwards', () => {
    const dir = dataDir();
    const key = loadOrCreateAuditKey(dir);
    expect(key.length).toBeGreaterThanOrEqual(32);
    const file = join(dir, AUDIT_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(key);
    expect(loadOrCreateAuditKey(dir)).toBe(key);
  });

  it('makes a key file others can read private again', () => {
    const dir = dataDir();
    const key = loadOrCreateAuditKey(dir);
    chmodSync(join(dir, AUDIT_KEY_FILE), 0o644);
    expect(loadOrCreateAuditKey(dir)).toBe(key);
    expect(statSync(join(dir, AUDIT_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('refuses a key file too short to be a key', () => {
    const dir = dataDir();
    loadOrCreateAuditKey(dir);
    writeFileSync(join(dir, AUDIT_KEY_FILE), 'short\n');
    expect(() => loadOrCreateAuditKey(dir)).toThrow(AuditKeyError);
  });
});

describe('createIdentifierHasher', () => {
  it('hashes the same identifier the same way, ignoring surrounding spaces', () => {
    const hasher = createIdentifierHasher('k'.repeat(32));
    const hash = hasher.hash('ada.lovelace@example.com');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hasher.hash('  ada.lovelace@example.com ')).toBe(hash);
    expect(hasher.hash('ada.lovelace@example.org')).not.toBe(hash);
    // Composed and decomposed forms of the same text are the same identifier.
    expect(hasher.hash('zo\u00eb@example.com')).toBe(hasher.hash('zoe\u0308@example.com'));
  });

  it('depends on the key: without it the value cannot be recomputed', () => {
    const one = createIdentifierHasher('k'.repeat(32));
    const two = createIdentifierHasher('j'.repeat(32));
    expect(one.hash('ada.lovelace@example.com')).not.toBe(two.hash('ada.lovelace@example.com'));
    expect(one.keyId).not.toBe(two.keyId);
    expect(one.keyId).toMatch(/^[0-9a-f]{12}$/);
  });

  it('hashes e-mail addresses without regard to case, other identifiers exactly', () => {
    const hasher = createIdentifierHasher('k'.repeat(32));
    expect(hasher.hash('Ada.Lovelace@EXAMPLE.com')).toBe(hasher.hash('ada.lovelace@example.com'));
    expect(hasher.hash('CUST-42')).not.toBe(hasher.hash('cust-42'));
    // A search also compares the spelling as typed, for records made before normalisation.
    expect(hasher.searchHashes('ada.lovelace@example.com')).toHaveLength(1);
    expect(hasher.searchHashes('Ada.Lovelace@example.com')).toHaveLength(2);
    expect(hasher.searchHashes('CUST-42')).toHaveLength(1);
  });
});
