import { describe, expect, it } from 'vitest';
import { hashParams, hashPassword, isPasswordHash, verifyPassword } from './password-hash';

const CHEAP = { N: 1024, r: 8, p: 1 };

describe('password hashing', () => {
  it('stores scrypt with its parameters and a random salt, never the password', async () => {
    const first = await hashPassword('a long enough password', CHEAP);
    const second = await hashPassword('a long enough password', CHEAP);
    expect(first).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('password');
    expect(hashParams(first)).toEqual(CHEAP);
  });

  it('uses OWASP-strength parameters by default', async () => {
    expect(hashParams(await hashPassword('x'))).toEqual({ N: 16384, r: 8, p: 5 });
  });

  it('verifies the right password only', async () => {
    const hash = await hashPassword('Tr0ub4dor&3 with spaces', CHEAP);
    expect(await verifyPassword('Tr0ub4dor&3 with spaces', hash)).toBe(true);
    expect(await verifyPassword('tr0ub4dor&3 with spaces', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('treats composed and decomposed accents as the same password', async () => {
    const hash = await hashPassword('caf\u00e9 au lait', CHEAP);
    expect(await verifyPassword('cafe\u0301 au lait', hash)).toBe(true);
  });

  it.each([
    ['plain text', 'hunter2'],
    ['another algorithm', '$2b$10$abcdefghijklmnopqrstuv'],
    [
      'an N that is not a power of two',
      'scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ],
    [
      'an N that would stall the server',
      'scrypt$4194304$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ],
  ])('refuses %s as a hash', async (_, hash) => {
    expect(isPasswordHash(hash)).toBe(false);
    expect(await verifyPassword('hunter2', hash)).toBe(false);
  });
});
