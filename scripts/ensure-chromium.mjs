// Makes sure a Chromium for the browser tests exists: uses CHROMIUM_PATH or /usr/bin/chromium,
// installs Debian's package when running as root with apt, and otherwise stops with the exact
// command to run. (Playwright's own browser download is not used: it needs hosts we cannot
// assume are reachable.)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (existsSync(chromiumPath)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (!isRoot || !hasApt || process.env.CHROMIUM_PATH) {
  console.error(
    `Chromium not found at ${chromiumPath}. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium\n` +
      'or set CHROMIUM_PATH to an existing Chromium binary.',
  );
  process.exit(1);
}

console.log('Chromium not found: installing Debian package "chromium" (about 30 s)…');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
if (!existsSync(chromiumPath)) {
  console.error(`apt-get finished but ${chromiumPath} is still missing.`);
  process.exit(1);
}
