// A receiver must be able to tell an alert the console sent from anything else: the signature
// verifies over the exact body, fails for a tampered body, another secret or an old timestamp.
import { describe, expect, it } from 'vitest';
import { newSigningSecret, signatureHeader, verifySignature } from './signature';

const NOW = Date.UTC(2025, 0, 6, 9, 0, 0);
const BODY = JSON.stringify({ id: 'a', type: 'test', summary: 'hello' });

describe('alert signatures', () => {
  it('verifies a body signed with the same secret', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const header = signatureHeader(secret, BODY, NOW);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(secret, BODY, header, NOW + 1_000)).toBeNull();
  });

  it('refuses a tampered body, another secret, a missing or malformed header', () => {
    const secret = newSigningSecret();
    const header = signatureHeader(secret, BODY, NOW);
    expect(verifySignature(secret, BODY.replace('hello', 'hellO'), header, NOW)).toBe('mismatch');
    expect(verifySignature(newSigningSecret(), BODY, header, NOW)).toBe('mismatch');
    expect(verifySignature(secret, BODY, undefined, NOW)).toBe('missing');
    expect(verifySignature(secret, BODY, 't=abc,v1=zz', NOW)).toBe('malformed');
  });

  it('refuses a replay outside the tolerance, and a moved timestamp', () => {
    const secret = newSigningSecret();
    const header = signatureHeader(secret, BODY, NOW);
    expect(verifySignature(secret, BODY, header, NOW + 301_000)).toBe('too-old');
    const moved = header.replace(/^t=(\d+)/, (_, t: string) => `t=${Number(t) + 600}`);
    expect(verifySignature(secret, BODY, moved, NOW + 600_000)).toBe('mismatch');
  });
});
