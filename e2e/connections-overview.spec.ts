// The overview of every connection on the rate-limits page (demo mode: Production (EU) and UAT):
// each card shows its own tier's limits; a block provoked in UAT with UAT's demo controls counts
// down on UAT's card while production's page is shown, production's card staying clear; a card is
// a link to its connection's page, reached with the keyboard.
import type { Page } from '@playwright/test';
import { expect, SIGNED_OUT_STATE, signInToDemo, test } from './fixtures';
import { E2E_DEMO_BFF_PORT } from './ports';

test.use({ baseURL: `http://127.0.0.1:${E2E_DEMO_BFF_PORT}`, storageState: SIGNED_OUT_STATE });

const overview = (page: Page) => page.getByRole('region', { name: 'All connections' });
const cardOf = (page: Page, label: RegExp) => overview(page).getByRole('link', { name: label });

test('a block in UAT shows on UAT’s card while production’s page is open', async ({ page }) => {
  await signInToDemo(page, 'admin');
  await page.goto('/c/uat/rate-limits');
  await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  await page.getByRole('button', { name: 'End all blocks' }).click();
  await expect(page.getByText('Every block in the mock and the console has ended.')).toBeVisible();
  await page.getByRole('button', { name: 'Account minute block' }).click();
  await expect(page.getByText(/^Account minute block: the platform answered 429/)).toBeVisible();

  await page.goto('/c/default/rate-limits');
  const production = cardOf(page, /^Production \(EU\) rate limits/);
  const uat = cardOf(page, /^UAT rate limits/);
  await expect(production).toHaveAttribute('aria-current', 'page');
  // Each connection's own tier and limits: 20,000 a minute in production, 5,000 in the sandbox.
  await expect(production).toContainText('production');
  await expect(production).toContainText(/Account minute limit: [\d,]+ of 20,000 per minute/);
  await expect(uat).toContainText('sandbox');
  await expect(uat).toContainText(/Account minute limit: [\d,]+ of 5,000 per minute/);
  // UAT's block, counting down; production's card and page are clear.
  await expect(uat).toContainText(/Blocked by the platform: Account minute limit · 0:[0-5]\d left/);
  await expect(production).toContainText('No blocks running');
  // No banner on production's page: the block stops UAT, not this connection.
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /^(Blocked by the platform|Paused by the console)/ }),
  ).toHaveCount(0);

  // The card is a link: Enter on it opens UAT's page.
  await uat.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/c\/uat\/rate-limits$/);
  await expect(cardOf(page, /^UAT rate limits \(this page\)/)).toHaveAttribute(
    'aria-current',
    'page',
  );
  await page.getByRole('button', { name: 'End all blocks' }).click();
  await expect(cardOf(page, /^UAT rate limits/)).toContainText('No blocks running');
});
