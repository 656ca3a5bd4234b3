// Bundles the table scenario's reference page (bench/reference/table-page.tsx) with esbuild, the
// way a production build would (minified, React in production mode), and serves it with the rows
// it is given. Bench only: nothing here is part of the console or its build.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PAGE = fileURLToPath(new URL('./table-page.tsx', import.meta.url));
const HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reference table</title>' +
  '<script type="module" src="/page.js"></script></head><body><div id="root"></div></body></html>';

export interface ReferencePage {
  url: string;
  stop(): Promise<void>;
}

/** Serves the reference page on a free loopback port; `data` is the console's own answer. */
export async function serveReferencePage(data: string): Promise<ReferencePage> {
  const bundle = await build({
    entryPoints: [PAGE],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const files: Record<string, [string, string]> = {
    '/': ['text/html', HTML],
    '/page.js': ['text/javascript', script],
    '/data.json': ['application/json', data],
  };
  const server = createServer((request, response) => {
    const file = files[request.url ?? ''];
    response.writeHead(file ? 200 : 404, { 'content-type': file?.[0] ?? 'text/plain' });
    response.end(file?.[1] ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
