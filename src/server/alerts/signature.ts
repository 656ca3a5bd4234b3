// Signing of generic webhook alerts, modelled on Stripe's `Stripe-Signature` scheme: an
// HMAC-SHA256 over "<unix seconds>.<raw body>" under the destination's secret, sent as
// `Console-Signature: t=<unix seconds>,v1=<hex>`. The timestamp inside the signed text lets a
// receiver refuse replays older than its tolerance. The receiver script and the tests verify with
// the same function a receiver in any language can rewrite in a few lines (docs/alerts.md).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The header carrying the signature. */
export const SIGNATURE_HEADER = 'Console-Signature';
/** Default tolerance between the signed timestamp and the receiver's clock (Stripe's default). */
const DEFAULT_TOLERANCE_SECONDS = 300;

/** A new signing secret: `whsec_` and 32 random bytes, as Stripe and Svix present theirs. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function mac(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/** The `Console-Signature` value for `body` sent at `nowMs`. */
export function signatureHeader(secret: string, body: string, nowMs: number): string {
  const timestamp = Math.floor(nowMs / 1_000);
  return `t=${timestamp},v1=${mac(secret, timestamp, body)}`;
}

/** Why a signature was not accepted. */
export type SignatureFailure = 'missing' | 'malformed' | 'mismatch' | 'too-old';

/**
 * Checks a received `Console-Signature` against the raw body as received. Resolves to null when
 * it is valid, else to why not. Several `v1=` values (during a secret rotation) are all tried.
 */
export function verifySignature(
  secret: string,
  body: string,
  header: string | undefined | null,
  nowMs: number,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): SignatureFailure | null {
  if (!header) return 'missing';
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (name === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) return 'malformed';
  const expected = Buffer.from(mac(secret, timestamp, body), 'hex');
  const matches = signatures.some((signature) =>
    timingSafeEqual(Buffer.from(signature, 'hex'), expected),
  );
  if (!matches) return 'mismatch';
  if (Math.abs(nowMs / 1_000 - timestamp) > toleranceSeconds) return 'too-old';
  return null;
}
