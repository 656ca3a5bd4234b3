// Process entry: on a supported Node (24 or newer) it starts the console (main.ts); on an older
// one it runs the console again on the supported Node the README's commands use, instead of
// letting better-sqlite3 13 crash the process with a segmentation fault and no word. It imports
// nothing of the console statically, so nothing native is loaded before the check.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SUPPORTED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);

if (major >= SUPPORTED_MAJOR) {
  await import('./main');
} else {
  // From src/server (tsx) or dist/server (the build), the project's scripts are two levels up.
  const launcher = fileURLToPath(new URL('../../scripts/with-supported-node.mjs', import.meta.url));
  if (!existsSync(launcher)) {
    console.error(
      `The console needs Node.js ${SUPPORTED_MAJOR} or newer; this is ${process.version}.`,
    );
    process.exit(1);
  }
  const child = spawn(
    process.execPath,
    [launcher, 'node', ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit' },
  );
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
