// The built SPA as a browser meets it: the root and every client route answer the page, built files
// are served as themselves, and no path ever answers a directory.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticSiteRoutes } from './static-site';

const PAGE = '<!doctype html><title>Privacy API Console</title><div id="root"></div>';
/** A chunk with its Brotli and gzip copies, as `npm run build` writes them. */
const CHUNK = `export const rows = [${'"Consent Given",'.repeat(200)}];`;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'static-site-'));
  mkdirSync(join(dir, 'assets', 'nested'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), PAGE);
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'assets', 'main-abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets', 'nested', 'chunk.js'), 'console.log(2)');
  writeFileSync(join(dir, 'assets', 'rows-def456.js'), CHUNK);
  writeFileSync(join(dir, 'assets', 'rows-def456.js.br'), brotliCompressSync(CHUNK));
  writeFileSync(join(dir, 'assets', 'rows-def456.js.gz'), gzipSync(CHUNK));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the built SPA', () => {
  it('answers the root address with the page, not a download', async () => {
    const response = await staticSiteRoutes(dir).request('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toBe(PAGE);
  });

  it('answers a client route, with or without a query, with the page', async () => {
    for (const path of ['/event-types', '/event-types?module=Consent', '/sign-in?returnTo=%2F']) {
      const response = await staticSiteRoutes(dir).request(path);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(PAGE);
    }
  });

  it('serves built files as themselves, hashed assets with long caching', async () => {
    const app = staticSiteRoutes(dir);
    const asset = await app.request('/assets/main-abc123.js');
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('console.log(1)');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const nested = await app.request('/assets/nested/chunk.js');
    expect(await nested.text()).toBe('console.log(2)');
    const icon = await app.request('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/svg/);
  });

  it('never answers a directory: a folder is the page, a folder under assets is not found', async () => {
    const app = staticSiteRoutes(dir);
    for (const path of ['/assets', '/assets/', '/assets/nested', '/assets/nested/']) {
      const response = await app.request(path);
      expect(response.headers.get('content-type') ?? '').not.toMatch(/octet-stream/);
      expect(response.status === 404 || (await response.text()) === PAGE).toBe(true);
    }
    const missing = await app.request('/assets/missing.js');
    expect(missing.status).toBe(404);
  });

  it('serves nothing outside the build', async () => {
    const app = staticSiteRoutes(dir);
    for (const path of ['/../package.json', '/%2e%2e/package.json', '/index.html/..']) {
      const response = await app.request(path);
      expect(await response.text()).not.toContain('"name"');
    }
  });

  it('sends the compressed copy a browser accepts, and the file itself to one that accepts none', async () => {
    const app = staticSiteRoutes(dir);
    const fetchWith = (acceptEncoding?: string) =>
      app.request('/assets/rows-def456.js', {
        headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {},
      });
    const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());

    const chromium = await fetchWith('gzip, deflate, br, zstd');
    expect(chromium.headers.get('content-encoding')).toBe('br');
    expect(chromium.headers.get('content-type')).toMatch(/javascript/);
    expect(chromium.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(chromium.headers.get('cache-control')).toContain('immutable');
    const br = await bytes(chromium);
    expect(br.length).toBeLessThan(CHUNK.length / 4);
    expect(brotliDecompressSync(br).toString()).toBe(CHUNK);

    const gzipOnly = await fetchWith('gzip');
    expect(gzipOnly.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await bytes(gzipOnly)).toString()).toBe(CHUNK);

    const plain = await fetchWith();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await plain.text()).toBe(CHUNK);
  });

  it('does not serve the compressed copies as files of their own', async () => {
    const app = staticSiteRoutes(dir);
    for (const path of ['/assets/rows-def456.js.br', '/assets/rows-def456.js.gz']) {
      expect((await app.request(path)).status).toBe(404);
    }
  });
});
