// `npm test`: every check a change must pass, in one run — typecheck, lint, unit and route tests
// (Vitest), then the built app in Chromium (Playwright) — ending with one line
// "N passed, N failed" that sums them all. Exits non-zero when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const resultsDir = '.test-results';
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };

// Each part names the Node it runs on: `npm test` runs this file on a supported Node
// (scripts/with-supported-node.mjs), first on PATH for every command below.
function run(label, command, args, extraEnv = {}) {
  console.log(`\n=== ${label} (Node ${process.version}) ===`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...env, ...extraEnv } });
  return result.status === 0;
}

function readJson(path) {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const suites = [];

// Static checks count as one test each: a type error or lint error is a failure like any other.
for (const [label, args] of [
  ['typecheck', ['run', '--silent', 'typecheck']],
  ['lint', ['run', '--silent', 'lint']],
]) {
  const ok = run(label, 'npm', args);
  totals[ok ? 'passed' : 'failed'] += 1;
  suites.push(`${label}: ${ok ? 'ok' : 'FAILED'}`);
}

// The PostgreSQL, Redis and scale-out suites need real servers: PostgreSQL, one Redis and a
// three-master Redis Cluster. Unless the caller points at its own (TEST_DATABASE_URL,
// TEST_REDIS_URL, TEST_REDIS_CLUSTER_URL), start throwaway ones on loopback, installing them from
// Debian when missing and root, so that this one command runs every suite. Where they cannot be had
// (not root, packages missing) those suites are skipped, saying so, rather than failed.
let stopServices = () => {};
if (!env.TEST_DATABASE_URL || !env.TEST_REDIS_URL || !env.TEST_REDIS_CLUSTER_URL) {
  console.log(
    '\n=== Redis, a Redis Cluster and PostgreSQL on loopback, for the store and scale-out suites ===',
  );
  const started = spawnSync('scripts/start-test-services.sh', [], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (started.status === 0) {
    for (const match of started.stdout.matchAll(/^export (TEST_[A-Z_]+)=(\S+)$/gm)) {
      env[match[1]] ??= match[2];
    }
    stopServices = () =>
      spawnSync('scripts/start-test-services.sh', ['--stop'], { env, stdio: 'ignore' });
  } else {
    console.log(
      '\nnote: Redis and PostgreSQL could not be started: the PostgreSQL and scale-out suites are skipped.',
    );
  }
}

const vitestJson = `${resultsDir}/vitest.json`;
const vitestOk = run('unit and route tests (vitest)', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
const vitest = readJson(vitestJson);
if (vitest) {
  totals.passed += vitest.numPassedTests;
  totals.failed += vitest.numFailedTests;
  totals.skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  suites.push(`vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed`);
  if (!vitestOk && vitest.numFailedTests === 0) {
    totals.failed += 1; // a crash outside any test (a suite that failed to load)
    suites.push('vitest: a test file failed to run');
  }
} else {
  totals.failed += 1;
  suites.push('vitest: produced no results');
}

const chromiumOk = run('browser for end-to-end tests', 'node', ['scripts/ensure-chromium.mjs']);
const buildOk = chromiumOk && run('build the app', 'npm', ['run', '--silent', 'build']);
const playwrightJson = `${resultsDir}/playwright.json`;
if (buildOk) {
  const playwrightOk = run(
    'end-to-end tests (playwright, Chromium)',
    'npx',
    ['playwright', 'test'],
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
    },
  );
  const report = readJson(playwrightJson);
  if (report?.stats) {
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats;
    totals.passed += expected + flaky;
    totals.failed += unexpected;
    totals.skipped += skipped;
    suites.push(`playwright: ${expected + flaky} passed, ${unexpected} failed`);
    if (!playwrightOk && unexpected === 0) {
      totals.failed += 1;
      suites.push('playwright: the run failed outside any test');
    }
  } else {
    totals.failed += 1;
    suites.push('playwright: produced no results');
  }
} else {
  totals.failed += 1;
  suites.push(chromiumOk ? 'build: FAILED' : 'chromium: missing (see message above)');
}

stopServices();
console.log(`\n=== summary ===\n${suites.join('\n')}`);
if (totals.skipped) console.log(`${totals.skipped} skipped`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 ? 0 : 1);
