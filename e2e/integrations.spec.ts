// The account-wide view as an admin sets it up: register an integration on the Integrations page,
// copy the key shown once, report with the real reporter package against the running console,
// and see the integration's requests and its 429 on the rate-limits page.
import { createReporter } from '../packages/reporter/src/index';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** Registers `name` on the Integrations page as an admin does; resolves to the key shown once. */
async function register(page: Page, name: string, owner?: string): Promise<string> {
  await page.goto('/integrations');
  await page.getByLabel('Name').fill(name);
  if (owner) await page.getByLabel(/Owner contact/).fill(owner);
  await page.getByRole('button', { name: 'Register and show key' }).click();
  const key = (await page.getByTestId('issued-key').textContent())?.trim() ?? '';
  expect(key).toMatch(/^pacr_/);
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await expect(page.getByTestId('issued-key')).toHaveCount(0);
  return key;
}

test('an integration registered in the console reports through the reporter and shows in the breakdown', async ({
  page,
  baseURL,
}) => {
  const name = `E2E sync ${Date.now().toString(36)}`;
  const key = await register(page, name, 'e2e team');

  // The integration's own calls to the platform: answered here by a stand-in, one of them a 429.
  const reporter = createReporter({ consoleUrl: baseURL!, key });
  let calls = 0;
  const platformFetch = reporter.wrapFetch(async () => {
    calls += 1;
    return calls === 25
      ? new Response(null, {
          status: 429,
          headers: {
            'retry-after': '60',
            'ot-ratelimit-event-id': crypto.randomUUID(),
            'ot-requests-allowed': '1000',
            'ot-period': 'MINUTE',
            'ot-request-made': '1001',
          },
        })
      : new Response('{}', { status: 200 });
  });
  for (let index = 0; index < 25; index += 1) {
    await platformFetch(
      `https://tenant.example/rest/api/consent/v4/datasubjects/profiles?updatedSince=x&page=${index}`,
    );
  }
  await reporter.close();
  expect(reporter.stats()).toMatchObject({ reportsSent: 1, reportsFailed: 0 });

  const table = page.getByRole('table', { name: 'Requests of each reporting integration' });
  const row = table.getByRole('row').filter({ hasText: name });
  // The report is stored within a write window and the account view is recomputed each second:
  // open the page until it has the report, as a person would reload it.
  await expect(async () => {
    await page.goto('/rate-limits');
    await expect(row.getByRole('cell').nth(0)).toHaveText('25', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(row).toContainText('e2e team');
  await expect(row.getByRole('cell').nth(3)).toHaveText('1');
  await expect(page.locator('.account-incidents')).toContainText(`Seen by ${name} (1)`);
});

test('an admin removes a revoked integration after confirming in the page, and its 429 keeps its name', async ({
  page,
  baseURL,
}) => {
  const name = `E2E removed ${Date.now().toString(36)}`;
  const key = await register(page, name);

  // One report with a 429, so the account-wide view has something of it to keep.
  const reporter = createReporter({ consoleUrl: baseURL!, key });
  const platformFetch = reporter.wrapFetch(
    async () =>
      new Response(null, {
        status: 429,
        headers: {
          'retry-after': '60',
          'ot-ratelimit-event-id': crypto.randomUUID(),
          'ot-requests-allowed': '1000',
          'ot-period': 'MINUTE',
          'ot-request-made': '1001',
        },
      }),
  );
  await platformFetch('https://tenant.example/rest/api/consent/v4/datasubjects/profiles');
  await reporter.close();
  expect(reporter.stats()).toMatchObject({ reportsSent: 1, reportsFailed: 0 });

  const row = page.getByRole('row').filter({ hasText: name });
  // An active integration offers no removal: it is revoked first.
  await expect(row.getByRole('button', { name: 'Remove' })).toHaveCount(0);
  await row.getByRole('button', { name: 'Revoke' }).click();
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('revoked');

  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(row).toContainText(`Remove ${name} from the list?`);
  // The question is asked in the page, focus on the confirming button; Keep steps back.
  await expect(row.getByRole('button', { name: 'Remove' })).toBeFocused();
  await row.getByRole('button', { name: 'Keep' }).click();
  await expect(row).toContainText('revoked');
  await row.getByRole('button', { name: 'Remove' }).click();
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);

  // What it reported stays, under its name marked as removed.
  await expect(async () => {
    await page.goto('/rate-limits');
    await expect(page.locator('.account-incidents')).toContainText(
      `Seen by ${name} (removed integration) (1)`,
      { timeout: 2_000 },
    );
  }).toPass({ timeout: 20_000 });
});
