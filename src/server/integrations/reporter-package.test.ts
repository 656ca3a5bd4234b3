// The reporter as an integration team gets it: `npm pack` in packages/reporter, the tarball
// installed into an empty folder with npm, imported by plain `node` (no bundler, no tsx), and
// reporting to a running console, whose account-wide view then shows the integration's traffic
// and its 429s. A bad key or an unreachable console never reaches the integration's own calls.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountOverviewSchema, IssuedKeySchema } from '../../shared/integrations';
import { createConsoleServer } from '../http-server';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';
import { freePort } from '../test-support/free-port';

const run = promisify(execFile);
const PACKAGE_DIR = resolve(import.meta.dirname, '../../../packages/reporter');
const EVENT_ID = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';

interface IntegrationRun {
  statuses: number[];
  thrown: string | null;
  errors: string[];
  stats: { reportsSent: number; reportsFailed: number; lastError: string | null };
}

describe('the packed reporter package', { timeout: 120_000 }, () => {
  let folder: string;
  let packedFiles: string[];
  let h: BffHarness;
  let consoleUrl: string;
  let closeServer: () => Promise<void>;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'reporter-package-'));
    const packed = await run('npm', ['pack', '--json', '--pack-destination', folder], {
      cwd: PACKAGE_DIR,
    });
    // npm prints the prepack build's output before the JSON.
    const [manifest] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    packedFiles = manifest!.files.map((file) => file.path).sort();
    const app = join(folder, 'integration');
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'integration', private: true, type: 'module' }),
    );
    await run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', join(folder, manifest!.filename)],
      { cwd: app },
    );
    copyFileSync(
      resolve(import.meta.dirname, 'fixtures/packed-integration.mjs'),
      join(app, 'integration.mjs'),
    );

    h = await startBffHarness();
    const server = createConsoleServer({ fetch: h.app.fetch, hostname: '127.0.0.1' });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    consoleUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    closeServer = () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    // npm pack (with its build) and npm install take seconds, more on a busy machine.
  }, 120_000);

  afterAll(async () => {
    await closeServer?.();
    await h?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Runs the integration with plain node in the folder the tarball was installed into. */
  async function integration(url: string, key: string): Promise<IntegrationRun> {
    const { stdout } = await run(process.execPath, ['integration.mjs'], {
      cwd: join(folder, 'integration'),
      env: { PATH: process.env.PATH ?? '', CONSOLE_URL: url, CONSOLE_REPORTING_KEY: key, EVENT_ID },
    });
    return JSON.parse(stdout) as IntegrationRun;
  }

  it('packs built ESM, type declarations, the package manifest and the README', () => {
    expect(packedFiles).toEqual([
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/templates.d.ts',
      'dist/templates.js',
      'package.json',
    ]);
  });

  it('reports an integration’s requests and 429s to a running console', async () => {
    const registered = await h.request('/api/integrations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Packed integration', owner: 'integration team' }),
    });
    const { key, integration: registeredIntegration } = IssuedKeySchema.parse(
      await registered.json(),
    );

    const result = await integration(consoleUrl, key);
    expect(result.thrown).toBeNull();
    expect(result.statuses.filter((status) => status === 429)).toHaveLength(3);
    // One report from close(), or more if the 5-second timer fired first on a slow machine.
    expect(result.stats.reportsSent).toBeGreaterThanOrEqual(1);
    expect(result.stats).toMatchObject({ reportsFailed: 0, lastError: null });

    const view = AccountOverviewSchema.parse(
      await (await h.request('/api/account-usage', {}, { as: 'support' })).json(),
    );
    const row = view.integrations.find((entry) => entry.id === registeredIntegration.id);
    expect(row).toMatchObject({ requestsLastHour: 12, throttledLastHour: 3, stale: false });
    const incident = view.incidents.find((entry) => entry.eventId === EVENT_ID);
    expect(incident?.reporters).toEqual([
      { id: registeredIntegration.id, name: 'Packed integration', hits: 3 },
    ]);
  });

  it('never throws into the integration’s calls with a bad key or an unreachable console, and counts the failure', async () => {
    const badKey = await integration(consoleUrl, `pacr_${'x'.repeat(43)}`);
    expect(badKey.thrown).toBeNull();
    expect(badKey.statuses).toHaveLength(12);
    expect(badKey.stats).toMatchObject({ reportsSent: 0, reportsFailed: 1 });
    expect(badKey.stats.lastError).toContain('401');
    expect(badKey.errors).toEqual([badKey.stats.lastError]);

    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await integration(nowhere, `pacr_${'y'.repeat(43)}`);
    expect(unreachable.thrown).toBeNull();
    expect(unreachable.statuses).toHaveLength(12);
    expect(unreachable.stats.reportsSent).toBe(0);
    expect(unreachable.stats.reportsFailed).toBeGreaterThanOrEqual(1);
    expect(unreachable.stats.lastError).toBe('the console could not be reached');
  });
});
