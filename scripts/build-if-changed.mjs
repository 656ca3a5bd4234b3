// `npm start`'s pre-step: rebuilds the app only when its sources changed since the last build, so
// a restart takes seconds instead of a full build. "Changed" is any difference in the names,
// sizes or modification times of the files a build reads (src, public, index.html, the build
// configuration and the lockfile); the fingerprint of the last good build is kept in dist/.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const INPUTS = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'scripts/compress-client.mjs',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];
const STAMP = join('dist', '.sources-fingerprint');
const OUTPUTS = [join('dist', 'server', 'index.js'), join('dist', 'client', 'index.html')];

/** Every file under `path`, tests excluded (they are not part of the build). */
function* files(path) {
  if (!existsSync(path)) return;
  const stat = statSync(path);
  if (stat.isFile()) {
    yield [path, stat];
    return;
  }
  for (const entry of readdirSync(path).sort()) {
    if (/\.test\.tsx?$/.test(entry)) continue;
    yield* files(join(path, entry));
  }
}

function fingerprint() {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const [path, stat] of files(input))
      hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const current = fingerprint();
const built = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
if (built === current && OUTPUTS.every((output) => existsSync(output))) {
  console.log('Build is up to date with the sources; starting.');
  process.exit(0);
}
console.log('Sources changed since the last build (or no build yet): building…');
const result = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit', shell: false });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(STAMP, `${current}\n`);
