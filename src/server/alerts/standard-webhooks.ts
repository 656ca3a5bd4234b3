// Signing of generic webhook alerts by the Standard Webhooks specification, for receivers that
// verify with its libraries (the `standardwebhooks` packages in many languages, Svix's): the
// secret is `whsec_` and a base64 key, the signed content is "<webhook-id>.<webhook-timestamp>.
// <raw body>", and the signature is the base64 HMAC-SHA256 under the decoded key, sent as
// `webhook-signature: v1,<base64>`. webhook-id is the alert's idempotency key, the same for every
// attempt and resend, as the specification asks of a message id.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SignatureFailure } from './signature';

const PREFIX = 'whsec_';
/** Default tolerance between the signed timestamp and the receiver's clock (the specification's). */
const DEFAULT_TOLERANCE_SECONDS = 300;

/** A new secret: `whsec_` and 32 random bytes in standard base64, as the specification has it. */
export function newStandardWebhooksSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

function key(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

function mac(secret: string, id: string, timestamp: number, body: string): string {
  return createHmac('sha256', key(secret))
    .update(`${id}.${timestamp}.${body}`, 'utf8')
    .digest('base64');
}

/** The three headers of a message `id` with `body`, sent at `nowMs`. */
export function standardWebhooksHeaders(
  secret: string,
  id: string,
  body: string,
  nowMs: number,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = Math.floor(nowMs / 1_000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${mac(secret, id, timestamp, body)}`,
  };
}

/**
 * Checks received Standard Webhooks headers against the raw body (the demo receiver's check; the
 * tests verify with the specification's own library). Null when valid, else why not. The
 * signature header may list several space-separated `v1,` values (a secret rotation).
 */
export function verifyStandardWebhook(
  secret: string,
  body: string,
  headers: Record<string, string | string[] | undefined>,
  nowMs: number,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): SignatureFailure | null {
  const [id, stamp, signature] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map(
    (name) => headers[name],
  );
  if (signature === undefined) return 'missing';
  if (typeof id !== 'string' || typeof stamp !== 'string' || typeof signature !== 'string') {
    return 'malformed';
  }
  if (!/^\d{1,12}$/.test(stamp)) return 'malformed';
  const timestamp = Number(stamp);
  const expected = Buffer.from(mac(secret, id, timestamp, body), 'base64');
  const matches = signature
    .split(' ')
    .map((entry) => entry.split(','))
    .some(([version, value]) => {
      if (version !== 'v1' || !value) return false;
      const given = Buffer.from(value, 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  if (!matches) return 'mismatch';
  if (Math.abs(nowMs / 1_000 - timestamp) > toleranceSeconds) return 'too-old';
  return null;
}
