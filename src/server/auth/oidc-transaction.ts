// One sign-in at the identity provider between leaving and coming back: state, nonce, the PKCE
// verifier, where to return and the max_age asked for. Kept in the browser as a short-lived
// cookie encrypted and authenticated with AES-256-GCM under a key derived from SESSION_SECRET, so
// every replica can read it and nobody else can read or alter it. SameSite=Lax: the return from
// the provider is a cross-site top-level navigation, on which a Strict cookie is not sent.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import * as z from 'zod/mini';
import type { AppEnv } from '../http/app-env';
import { isHttpsRequest } from '../security/web-settings';
import type { SessionCookieSettings } from './session-cookie';

const TRANSACTION_COOKIE = 'console_oidc';

/** How long a person may take at the provider's sign-in page. */
export const TRANSACTION_TTL_SECONDS = 600;

const TransactionSchema = z.object({
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
  /** A path of this console (already checked with safeReturnTo). */
  returnTo: z.string(),
  /** max_age sent to the provider (step-up), seconds. */
  maxAge: z.optional(z.number()),
  /** When the transaction stops being accepted (epoch ms). */
  expiresAt: z.number(),
});
export type SignInTransaction = z.infer<typeof TransactionSchema>;

/** AES-256-GCM key for transactions only, so it never doubles as the cookie-signing key. */
function transactionKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, '', 'console oidc transaction', 32));
}

/** `transaction` sealed: iv.ciphertext.tag, base64url. */
export function sealTransaction(transaction: SignInTransaction, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', transactionKey(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(transaction), 'utf8'), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
}

/** The transaction in `sealed`, or undefined when it was altered, is not ours or has expired. */
export function openTransaction(
  sealed: string,
  secret: string,
  now: number,
): SignInTransaction | undefined {
  const [iv, body, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !body || !tag || iv.length !== 12 || tag.length !== 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', transactionKey(secret), iv);
    decipher.setAuthTag(tag);
    const text = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    const parsed = TransactionSchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.expiresAt > now ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function cookieOptions(c: Context<AppEnv>, settings: SessionCookieSettings): CookieOptions {
  const base: CookieOptions = {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    maxAge: TRANSACTION_TTL_SECONDS,
  };
  return isHttpsRequest(c, settings.web) ? { ...base, secure: true, prefix: 'host' } : base;
}

function cookieName(c: Context<AppEnv>, settings: SessionCookieSettings): string {
  return isHttpsRequest(c, settings.web) ? `__Host-${TRANSACTION_COOKIE}` : TRANSACTION_COOKIE;
}

/** Sets the transaction cookie (one sign-in at a time: a newer one replaces it). */
export function writeTransactionCookie(
  c: Context<AppEnv>,
  settings: SessionCookieSettings,
  transaction: SignInTransaction,
): void {
  setCookie(
    c,
    TRANSACTION_COOKIE,
    sealTransaction(transaction, settings.secret),
    cookieOptions(c, settings),
  );
}

/** The request's transaction, when it carries a valid one. */
export function readTransactionCookie(
  c: Context<AppEnv>,
  settings: SessionCookieSettings,
  now: number,
): SignInTransaction | undefined {
  const sealed = getCookie(c, cookieName(c, settings));
  return sealed ? openTransaction(sealed, settings.secret, now) : undefined;
}

/** Drops the transaction: it is used once, whatever the outcome. */
export function clearTransactionCookie(c: Context<AppEnv>, settings: SessionCookieSettings): void {
  deleteCookie(c, TRANSACTION_COOKIE, cookieOptions(c, settings));
}
