// Scenario 7, bundle: gzip size of the JavaScript the first page loads, and of each page chunk.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { figure, type Figure } from '../lib/report';

const DIST = 'dist/client';

const gzipKb = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length / 1024;

export async function bundleScenario(): Promise<Figure[]> {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  // What the browser fetches before the first page can render: the entry script and its preloads.
  const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map(
    (match) => match[1] as string,
  );
  const figures: Figure[] = [];
  const initialKb = initial.reduce((sum, file) => sum + gzipKb(join(DIST, file)), 0);
  figures.push(
    figure('Bundle', `initial JS (${initial.length} file(s))`, initialKb, 'KB gzip', {
      op: '<=',
      value: 150,
    }),
  );
  const chunks = readdirSync(join(DIST, 'assets')).filter(
    (file) => file.endsWith('.js') && !initial.includes(`assets/${file}`),
  );
  for (const chunk of chunks.sort()) {
    figures.push(
      figure(
        'Bundle',
        `chunk ${chunk.replace(/-[\w-]{8}\.js$/, '')}`,
        gzipKb(join(DIST, 'assets', chunk)),
        'KB gzip',
      ),
    );
  }
  figures.push(
    figure('Bundle', 'pages load as separate chunks', chunks.length, 'chunks', {
      op: '>=',
      value: 1,
    }),
  );
  return figures;
}
