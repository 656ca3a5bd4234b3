// Signs audit exports with Ed25519, so an export handed to an auditor can be checked with a public
// key alone: the signature covers a small manifest (the export's SHA-256, size, record count,
// scope and time), so the export itself can be streamed and hashed in one pass. The same key signs
// the chain's checkpoints (checkpoints.ts). The private key is derived from AUDIT_KEY: nothing new
// to keep, and every replica signs with the same key.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import type { AuditExportSignature } from '../../../shared/audit-trail';
import { deriveAuditKey } from './audit-chain';

// The DER prefix of a PKCS#8 Ed25519 private key (RFC 8410) before its 32-byte seed.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The manifest without its signature, as signed. */
export type ExportManifest = Omit<AuditExportSignature, 'signature'>;

/** The manifest version new exports carry: its signed text is the documented one below. */
const MANIFEST_VERSION = 2;

/**
 * The exact bytes the signature covers (docs/audit-trail.md, "What is signed"): a first line
 * naming the format, then one field per line, each line ending in "\n", UTF-8. An auditor
 * rebuilds it from the manifest with one `jq -j` and checks it with `openssl pkeyutl`. Version 1
 * manifests (older exports) were signed over a compact JSON array and still verify.
 */
function manifestText(manifest: ExportManifest): string {
  if (manifest.version === 1) {
    return JSON.stringify([
      manifest.version,
      manifest.algorithm,
      manifest.exportId,
      manifest.createdAt,
      manifest.format,
      manifest.scope,
      manifest.records,
      manifest.bytes,
      manifest.sha256,
      manifest.keyFingerprint,
      manifest.publicKey,
    ]);
  }
  return [
    'privacy-api-console audit export v2',
    manifest.exportId,
    manifest.createdAt,
    manifest.format,
    manifest.scope,
    String(manifest.records),
    String(manifest.bytes),
    manifest.sha256,
    manifest.keyFingerprint,
    '',
  ].join('\n');
}

/** SHA-256 fingerprint of a public key (PEM), as printed by `npm run audit -- public-key`. */
export function keyFingerprint(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ format: 'der', type: 'spki' });
  return createHash('sha256').update(der).digest('hex').slice(0, 16);
}

/** Whether `signature` (base64) is `publicKeyPem`'s Ed25519 signature of `text` (UTF-8). */
export function verifySignedText(publicKeyPem: string, text: string, signature: string): boolean {
  try {
    return verify(
      null,
      Buffer.from(text, 'utf8'),
      createPublicKey(publicKeyPem),
      Buffer.from(signature, 'base64'),
    );
  } catch {
    return false;
  }
}

/** Signs export manifests and chain checkpoints with the audit trail's Ed25519 key. */
export interface ExportSigner {
  readonly publicKeyPem: string;
  readonly fingerprint: string;
  /** Base64 Ed25519 signature of `text`'s UTF-8 bytes. */
  signText(text: string): string;
  sign(
    manifest: Omit<ExportManifest, 'publicKey' | 'keyFingerprint' | 'version' | 'algorithm'>,
  ): AuditExportSignature;
}

/**
 * One line of text, as a manifest field must be: a line break or other control character would
 * make the signed lines ambiguous, so each becomes a space.
 */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

/** The signer whose key is derived from `auditKey`. */
export function createExportSigner(auditKey: string): ExportSigner {
  const seed = deriveAuditKey(auditKey, 'export-signing');
  const privateKey: KeyObject = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKeyPem = createPublicKey(privateKey)
    .export({ format: 'pem', type: 'spki' })
    .toString();
  const fingerprint = keyFingerprint(publicKeyPem);
  const signText = (text: string) =>
    sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64');
  return {
    publicKeyPem,
    fingerprint,
    signText,
    sign(fields) {
      const manifest: ExportManifest = {
        version: MANIFEST_VERSION,
        algorithm: 'Ed25519',
        ...fields,
        scope: oneLine(fields.scope),
        keyFingerprint: fingerprint,
        publicKey: publicKeyPem,
      };
      return { ...manifest, signature: signText(manifestText(manifest)) };
    },
  };
}

/** What checking an export against its signature found. */
export interface ExportCheck {
  readonly ok: boolean;
  readonly reasons: string[];
}

/**
 * Checks an export file's digest and size (computed by the caller while reading it) against its
 * signature, and the signature against `trustedPublicKeyPem` (or the key it names, when none is
 * given: then the caller must compare the fingerprint with a trusted one).
 */
export function checkExport(
  signature: AuditExportSignature,
  file: { sha256: string; bytes: number },
  trustedPublicKeyPem?: string,
): ExportCheck {
  const reasons: string[] = [];
  if (file.sha256 !== signature.sha256) {
    reasons.push('the file’s SHA-256 is not the one signed: the export was changed');
  }
  if (file.bytes !== signature.bytes) {
    reasons.push(`the file has ${file.bytes} bytes, the signature says ${signature.bytes}`);
  }
  let key = signature.publicKey;
  if (trustedPublicKeyPem !== undefined) {
    if (keyFingerprint(trustedPublicKeyPem) !== keyFingerprint(signature.publicKey)) {
      reasons.push('the signature was made with another key than the trusted one');
    }
    key = trustedPublicKeyPem;
  }
  if (keyFingerprint(signature.publicKey) !== signature.keyFingerprint) {
    reasons.push('the signature’s key fingerprint does not match its key');
  }
  const { signature: value, ...manifest } = signature;
  if (!verifySignedText(key, manifestText(manifest), value))
    reasons.push('the Ed25519 signature over the manifest does not hold');
  return { ok: reasons.length === 0, reasons };
}
