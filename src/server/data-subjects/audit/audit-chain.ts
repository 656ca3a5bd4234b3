// The audit trail's hash chain: every change to the trail (a lookup's intent, its outcome, a
// retention run) is an entry whose hash covers its content and the previous entry's hash, keyed
// with a key derived from the audit key. Changing, removing or inserting a record anywhere breaks
// a link that `npm run audit -- verify` finds; without the key the chain cannot be rebuilt to
// hide it. Retention cuts the oldest entries off under a signed checkpoint the walk starts from.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The `prev_hash` of the very first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** A key for one purpose, derived from AUDIT_KEY (so no second secret has to be kept). */
export function deriveAuditKey(auditKey: string, purpose: 'chain' | 'export-signing'): Buffer {
  return createHmac('sha256', Buffer.from(auditKey, 'utf8'))
    .update(`privacy-api-console/audit/${purpose}/v1`)
    .digest();
}

/** The hash of entry `seq` holding `payload` after an entry hashed `prevHash`. */
export function chainEntryHash(key: Buffer, seq: number, prevHash: string, payload: string) {
  return createHmac('sha256', key).update(`${seq}\n${prevHash}\n${payload}`, 'utf8').digest('hex');
}

/** Where the chain starts after retention deleted its oldest entries. */
export interface ChainCheckpoint {
  /** The last deleted entry: the first kept one must follow it. */
  readonly seq: number;
  /** That entry's hash: the first kept one's `prev_hash`. */
  readonly hash: string;
  /** Records made before this time were deleted (ISO 8601). */
  readonly cutoff: string;
  /** When the checkpoint was made (ISO 8601). */
  readonly at: string;
  /** Records deleted by the run that made it. */
  readonly deleted: number;
}

function checkpointText(checkpoint: ChainCheckpoint): string {
  // A fixed field order: the signature covers exactly these values.
  const { seq, hash, cutoff, at, deleted } = checkpoint;
  return JSON.stringify({ seq, hash, cutoff, at, deleted });
}

/** The checkpoint with its signature, as the store keeps it. */
export function signCheckpoint(key: Buffer, checkpoint: ChainCheckpoint): string {
  const signature = createHmac('sha256', key)
    .update(`checkpoint\n${checkpointText(checkpoint)}`, 'utf8')
    .digest('hex');
  return JSON.stringify({ ...JSON.parse(checkpointText(checkpoint)), signature });
}

/** Reads a stored checkpoint; undefined when its signature does not hold (or it is unreadable). */
export function readSignedCheckpoint(key: Buffer, text: string): ChainCheckpoint | undefined {
  try {
    const value = JSON.parse(text) as ChainCheckpoint & { signature?: unknown };
    if (typeof value.signature !== 'string') return undefined;
    const checkpoint: ChainCheckpoint = {
      seq: value.seq,
      hash: value.hash,
      cutoff: value.cutoff,
      at: value.at,
      deleted: value.deleted,
    };
    const expected = JSON.parse(signCheckpoint(key, checkpoint)).signature as string;
    const given = Buffer.from(value.signature, 'utf8');
    if (given.length !== expected.length) return undefined;
    return timingSafeEqual(given, Buffer.from(expected, 'utf8')) ? checkpoint : undefined;
  } catch {
    return undefined;
  }
}
