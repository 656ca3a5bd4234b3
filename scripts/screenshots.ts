// Takes the README's screenshots from the running app: starts the console in demo mode on a spare
// port with a throwaway DATA_DIR, signs in through the sign-in page as the demo admin, visits
// each page in headless Chromium, and writes docs/screenshots/*.png.
// Run with `npm run screenshots` (it builds the app first).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';

// SCREENSHOTS_PORT, or E2E_PORT_OFFSET as for the e2e servers: another free port when several
// checkouts take screenshots at once.
const PORT = Number(
  process.env.SCREENSHOTS_PORT ?? 8795 + (Number(process.env.E2E_PORT_OFFSET ?? 0) || 0),
);
const consoleUrl = `http://127.0.0.1:${PORT}`;
const outDir = 'docs/screenshots';

async function waitFor(url: string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt += 1) {
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
  // Let charts, countdowns and fonts settle.
  await page.waitForTimeout(600);
  await page.screenshot({ path: `${outDir}/${name}.png` });
  console.log(`wrote ${outDir}/${name}.png`);
}

const server = spawn(process.execPath, ['dist/server/index.js'], {
  env: {
    ...process.env,
    PORT: String(PORT),
    UPSTREAM_BASE_URL: '',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'console-screenshots-')),
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

try {
  await waitFor(`${consoleUrl}/healthz`);
  mkdirSync(outDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();

  await page.goto(`${consoleUrl}/event-types`);
  await page.getByLabel('Username').waitFor();
  await shot(page, 'sign-in');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('demo');
  await page.getByRole('button', { name: 'Sign in' }).click();

  await page.getByRole('table', { name: 'Event types' }).waitFor();
  await shot(page, 'event-types');

  await page.goto(`${consoleUrl}/event-types?module=Assessments&module=Vendor+Risk&sort=name`);
  await page.getByRole('table', { name: 'Event types' }).waitFor();
  await shot(page, 'event-types-filtered');

  // A lookup of one of the demo data's people, then its comparison with the legacy call.
  await page.goto(`${consoleUrl}/data-subjects?operation=v4-details`);
  // The purpose bar first: LOOKUP_PURPOSE is required by default.
  await page.getByLabel('Category', { exact: true }).selectOption('access request');
  await page.getByLabel('Reference', { exact: true }).fill('DSAR-2291');
  await page.getByRole('button', { name: 'Use this purpose' }).click();
  await page.getByRole('button', { name: 'ada.lovelace@example.com' }).click();
  await page.getByRole('button', { name: 'Look up' }).click();
  await page.getByRole('table', { name: 'Profiles' }).waitFor();
  await shot(page, 'data-subjects');
  await page.getByRole('button', { name: 'Compare with legacy' }).click();
  await page.getByRole('heading', { name: 'What differs' }).waitFor();
  await shot(page, 'data-subjects-compare');
  // The audit trail of those lookups, searched by the identifier.
  await page.goto(`${consoleUrl}/audit`);
  await page.getByRole('table', { name: 'Audit trail' }).waitFor();
  await page.getByLabel('Identifier', { exact: true }).fill('ada.lovelace@example.com');
  await page.getByRole('button', { name: 'Find lookups' }).click();
  await page.getByRole('table', { name: 'Lookups of the identifier' }).waitFor();
  await shot(page, 'audit');

  // Provoke an account minute block with the demo controls, then look at the live panel and at
  // the banner on another page.
  await page.goto(`${consoleUrl}/rate-limits`);
  await page.getByRole('button', { name: 'Account minute block' }).click();
  await page.getByRole('table').first().waitFor();
  await page.waitForTimeout(1_500);
  await shot(page, 'rate-limits');
  // The list may still come from the console's cache; the block shows as the banner every page has.
  await page.goto(`${consoleUrl}/event-types`);
  await page.getByText('Blocked by the platform:').first().waitFor();
  await page.getByRole('table').first().waitFor();
  await shot(page, 'event-types-rate-limited');

  const phone = await context.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(`${consoleUrl}/rate-limits`);
  await phone.getByRole('heading', { level: 1 }).waitFor();
  await shot(phone, 'rate-limits-narrow');
  await browser.close();
} finally {
  server.kill('SIGTERM');
}
