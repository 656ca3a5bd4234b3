// Serves the built SPA: hashed assets with long caching, and index.html for every client route
// so a shared link like /event-types?module=Consent opens the right page.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Privacy API Console</title>
<p>The console's web interface has not been built. Run <code>npm run build</code>, or use
<code>npm start</code>, which builds it first.</p></html>`;

/** Routes serving the SPA from `staticDir`. Mount after the API routes. */
export function staticSiteRoutes(staticDir: string) {
  const indexPath = join(staticDir, 'index.html');
  if (!existsSync(indexPath)) {
    return new Hono().get('*', (c) => c.html(NOT_BUILT_PAGE, 503));
  }
  // Read once: index.html only changes with a new build, which means a restart.
  const indexHtml = readFileSync(indexPath, 'utf8');
  return new Hono()
    .use(
      '/assets/*',
      serveStatic({
        root: staticDir,
        onFound: (_path, c) => {
          c.header('Cache-Control', 'public, max-age=31536000, immutable');
        },
      }),
    )
    .get('/assets/*', (c) => c.text('Not found', 404))
    .use('*', serveStatic({ root: staticDir, index: '' }))
    .get('*', (c) => {
      c.header('Cache-Control', 'no-cache');
      return c.html(indexHtml);
    });
}
