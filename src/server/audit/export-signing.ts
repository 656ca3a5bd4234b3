// Signs audit exports with Ed25519, so an export handed to an auditor can be checked with a public
// key alone: the signature covers a small manifest (the export's SHA-256, size, record count,
// scope and time), so the export itself can be streamed and hashed in one pass. The private key
// is derived from AUDIT_KEY: nothing new to keep, and every replica signs with the same key.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import type { AuditExportSignature } from '../../shared/audit-trail';
import { deriveAuditKey } from './audit-chain';

// The DER prefix of a PKCS#8 Ed25519 private key (RFC 8410) before its 32-byte seed.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The manifest without its signature, as signed. */
export type ExportManifest = Omit<AuditExportSignature, 'signature'>;

/** The exact text the signature covers: the manifest's fields in a fixed order. */
function manifestText(manifest: ExportManifest): string {
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

/** SHA-256 fingerprint of a public key (PEM), as printed by `npm run audit -- public-key`. */
export function keyFingerprint(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ format: 'der', type: 'spki' });
  return createHash('sha256').update(der).digest('hex').slice(0, 16);
}

/** Signs export manifests. */
export interface ExportSigner {
  readonly publicKeyPem: string;
  readonly fingerprint: string;
  sign(
    manifest: Omit<ExportManifest, 'publicKey' | 'keyFingerprint' | 'version' | 'algorithm'>,
  ): AuditExportSignature;
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
  return {
    publicKeyPem,
    fingerprint,
    sign(fields) {
      const manifest: ExportManifest = {
        version: 1,
        algorithm: 'Ed25519',
        ...fields,
        keyFingerprint: fingerprint,
        publicKey: publicKeyPem,
      };
      const signature = sign(null, Buffer.from(manifestText(manifest), 'utf8'), privateKey);
      return { ...manifest, signature: signature.toString('base64') };
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
  let valid = false;
  try {
    valid = verify(
      null,
      Buffer.from(manifestText(manifest), 'utf8'),
      createPublicKey(key),
      Buffer.from(value, 'base64'),
    );
  } catch {
    valid = false;
  }
  if (!valid) reasons.push('the Ed25519 signature over the manifest does not hold');
  return { ok: reasons.length === 0, reasons };
}
