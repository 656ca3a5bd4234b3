// The session cookie: only a random id, HMAC-signed with SESSION_SECRET, HttpOnly, SameSite=Lax,
// Path=/, no Domain; over HTTPS also Secure with the __Host- prefix, which browsers refuse to let a
// sibling subdomain or a plain-HTTP page set (no cookie tossing). Lax, not Strict, so the return
// from the identity provider (a cross-site navigation to /auth/callback) carries the session it
// replaces; cross-site requests are still refused by the X-CSRF and Origin checks of every /api
// route (docs/security-model.md §4).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, setSignedCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { AppEnv } from '../http/app-env';
import { isHttpsRequest, type WebSettings } from '../security/web-settings';

/** The cookie's name without prefix; over HTTPS it is sent as `__Host-console_session`. */
const SESSION_COOKIE = 'console_session';

/** Demo mode's cookie-signing secret inside DATA_DIR, when SESSION_SECRET is unset (index.ts). */
export const SESSION_SECRET_FILE = 'session-secret';

const SESSION_ID_PATTERN = /^[\w-]{43}$/;

/** What the cookie needs: the signing secret and how the console is reached. */
export interface SessionCookieSettings {
  secret: string;
  web: WebSettings;
}

function cookieOptions(c: Context<AppEnv>, settings: SessionCookieSettings): CookieOptions {
  const secure = isHttpsRequest(c, settings.web);
  // No Max-Age: a browser-session cookie. The server decides expiry (idle and maximum lifetime).
  return secure
    ? { httpOnly: true, sameSite: 'Lax', path: '/', secure: true, prefix: 'host' }
    : { httpOnly: true, sameSite: 'Lax', path: '/' };
}

/** The full cookie name for this request. */
function sessionCookieName(c: Context<AppEnv>, settings: SessionCookieSettings): string {
  return isHttpsRequest(c, settings.web) ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

/**
 * The session id the request presents, when its signature is valid. `presented` tells whether a
 * session cookie was sent at all (so a stale one can be cleared). Two cookies of that name (one
 * planted by someone else) count as none: we cannot tell which is genuine.
 */
export async function readSessionCookie(
  c: Context<AppEnv>,
  settings: SessionCookieSettings,
): Promise<{ id: string | undefined; presented: boolean }> {
  const header = c.req.header('cookie');
  if (!header) return { id: undefined, presented: false };
  const name = sessionCookieName(c, settings);
  const copies = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`));
  if (copies.length === 0) return { id: undefined, presented: false };
  if (copies.length > 1) return { id: undefined, presented: true };
  const value = verifiedValue(copies[0]!.slice(name.length + 1), settings.secret);
  const id = value !== undefined && SESSION_ID_PATTERN.test(value) ? value : undefined;
  return { id, presented: true };
}

/**
 * The value of a cookie signed by Hono's `setSignedCookie` (`value.base64(HMAC-SHA-256)`,
 * URI-encoded), when its signature is right. Checked with node:crypto rather than Hono's
 * `getSignedCookie`, which imports the secret into WebCrypto again on every request: about a
 * quarter of a millisecond of every API call, for the same comparison.
 */
function verifiedValue(raw: string, secret: string): string | undefined {
  let cookie = raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  try {
    cookie = decodeURIComponent(cookie);
  } catch {
    return undefined;
  }
  const dot = cookie.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const value = cookie.slice(0, dot);
  const signature = Buffer.from(cookie.slice(dot + 1));
  const expected = Buffer.from(createHmac('sha256', secret).update(value).digest('base64'));
  return signature.length === expected.length && timingSafeEqual(signature, expected)
    ? value
    : undefined;
}

/** Sets the cookie carrying `id`. */
export async function writeSessionCookie(
  c: Context<AppEnv>,
  settings: SessionCookieSettings,
  id: string,
): Promise<void> {
  await setSignedCookie(c, SESSION_COOKIE, id, settings.secret, cookieOptions(c, settings));
}

/** Tells the browser to drop the cookie. */
export function clearSessionCookie(c: Context<AppEnv>, settings: SessionCookieSettings): void {
  deleteCookie(c, SESSION_COOKIE, cookieOptions(c, settings));
}
