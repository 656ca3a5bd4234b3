// Two platform connections in one console (demo mode: Production (EU) and UAT): the header says
// which one a page shows, the switcher moves to the same page of the other with the keyboard, each
// shows its own data and limits, a reload stays, and an unknown connection gets a page saying so.
import { expect, SIGNED_OUT_STATE, signInToDemo, test } from './fixtures';
import { E2E_DEMO_BFF_PORT } from './ports';

test.use({ baseURL: `http://127.0.0.1:${E2E_DEMO_BFF_PORT}`, storageState: SIGNED_OUT_STATE });

test('switches from production to UAT with the keyboard and shows UAT’s event types and limits', async ({
  page,
}) => {
  await signInToDemo(page, 'admin');
  await page.goto('/event-types');
  await expect(page).toHaveURL(/\/c\/default\/event-types$/);
  const header = page.getByRole('banner');
  const switcher = header.getByRole('combobox', { name: 'Connection' });
  await expect(switcher.locator('option:checked')).toHaveText('Production (EU)');
  const status = page
    .getByRole('status')
    .filter({ hasText: /Showing [\d,]+ of [\d,]+ event types/ });
  await expect(status).toContainText('of 480 event types');

  await switcher.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page).toHaveURL(/\/c\/uat\/event-types$/);
  await expect(switcher.locator('option:checked')).toHaveText('UAT');
  await expect(status).toContainText('of 96 event types');

  // UAT's own limits (sandbox tier), not production's.
  const rules = await page.evaluate(async () => {
    const response = await fetch('/api/connections/uat/rate-limits/rules', {
      headers: { Accept: 'application/json', 'X-CSRF': '1' },
    });
    return (await response.json()) as { accountTier: string; rules: { name: string }[] };
  });
  expect(rules).toMatchObject({ accountTier: 'sandbox' });
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Rate limits' })
    .click();
  await expect(page).toHaveURL(/\/c\/uat\/rate-limits$/);
  await expect(page.getByText('Account tier: sandbox')).toBeVisible();
  expect(rules.rules.length).toBeGreaterThan(0);
  // UAT's own account-wide view: the demo's simulated integrations report to production, not here.
  const accountWide = page.getByRole('region', { name: 'Account-wide: every reporting client' });
  await expect(accountWide).toBeVisible();
  await expect(accountWide).not.toContainText('Nightly consent sync');

  await page.reload();
  await expect(page).toHaveURL(/\/c\/uat\/rate-limits$/);
  await expect(switcher.locator('option:checked')).toHaveText('UAT');
});

test('an unknown connection’s address says so and links to the person’s connections', async ({
  page,
}) => {
  await signInToDemo(page, 'support');
  await page.goto('/c/staging/event-types');
  await expect(page.getByRole('heading', { name: 'No connection named “staging”' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'UAT' })).toHaveAttribute(
    'href',
    '/c/uat/event-types',
  );
  await expect(page.getByRole('table', { name: 'Event types' })).toHaveCount(0);
});

test('an integration registered on UAT’s page is listed there, not on production’s', async ({
  page,
}) => {
  await signInToDemo(page, 'admin');
  await page.goto('/c/uat/integrations');
  const switcher = page.getByRole('banner').getByRole('combobox', { name: 'Connection' });
  await expect(switcher.locator('option:checked')).toHaveText('UAT');
  const name = `E2E UAT sync ${Date.now().toString(36)}`;
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Register and show key' }).click();
  await expect(page.getByTestId('issued-key')).toHaveText(/^\s*pacr_/);
  await expect(page.getByText('The key belongs to UAT')).toBeVisible();
  await page.getByRole('button', { name: 'I have stored it' }).click();
  const registered = page.getByRole('region', { name: 'Registered in UAT' });
  await expect(registered.getByRole('rowheader', { name })).toBeVisible();

  await switcher.selectOption('default');
  await expect(page).toHaveURL(/\/c\/default\/integrations$/);
  const production = page.getByRole('region', { name: 'Registered in Production (EU)' });
  // Production's own (the demo's simulated integrations) are listed; UAT's is not.
  await expect(production.getByRole('rowheader', { name: 'Nightly consent sync' })).toBeVisible();
  await expect(production.getByRole('rowheader', { name })).toHaveCount(0);
});
