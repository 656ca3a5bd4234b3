// `npm run build`'s step after Vite: writes a Brotli (.br) and a gzip (.gz) copy beside every
// compressible file of the SPA's build under dist/client/assets, for the static site to send to
// browsers that accept them (src/server/routes/static-site.ts). Compressed once, here, at the highest
// levels rather than on every answer: the files never change after a build, so the console spends
// no CPU on them, and a browser on a real network downloads the initial JavaScript at about a
// third of its size.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ASSETS = join('dist', 'client', 'assets');
const COMPRESSIBLE = /\.(?:js|css|svg|json)$/;
/** A copy is kept only when it saves at least this share: a header for a few bytes is not worth it. */
const WORTH_IT = 0.9;

let written = 0;
for (const name of readdirSync(ASSETS)) {
  if (!COMPRESSIBLE.test(name)) continue;
  const path = join(ASSETS, name);
  const bytes = readFileSync(path);
  const copies = {
    br: brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gz: gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }),
  };
  for (const [suffix, copy] of Object.entries(copies)) {
    if (copy.length > bytes.length * WORTH_IT) continue;
    writeFileSync(`${path}.${suffix}`, copy);
    written += 1;
  }
}
console.log(`compressed copies of the SPA's assets: ${written}`);
