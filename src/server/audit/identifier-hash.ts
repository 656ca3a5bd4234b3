// Data-subject identifiers in the audit trail as HMAC-SHA256 under the audit key: the same
// identifier always gives the same value, so typing it finds its lookups, but the value cannot be
// read back or guessed without the key.
import { createHash, createHmac } from 'node:crypto';
import { normalizeIdentifier } from '../../shared/audit-trail';

/** Hashes identifiers for the audit trail. */
export interface IdentifierHasher {
  /** Hex HMAC-SHA256 of the normalised identifier. */
  hash(identifier: string): string;
  /**
   * A short fingerprint of the key, stored with each record: after a key change, old records are
   * told apart rather than silently never matching.
   */
  readonly keyId: string;
}

/** Creates the hasher for `key` (AUDIT_KEY, or the demo key file's content). */
export function createIdentifierHasher(key: string): IdentifierHasher {
  const secret = Buffer.from(key, 'utf8');
  return {
    hash: (identifier) =>
      createHmac('sha256', secret).update(normalizeIdentifier(identifier), 'utf8').digest('hex'),
    keyId: createHash('sha256').update('audit-key-id:').update(secret).digest('hex').slice(0, 12),
  };
}
