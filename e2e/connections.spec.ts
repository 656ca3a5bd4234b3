// Two platform connections in one console (demo mode: Production (EU) and UAT): the header says
// which one a page shows, the switcher moves to the same page of the other with the keyboard, each
// shows its own data and limits, a reload stays, and an unknown connection gets a page saying so.
// A lookup in UAT goes to UAT's platform, and the audit trail says it happened there.
import { expect, SIGNED_OUT_STATE, signInToDemo, test } from './fixtures';
import { statePurpose } from './lookup-purpose';
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

test('replays production’s week under UAT’s policy, then compares both connections’ v4 readiness', async ({
  page,
}) => {
  await signInToDemo(page, 'admin');
  await page.goto('/c/default/planning?period=week');
  const switcher = page.getByRole('banner').getByRole('combobox', { name: 'Connection' });
  await expect(switcher.locator('option:checked')).toHaveText('Production (EU)');
  await expect(
    page.getByRole('heading', { name: 'Replay Production (EU)’s traffic' }),
  ).toBeVisible();
  await page.getByRole('radio', { name: /^UAT’s policy in force/ }).check();
  await page.getByRole('button', { name: 'Replay' }).click();
  // The result names both: whose traffic, under whose policy.
  await expect(
    page.getByRole('heading', { name: /^Production \(EU\)’s traffic under UAT’s policy in force/ }),
  ).toBeVisible({ timeout: 30_000 });
  await expect(
    page.getByRole('region', { name: /^Under Production \(EU\)’s policy in force/ }),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: /^Under the policy chosen/ })).toContainText(
    'sandbox tier',
  );

  await page.getByRole('tab', { name: 'v4 migration readiness' }).click();
  const compared = page.getByRole('region', { name: 'Your connections compared' });
  await expect(
    compared.getByRole('row', { name: /^Production \(EU\) \(this page\)/ }),
  ).toContainText(/\d+ %/);
  await expect(compared.getByRole('row', { name: /^UAT/ })).toBeVisible();

  // The switcher keeps the page: UAT's planning, replaying UAT's traffic.
  await switcher.selectOption('uat');
  await expect(page).toHaveURL(/\/c\/uat\/planning\?tab=migration&period=week$/);
  await page.getByRole('tab', { name: 'What if: another policy' }).click();
  await expect(page.getByRole('heading', { name: 'Replay UAT’s traffic' })).toBeVisible();
  await expect(
    page.getByRole('radio', { name: /^Production \(EU\)’s policy in force/ }),
  ).toBeVisible();
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

test('a lookup in UAT is listed in the audit trail as UAT’s, and filtering by production hides it', async ({
  page,
}) => {
  // Two pages and a lookup on a machine that may be busy: more than one page's default time.
  test.setTimeout(90_000);
  // A reference of this run only, so the trail's other lookups (other specs) do not count.
  const reference = `E2E-UAT-${Date.now()}`;
  await signInToDemo(page, 'admin');
  await page.goto('/data-subjects?operation=v4-basic-details');
  await expect(page).toHaveURL(/\/c\/default\/data-subjects\?operation=v4-basic-details$/);
  const switcher = page.getByRole('banner').getByRole('combobox', { name: 'Connection' });
  await switcher.selectOption('uat');
  await expect(page).toHaveURL(/\/c\/uat\/data-subjects\?operation=v4-basic-details$/);
  await expect(switcher.locator('option:checked')).toHaveText('UAT');
  await expect(page.getByRole('banner').getByText(/^Serves /)).toHaveCount(0);

  await statePurpose(page, { category: 'support ticket', reference });
  await page.getByLabel('Identifier', { exact: true }).fill('ada.lovelace@example.com');
  const sent = page.waitForRequest((request) => request.method() === 'POST');
  await page.getByRole('button', { name: 'Look up' }).click();
  expect(new URL((await sent).url()).pathname).toBe('/api/connections/uat/data-subjects/lookups');
  await expect(page.getByRole('region', { name: 'v4 · Basic details' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
  await page.getByLabel('Reference', { exact: true }).fill(reference);
  await expect(page).toHaveURL(new RegExp(`[?&]reference=${reference}`));
  const trail = page.getByRole('table', { name: 'Audit trail' });
  const rows = trail.getByRole('row').filter({ has: page.getByRole('cell') });
  await expect(rows).toHaveCount(1);
  await expect(rows.first().locator('td[data-label="Connection"]')).toHaveText('UATuat');

  const connection = page
    .getByRole('search', { name: 'Filter the audit trail' })
    .getByRole('combobox', { name: 'Connection' });
  await connection.selectOption({ label: 'Production (EU)' });
  await expect(page).toHaveURL(/[?&]connection=default/);
  await expect(page.getByText('No lookup matches these filters')).toBeVisible();
  await connection.selectOption({ label: 'UAT' });
  await expect(rows).toHaveCount(1);
});
