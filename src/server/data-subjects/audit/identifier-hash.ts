// Data-subject identifiers in the audit trail as HMAC-SHA256 under the audit key: the same
// identifier always gives the same value, so typing it finds its lookups, but the value cannot be
// read back or guessed without the key. Identifiers are hashed in their canonical form (e-mail
// addresses lower-cased: shared/audit-trail.ts), the way the platform matches them.
import { createHash, createHmac } from 'node:crypto';
import { canonicalIdentifier, normalizeIdentifier } from '../../../shared/audit-trail';

/** Hashes identifiers for the audit trail. */
export interface IdentifierHasher {
  /** Hex HMAC-SHA256 of the canonical identifier: what new records keep. */
  hash(identifier: string): string;
  /**
   * Every hash a search compares: the canonical form's, and the form records made before
   * e-mail addresses were matched without regard to case were hashed in (as typed).
   */
  searchHashes(identifier: string): string[];
  /**
   * A short fingerprint of the key, stored with each record: after a key change, old records are
   * told apart rather than silently never matching.
   */
  readonly keyId: string;
}

/** Creates the hasher for `key` (AUDIT_KEY, or the demo key file's content). */
export function createIdentifierHasher(key: string): IdentifierHasher {
  const secret = Buffer.from(key, 'utf8');
  const hmac = (text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('hex');
  return {
    hash: (identifier) => hmac(canonicalIdentifier(identifier)),
    searchHashes: (identifier) => [
      ...new Set([hmac(canonicalIdentifier(identifier)), hmac(normalizeIdentifier(identifier))]),
    ],
    keyId: createHash('sha256').update('audit-key-id:').update(secret).digest('hex').slice(0, 12),
  };
}
