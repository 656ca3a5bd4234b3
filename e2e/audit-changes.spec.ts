// "Who changed the alert threshold?" as an auditor answers it: after an admin changes a threshold,
// the auditor opens the audit page's administrative changes, filters them by kind, finds the change
// with its state before and after, and exports it as a signed JSON file that holds the entry and
// that the repository's verifier accepts.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import {
  E2E_USERS,
  expect,
  expectNoSeriousA11yViolations,
  SIGNED_OUT_STATE,
  test,
} from './fixtures';

const E2E_AUDIT_KEY = 'e2e-audit-key-not-for-any-real-deployment-0123';
const TARGET = 'account-minute:MINUTE';
// Two sign-ins, an export verified by a second process and an axe run, on a busy machine.
test.describe.configure({ timeout: 90_000 });

/** Sets the threshold of TARGET from the admin's signed-in page. */
async function setThreshold(page: Page, percent: number) {
  const status = await page.evaluate(async (value) => {
    const response = await fetch('/api/alerts/thresholds/account-minute/MINUTE', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'X-CSRF': '1' },
      body: JSON.stringify({ percent: value }),
    });
    return response.status;
  }, percent);
  expect(status).toBe(204);
}

test('the auditor finds an admin’s threshold change with before and after, and exports it', async ({
  page,
  browser,
}) => {
  // The live store keeps earlier runs' changes: two values of this run tell this change apart.
  const before = 2 + (Date.now() % 90);
  const after = before + 1;
  await page.goto('/alerts');
  await setThreshold(page, before);
  await setThreshold(page, after);

  const context = await browser.newContext({
    storageState: SIGNED_OUT_STATE,
    acceptDownloads: true,
  });
  const auditor = await context.newPage();
  await auditor.goto('/sign-in?returnTo=%2Faudit%3Fview%3Dchanges');
  await auditor.getByLabel('Username').fill(E2E_USERS.auditor.username);
  await auditor.getByLabel('Password').fill(E2E_USERS.auditor.password);
  await auditor.getByRole('button', { name: 'Sign in' }).click();
  await expect(auditor.getByRole('tab', { name: 'Administrative changes' })).toHaveAttribute(
    'aria-selected',
    'true',
  );

  await auditor.getByLabel('Kind').selectOption({ label: 'Alert thresholds' });
  await expect(auditor).toHaveURL(/[?&]kind=threshold(&|$)/);
  const table = auditor.getByRole('table', { name: 'Administrative changes' });
  // Newest first: this run's change is the top row.
  const row = table.getByRole('row').nth(1);
  await expect(row).toContainText(`Changed the alert threshold of “${TARGET}”`);
  await expect(row).toContainText('admin');
  await row.getByText('Before and after').click();
  await expect(row).toContainText(
    new RegExp(`Before\\s*percent: ${before}\\s*After\\s*percent: ${after}$`),
  );

  const downloads: Array<{ name: string; path: string }> = [];
  auditor.on('download', (download) => {
    void download
      .path()
      .then((path) => downloads.push({ name: download.suggestedFilename(), path }));
  });
  const group = auditor.getByRole('group', { name: 'Export the filtered changes' });
  await group.getByRole('button', { name: 'Export JSON' }).click();
  await expect(auditor.getByText(/^Saved audit-changes-.*\.json \(\d+ changes?\)/)).toBeVisible();
  await expect.poll(() => downloads.length).toBe(2);
  const file = downloads.find(
    (download) => download.name.endsWith('.json') && !download.name.endsWith('.sig.json'),
  )!;
  const signature = downloads.find((download) => download.name.endsWith('.sig.json'))!;
  const exported = JSON.parse(readFileSync(file.path, 'utf8')) as {
    scope: string;
    records: Array<{
      user: string;
      action: string;
      target: string;
      before: unknown;
      after: unknown;
    }>;
  };
  expect(exported.scope).toBe('administrative changes, filters: kind threshold');
  expect(exported.records[0]).toMatchObject({
    user: 'admin',
    action: 'threshold.changed',
    target: TARGET,
    before: { percent: before },
    after: { percent: after },
  });
  expect(exported.records.every((record) => record.action.startsWith('threshold.'))).toBe(true);
  const verified = execFileSync(
    'npx',
    ['tsx', 'src/server/cli/audit.ts', 'verify-export', file.path, signature.path],
    { env: { ...process.env, AUDIT_KEY: E2E_AUDIT_KEY }, encoding: 'utf8' },
  );
  expect(verified).toContain('(the trusted key)');
  await test.info().attach('verify-export', { body: verified, contentType: 'text/plain' });
  await expectNoSeriousA11yViolations(auditor);
  await context.close();
});
