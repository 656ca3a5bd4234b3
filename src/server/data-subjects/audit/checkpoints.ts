// Signed checkpoints of the audit chain's head: "entry N of the chain had hash H at time T",
// signed with the trail's Ed25519 key (export-signing.ts). A checkpoint that has left the database
// (a file under AUDIT_CHECKPOINT_DIR, a log line, an alert delivery) lets `npm run audit -- verify`
// catch what the chain alone cannot: the newest entries cut off and the head row rewound, or the
// whole trail wiped. docs/audit-trail.md says which copy catches which attack.
import { keyFingerprint, verifySignedText, type ExportSigner } from './export-signing';

/** One checkpoint, as written everywhere it is kept (one JSON line, keys in this order). */
export interface AuditCheckpoint {
  readonly type: 'audit.checkpoint';
  readonly version: 1;
  /** The chain entry the checkpoint covers: the head when it was taken. */
  readonly seq: number;
  /** That entry's hash (hex). */
  readonly hash: string;
  /** When it was taken (ISO 8601, UTC). */
  readonly at: string;
  /** Why: the regular interval, an export, or the console stopping. */
  readonly reason: 'interval' | 'export' | 'shutdown';
  /** Fingerprint of the Ed25519 key it is signed with (`npm run audit -- public-key`). */
  readonly keyFingerprint: string;
  /** Base64 Ed25519 signature of checkpointText(). */
  readonly signature: string;
}

/**
 * The exact bytes a checkpoint's signature covers (UTF-8): a first line naming the format, then
 * the entry, its hash and the time, each line ending in "\n". docs/audit-trail.md rebuilds it
 * with one `jq -j`.
 */
export function checkpointText(checkpoint: Pick<AuditCheckpoint, 'seq' | 'hash' | 'at'>): string {
  return `privacy-api-console audit checkpoint v1\n${checkpoint.seq}\n${checkpoint.hash}\n${checkpoint.at}\n`;
}

/** Signs the head `seq`/`hash` as of `at`. */
export function signCheckpoint(
  signer: ExportSigner,
  head: { seq: number; hash: string },
  at: number,
  reason: AuditCheckpoint['reason'],
): AuditCheckpoint {
  const fields = { seq: head.seq, hash: head.hash, at: new Date(at).toISOString() };
  return {
    type: 'audit.checkpoint',
    version: 1,
    ...fields,
    reason,
    keyFingerprint: signer.fingerprint,
    signature: signer.signText(checkpointText(fields)),
  };
}

/** The fields of a checkpoint's line, in the order it is written. */
const LINE_FIELDS = [
  'type',
  'version',
  'seq',
  'hash',
  'at',
  'reason',
  'keyFingerprint',
  'signature',
] as const satisfies ReadonlyArray<keyof AuditCheckpoint>;

/** The checkpoint as one line of JSON (no line break inside; the caller adds one). */
export function checkpointLine(checkpoint: AuditCheckpoint): string {
  return JSON.stringify(Object.fromEntries(LINE_FIELDS.map((field) => [field, checkpoint[field]])));
}

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Reads a checkpoint out of a parsed JSON value: the checkpoint itself (a checkpoint file's line),
 * a log line that carries it under `checkpoint`, or an alert delivery that carries its fields
 * under `data` (a webhook receiver's records, possibly under `payload`). Undefined when `value`
 * holds none.
 */
export function findCheckpoint(
  value: unknown,
): Omit<AuditCheckpoint, 'type' | 'version'> | undefined {
  const candidates: unknown[] = [value];
  for (let index = 0; index < candidates.length && index < 8; index += 1) {
    const item = candidates[index];
    if (typeof item !== 'object' || item === null) continue;
    const record = item as Record<string, unknown>;
    const { seq, hash, at, signature, keyFingerprint: fingerprint, reason } = record;
    if (
      typeof seq === 'number' &&
      Number.isSafeInteger(seq) &&
      seq >= 0 &&
      typeof hash === 'string' &&
      HEX64.test(hash) &&
      typeof at === 'string' &&
      !Number.isNaN(Date.parse(at)) &&
      typeof signature === 'string' &&
      typeof fingerprint === 'string'
    ) {
      return {
        seq,
        hash,
        at,
        signature,
        keyFingerprint: fingerprint,
        reason:
          reason === 'export' || reason === 'shutdown' || reason === 'interval'
            ? reason
            : 'interval',
      };
    }
    candidates.push(record.checkpoint, record.data, record.payload, record.body);
  }
  return undefined;
}

/** Why a checkpoint cannot be trusted, or undefined when its signature holds under `publicKeyPem`. */
export function checkpointSignatureFault(
  checkpoint: Omit<AuditCheckpoint, 'type' | 'version'>,
  publicKeyPem: string,
): string | undefined {
  if (checkpoint.keyFingerprint !== keyFingerprint(publicKeyPem)) {
    return `it was signed with another key (${checkpoint.keyFingerprint}) than this trail's`;
  }
  if (!verifySignedText(publicKeyPem, checkpointText(checkpoint), checkpoint.signature)) {
    return 'its Ed25519 signature does not hold (it was changed after it was signed)';
  }
  return undefined;
}
