// The accountability page as a data-protection officer (the auditor role) opens it: after an
// admin looks Ada up under a purpose, the page's figures for the last 30 days are the ones the
// API counts, the purpose is among them, and the page has no axe violation and fits the screen at
// 1360 and 390 px.
import type { Page } from '@playwright/test';
import { a11yViolations, E2E_USERS, expect, SIGNED_OUT_STATE, test } from './fixtures';

const ADA = 'ada.lovelace@example.com';
// A lookup, a second sign-in and two axe runs: generous, but bounded, on a busy machine.
test.describe.configure({ timeout: 90_000 });

/** The figures the API counts for the last 30 days, read in the signed-in page. */
function apiFigures(page: Page) {
  return page.evaluate(async () => {
    const response = await fetch('/api/accountability', { headers: { 'X-CSRF': '1' } });
    return (await response.json()) as {
      lookups: { total: number; people: number };
      withoutPurpose: { lookups: number };
      purposes: Array<{ category: string; lookups: number }>;
    };
  });
}

test('the auditor sees the last 30 days’ figures, the lookups’ purposes among them', async ({
  page,
  browser,
}) => {
  // An admin looks Ada up under an access request.
  await page.goto('/event-types');
  const status = await page.evaluate(async (identifier) => {
    const response = await fetch('/api/data-subjects/lookups', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF': '1' },
      body: JSON.stringify({
        operation: 'v4-details',
        params: { identifier },
        purpose: { category: 'access request', reference: 'DSAR-E2E-44' },
      }),
    });
    return response.status;
  }, ADA);
  expect(status).toBe(200);

  const context = await browser.newContext({ storageState: SIGNED_OUT_STATE });
  const auditor = await context.newPage();
  await auditor.goto('/sign-in?returnTo=%2Faccountability');
  await auditor.getByLabel('Username').fill(E2E_USERS.auditor.username);
  await auditor.getByLabel('Password').fill(E2E_USERS.auditor.password);
  await auditor.getByRole('button', { name: 'Sign in' }).click();
  await expect(auditor.getByRole('heading', { level: 1, name: 'Accountability' })).toBeVisible();
  await expect(
    auditor.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accountability' }),
  ).toBeVisible();

  const figures = await apiFigures(auditor);
  expect(figures.lookups.total).toBeGreaterThanOrEqual(1);
  await expect(auditor.getByTestId('lookups-total')).toHaveText(String(figures.lookups.total));
  await expect(auditor.getByTestId('people-looked-up')).toHaveText(String(figures.lookups.people));
  await expect(auditor.getByTestId('lookups-without-purpose')).toHaveText(
    String(figures.withoutPurpose.lookups),
  );
  const access = figures.purposes.find((purpose) => purpose.category === 'access request');
  expect(access?.lookups).toBeGreaterThanOrEqual(1);
  await expect(
    auditor
      .getByRole('table', { name: 'Lookups by purpose' })
      .getByRole('row', { name: new RegExp(`^access request ${access!.lookups} `) }),
  ).toBeVisible();
  await expect(auditor.getByTestId('evidence-summary')).toBeVisible();

  for (const size of [
    { width: 1360, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await auditor.setViewportSize(size);
    await expect(auditor.getByTestId('lookups-total')).toBeVisible();
    expect.soft(await a11yViolations(auditor), `at ${size.width} px`).toEqual([]);
    const width = await auditor.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `page width at ${size.width} px`).toBeLessThanOrEqual(size.width);
  }
  await context.close();
});
