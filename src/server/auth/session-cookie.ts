// The session cookie: only a random id, HMAC-signed with SESSION_SECRET, HttpOnly, SameSite=Strict,
// Path=/, no Domain; over HTTPS also Secure with the __Host- prefix, which browsers refuse to let a
// sibling subdomain or a plain-HTTP page set (no cookie tossing).
import type { Context } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { AppEnv } from '../app-env';
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
    ? { httpOnly: true, sameSite: 'Strict', path: '/', secure: true, prefix: 'host' }
    : { httpOnly: true, sameSite: 'Strict', path: '/' };
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
  const copies = header.split(';').filter((part) => part.trim().startsWith(`${name}=`)).length;
  if (copies === 0) return { id: undefined, presented: false };
  if (copies > 1) return { id: undefined, presented: true };
  const value = await getSignedCookie(
    c,
    settings.secret,
    SESSION_COOKIE,
    isHttpsRequest(c, settings.web) ? 'host' : undefined,
  );
  const id = typeof value === 'string' && SESSION_ID_PATTERN.test(value) ? value : undefined;
  return { id, presented: true };
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
