// HTML pages are never stored by the browser. The SPA's page holds no data itself, but a stored
// page can be restored from the back-forward cache with a signed-out user's data still on screen;
// browsers do not restore `no-store` pages once the session cookie has changed.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/app-env';
import { NO_STORE } from '../http/no-store';

/** Sets `Cache-Control: no-store` on every text/html answer. */
export function htmlNoStore(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.headers.get('content-type')?.startsWith('text/html')) {
      for (const [name, value] of Object.entries(NO_STORE)) c.res.headers.set(name, value);
    }
  };
}
