// Console passwords hashed with scrypt (node:crypto): a self-describing string holding the cost
// parameters, salt and hash, so stronger parameters can be introduced without breaking old hashes.
import {
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';

/** scrypt's cost parameters. */
export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  /** Block size. */
  r: number;
  /** Parallelisation. */
  p: number;
}

/**
 * OWASP Password Storage Cheat Sheet's scrypt option "N=2^14, r=8, p=5": the same work as
 * N=2^17, p=1 but 16 MiB of memory per hash instead of 128 MiB, so concurrent sign-ins cannot
 * exhaust the BFF's memory. About 0.1 s per hash on a small server.
 */
export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 14, r: 8, p: 5 };

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const PREFIX = 'scrypt';

function scrypt(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    // Node's default ceiling (32 MiB) is below what N=2^15 and up need; allow twice the need.
    maxmem: 256 * params.N * params.r * 2,
  };
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Hashes `password` with a fresh random salt: `scrypt$N$r$p$<salt>$<hash>` (base64url). */
export async function hashPassword(
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT_PARAMS,
): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(password, salt, params);
  return [
    PREFIX,
    params.N,
    params.r,
    params.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

const HASH_PATTERN = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([\w-]{16,})\$([\w-]{32,})$/;

function parseHash(hash: string): ParsedHash | undefined {
  const match = HASH_PATTERN.exec(hash);
  if (!match) return undefined;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // A power of two, and not so large that a tampered users file could stall the BFF.
  if (N < 2 || N > 2 ** 20 || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) {
    return undefined;
  }
  return {
    params: { N, r, p },
    salt: Buffer.from(match[4] ?? '', 'base64url'),
    key: Buffer.from(match[5] ?? '', 'base64url'),
  };
}

/** True when `hash` is a password hash this module can verify. */
export function isPasswordHash(hash: string): boolean {
  return parseHash(hash) !== undefined;
}

/** The cost parameters a stored hash was made with, when it is one. */
export function hashParams(hash: string): ScryptParams | undefined {
  return parseHash(hash)?.params;
}

/** True when `password` matches `hash`; compares in constant time. False for a malformed hash. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const parsed = parseHash(hash);
  if (!parsed) return false;
  const key = await scrypt(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}
