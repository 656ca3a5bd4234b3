// Starts a worker thread from its TypeScript source when running from a checkout (loaded through
// tsx), or from the bundled file next to the server's chunks after `npm run build`.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A worker running `source` (a `.ts` file) if it exists, else `built` (its bundled `.js`). Both
 * are URLs relative to the caller's module, which knows where esbuild puts its worker.
 */
export function startWorker(source: URL, built: URL): Worker {
  if (!existsSync(fileURLToPath(source))) return new Worker(built);
  // tsx's register() makes the worker load TypeScript, whatever loader its parent used.
  // Its ESM entry, found next to the CommonJS one `require.resolve` gives.
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source.href)}); });`;
  return new Worker(boot, { eval: true });
}
