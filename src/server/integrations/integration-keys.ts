// Reporting keys of integrations: 256 random bits, shown once, stored only as a SHA-256 hash.
// A slow password hash (scrypt) is not needed: the key is random, not chosen by a person, so the
// hash cannot be reversed by guessing, and a fast hash keeps every ingest request cheap.
import { createHash, randomBytes } from 'node:crypto';

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs). */
const KEY_PREFIX = 'pacr_';

const KEY_PATTERN = /^pacr_[A-Za-z0-9_-]{43}$/;

/** A new reporting key. */
export function generateReportingKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** True when `value` has the shape of a reporting key (checked before hashing anything). */
export function looksLikeReportingKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/** The stored form of a key: hex SHA-256 under a fixed domain label. */
export function hashReportingKey(key: string): string {
  return createHash('sha256').update(`integration-report-key\n${key}`).digest('hex');
}

/** The last four characters, shown to tell keys apart. */
export function keyHint(key: string): string {
  return key.slice(-4);
}
