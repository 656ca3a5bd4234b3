// The data-subjects page and the audit trail as a privacy admin uses them, against the mock
// upstream's synthetic data subjects: look a subject up, load more pages of a listing, compare
// with the legacy call, then find the lookups in /audit by typing the identifier. The identifier
// must never show up in the page's URL or the browser's storage.
import type { Page } from '@playwright/test';
import {
  E2E_USERS,
  expect,
  expectNoSeriousA11yViolations,
  SIGNED_OUT_STATE,
  test,
} from './fixtures';

const ADA = 'ada.lovelace@example.com';

/** Fails when the identifier is in the address bar or in any browser storage of the page. */
async function expectIdentifierNowhere(page: Page, identifier = ADA) {
  expect(page.url()).not.toContain(identifier);
  expect(decodeURIComponent(page.url())).not.toContain(identifier);
  const stored = await page.evaluate(() =>
    JSON.stringify([{ ...window.localStorage }, { ...window.sessionStorage }, history.state]),
  );
  expect(stored).not.toContain(identifier);
}

async function lookUp(page: Page, operation: string, identifier?: string) {
  await page.getByLabel('Operation').selectOption(operation);
  if (identifier !== undefined)
    await page.getByLabel('Identifier', { exact: true }).fill(identifier);
  await page.getByRole('button', { name: 'Look up' }).click();
}

test('an admin looks up a subject, loads more, compares with legacy and finds it in the audit trail', async ({
  page,
  mockUpstream,
}) => {
  // A long journey over three pages with two accessibility scans, the last over a search that now
  // lists every link-token page too: more than the default 30 s on a loaded machine.
  test.slow();
  await mockUpstream.reset();
  await page.goto('/data-subjects');
  await expect(page.getByRole('heading', { level: 1, name: 'Data subjects' })).toBeVisible();

  // Details with purposes: the identifier goes in a header, the answer comes back as tables.
  await lookUp(page, 'v4-details', ADA);
  const result = page.getByRole('region', { name: 'v4 · Details with purposes' });
  await expect(result).toBeVisible();
  await expect(result.getByRole('table', { name: 'Purposes' })).toBeVisible();
  await expect(result.getByText(ADA)).toBeVisible();
  await expectIdentifierNowhere(page);

  // The raw JSON is one toggle away.
  await result.getByRole('button', { name: 'Raw JSON' }).click();
  await expect(result.getByLabel('Raw JSON of the answer')).toContainText('"purposes"');
  await result.getByRole('button', { name: 'Raw JSON' }).click();

  // The legacy call it replaces, side by side, with what differs.
  await result.getByRole('button', { name: 'Compare with legacy' }).click();
  const differs = page.getByRole('region', { name: 'What differs' });
  await expect(differs).toBeVisible();
  await expect(differs).toContainText('Purposes › Purpose version');
  await expect(page.getByRole('table', { name: 'v4: Purposes' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Legacy: Purposes' })).toBeVisible();
  await expectIdentifierNowhere(page);
  await expectNoSeriousA11yViolations(page);

  // All link tokens of the last year, page by page to the end.
  await lookUp(page, 'v4-link-tokens');
  const tokens = page.getByRole('table', { name: 'Link tokens' });
  await expect(tokens).toBeVisible();
  const firstPage = await tokens.getByRole('row').count();
  const more = page.getByRole('button', { name: 'Load more' });
  for (let pages = 1; await more.isVisible(); pages += 1) {
    await more.click();
    await expect(page.getByText(`${pages + 1} pages loaded`)).toBeVisible();
  }
  await expect(page.getByText(/that is all\.$/)).toBeVisible();
  expect(await tokens.getByRole('row').count()).toBeGreaterThan(firstPage);

  // An unknown identifier is an answer, not an error.
  await lookUp(page, 'v4-basic-details', 'nobody@example.com');
  await expect(
    page.getByRole('status').filter({ hasText: 'No data subject with this identifier' }),
  ).toBeVisible();

  // The audit trail has every one of those lookups; typing the identifier finds its own.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Audit trail' })).toBeVisible();
  await page.getByLabel('Identifier', { exact: true }).fill(ADA);
  await page.getByRole('button', { name: 'Find lookups' }).click();
  const found = page.getByRole('table', { name: 'Lookups of the identifier' });
  await expect(found).toBeVisible();
  await expect(
    found.getByRole('row').filter({ hasText: 'v4 · Details with purposes' }).first(),
  ).toBeVisible();
  await expect(found.getByRole('row').filter({ hasText: 'v2 data subject' }).first()).toBeVisible();
  // The link-token pages that listed her are found too: they displayed her data.
  await expect(found).toContainText('All link tokens');
  await expect(found).not.toContainText(ADA);
  await expectIdentifierNowhere(page);
  await expectNoSeriousA11yViolations(page);
});

test.describe('signing out', () => {
  test.use({ storageState: SIGNED_OUT_STATE });

  test('forgets the identifier typed on the page', async ({ page }) => {
    await page.goto('/sign-in?returnTo=%2Fdata-subjects');
    await page.getByLabel('Username').fill(E2E_USERS.admin.username);
    await page.getByLabel('Password').fill(E2E_USERS.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/data-subjects/);
    await lookUp(page, 'v4-basic-details', ADA);
    await expect(page.getByRole('region', { name: 'v4 · Basic details' })).toBeVisible();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await expect(page.locator('body')).not.toContainText(ADA);
    await expectIdentifierNowhere(page);

    await page.getByLabel('Username').fill(E2E_USERS.admin.username);
    await page.getByLabel('Password').fill(E2E_USERS.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await page.goto('/data-subjects?operation=v4-basic-details');
    await expect(page.getByLabel('Identifier', { exact: true })).toHaveValue('');
    await expect(page.getByRole('region', { name: 'v4 · Basic details' })).toHaveCount(0);
  });

  test('a support user is told the page is not for the role', async ({ page }) => {
    await page.goto('/sign-in?returnTo=%2Faudit');
    await page.getByLabel('Username').fill(E2E_USERS.support.username);
    await page.getByLabel('Password').fill(E2E_USERS.support.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/audit/);
    await expect(page.getByRole('heading', { name: 'Not available for your role' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
