// What the BFF may believe about how browsers reach it: its public address (PUBLIC_URL) and
// whether a TLS-terminating proxy in front of it says so (TRUST_PROXY). Cookie security, the
// Origin check and sign-in throttling all decide from these.
import type { Context } from 'hono';
import type { AppEnv } from '../http/app-env';

/** How the console is reached. */
export interface WebSettings {
  /** The origin browsers use (`https://console.example.com`), when configured. */
  publicOrigin: string | undefined;
  /**
   * Believe X-Forwarded-For/-Proto/-Host. Only true when a proxy in front of the BFF sets them and
   * nothing else can reach the BFF: otherwise a client could claim any address.
   */
  trustProxy: boolean;
}

/** The value a proxy appended last: the one our own proxy wrote. */
function lastForwarded(value: string | undefined): string | undefined {
  const last = value?.split(',').at(-1)?.trim();
  return last ? last : undefined;
}

/** True when the browser reached the console over HTTPS. */
export function isHttpsRequest(c: Context<AppEnv>, web: WebSettings): boolean {
  if (web.publicOrigin) return web.publicOrigin.startsWith('https:');
  if (web.trustProxy) {
    const proto = lastForwarded(c.req.header('x-forwarded-proto'));
    if (proto) return proto.toLowerCase() === 'https';
  }
  return new URL(c.req.url).protocol === 'https:';
}

/** The console's own origin as the browser sees it, e.g. `http://127.0.0.1:8787`. */
export function consoleOrigin(c: Context<AppEnv>, web: WebSettings): string {
  if (web.publicOrigin) return web.publicOrigin;
  const scheme = isHttpsRequest(c, web) ? 'https' : 'http';
  const forwardedHost = web.trustProxy
    ? lastForwarded(c.req.header('x-forwarded-host'))
    : undefined;
  const host = forwardedHost ?? c.req.header('host') ?? new URL(c.req.url).host;
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return 'invalid:';
  }
}

/** The address sign-in throttling counts failures against. */
export function clientAddress(c: Context<AppEnv>, web: WebSettings): string {
  if (web.trustProxy) {
    const forwarded = lastForwarded(c.req.header('x-forwarded-for'));
    if (forwarded) return forwarded;
  }
  return c.env?.incoming?.socket?.remoteAddress ?? 'unknown';
}
