// Serves the built SPA: hashed assets with long caching, and index.html for every client route
// so a shared link like /event-types?module=Consent opens the right page.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Privacy API Console</title>
<p>The console's web interface has not been built. Run <code>npm run build</code>, or use
<code>npm start</code>, which builds it first.</p></html>`;

const PRECOMPRESSED = /\.(?:br|gz)$/;

/** The URL path of every regular file under `dir` (a build only changes with a restart). */
function listBuiltFiles(dir: string): Set<string> {
  const files = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    // The compressed copies (scripts/compress-client.mjs) are sent in place of their file, not
    // as files of their own.
    if (PRECOMPRESSED.test(entry.name)) continue;
    const path = relative(dir, join(entry.parentPath, entry.name));
    files.add(`/${path.split(sep).join('/')}`);
  }
  return files;
}

/** Routes serving the SPA from `staticDir`. Mount after the API routes. */
export function staticSiteRoutes(staticDir: string) {
  const indexPath = join(staticDir, 'index.html');
  if (!existsSync(indexPath)) {
    return new Hono().get('*', (c) => c.html(NOT_BUILT_PAGE, 503));
  }
  // Read once: index.html only changes with a new build, which means a restart.
  const indexHtml = readFileSync(indexPath, 'utf8');
  // Only the files the build wrote are served as files. A directory (the root `/` above all) or
  // anything else falls through to the page, so no path can answer a directory listing, an empty
  // download or a file outside the build.
  const builtFiles = listBuiltFiles(staticDir);
  builtFiles.delete('/index.html');
  // A file's Brotli or gzip copy, when the build wrote one and the browser accepts it, with
  // `Vary: Accept-Encoding` for caches on the way.
  const serveFile = serveStatic({
    root: staticDir,
    index: '',
    precompressed: true,
  });
  const builtFileOnly: MiddlewareHandler = async (c, next) => {
    if (!builtFiles.has(c.req.path)) return next();
    const response = await serveFile(c, next);
    // Vite names every file under assets/ by its content hash: it never changes. (serveStatic's
    // onFound runs after the answer is built, too late to add a header.)
    if (response && c.req.path.startsWith('/assets/')) {
      response.headers.set('Cache-Control', 'public, max-age=31536000, immutable');
      // Also on the uncompressed answer: a cache on the way keeps one copy per encoding.
      if (!response.headers.has('Vary')) response.headers.set('Vary', 'Accept-Encoding');
    }
    return response;
  };
  return new Hono()
    .use('*', builtFileOnly)
    .get('/assets/*', (c) => c.text('Not found', 404))
    .get('*', (c) => {
      c.header('Cache-Control', 'no-cache');
      return c.html(indexHtml);
    });
}
