// Takes the README's screenshots from the running app: starts the mock upstream and the console
// on spare ports, opens each page in headless Chromium, and writes docs/screenshots/*.png.
// Run with `npm run screenshots` (it builds the SPA first).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';

const MOCK_PORT = 8796;
const BFF_PORT = 8795;
const mockUrl = `http://127.0.0.1:${MOCK_PORT}`;
const consoleUrl = `http://127.0.0.1:${BFF_PORT}`;
const outDir = 'docs/screenshots';

function start(args: string[], env: Record<string, string>): ChildProcess {
  // Node with tsx's loader in one process, so killing it stops the server (npx would leave its
  // child running).
  return spawn(process.execPath, ['--import', 'tsx', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitFor(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not come up`);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${outDir}/${name}.png` });
  console.log(`wrote ${outDir}/${name}.png`);
}

const processes = [
  start(['src/mocks/server.ts'], { MOCK_PORT: String(MOCK_PORT) }),
  start(['src/server/index.ts'], {
    PORT: String(BFF_PORT),
    UPSTREAM_BASE_URL: mockUrl,
    OAUTH_CLIENT_ID: 'demo-client',
    OAUTH_CLIENT_SECRET: 'demo-secret',
    EVENT_TYPES_CACHE_SECONDS: '0',
    LOG_LEVEL: 'warn',
  }),
];

try {
  await waitFor(`${mockUrl}/__mock/stats`);
  await waitFor(`${consoleUrl}/healthz`);
  mkdirSync(outDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const desktop = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await desktop.goto(`${consoleUrl}/event-types`);
  await desktop.getByRole('table', { name: 'Event types' }).waitFor();
  await shot(desktop, 'event-types');

  await desktop.goto(
    `${consoleUrl}/event-types?module=Assessments&module=Vendor+Risk&sort=value&dir=asc`,
  );
  await desktop.getByRole('table', { name: 'Event types' }).waitFor();
  await shot(desktop, 'event-types-filtered');

  await fetch(`${mockUrl}/__mock/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'event-types', status: 429, retryAfterSeconds: 37 }),
  });
  await desktop.goto(`${consoleUrl}/event-types`);
  await desktop.getByRole('alert').waitFor();
  await shot(desktop, 'event-types-rate-limited');

  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.goto(`${consoleUrl}/event-types`);
  await phone.getByRole('table', { name: 'Event types' }).waitFor();
  await shot(phone, 'event-types-narrow');
  await browser.close();
} finally {
  for (const child of processes) child.kill('SIGTERM');
}
