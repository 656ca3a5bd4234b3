// The data-subjects page and the audit trail as a privacy admin uses them, against the mock
// upstream's synthetic data subjects: each of the ten v4 lookups, load more on every listing, the
// comparison with each legacy call, the wire checked at the mock (documented paths, identifier in
// a header, continuation as a header), a 404 that is a configuration problem, then the lookups
// found in /audit by typing the identifier. The identifier
// must never show up in the page's URL or the browser's storage.
import type { Locator, Page } from '@playwright/test';
import {
  E2E_USERS,
  expect,
  expectNoSeriousA11yViolations,
  MOCK_UPSTREAM_URL,
  SIGNED_OUT_STATE,
  test,
} from './fixtures';
import { statePurpose, statePurposeIfAsked } from './lookup-purpose';

const ADA = 'ada.lovelace@example.com';
/** The mock's example purpose (Marketing e-mails) and linked identity group. */
const DEMO_PURPOSE = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const DEMO_GROUP = '0b7e5c1a-2d3f-4e5a-9b6c-7d8e9f0a1b2c';

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
  await statePurposeIfAsked(page);
  await page.getByLabel('Operation', { exact: true }).selectOption(operation);
  if (identifier !== undefined)
    await page.getByLabel('Identifier', { exact: true }).fill(identifier);
  await page.getByRole('button', { name: 'Look up' }).click();
}

/** The data-subject requests the mock upstream received, as it received them. */
async function receivedUpstream(page: Page): Promise<ReceivedLookup[]> {
  const response = await page.request.get(`${MOCK_UPSTREAM_URL}/__mock/data-subjects/received`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as ReceivedLookup[];
}

interface ReceivedLookup {
  operation: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
}

/** Clicks "Load more" until the listing says it has all; returns the number of pages. */
async function loadAll(page: Page, result: Locator): Promise<number> {
  const more = result.getByRole('button', { name: 'Load more' });
  // isVisible does not wait: let the first page arrive before asking whether there are more.
  await expect(result.getByText(/1 page loaded/)).toBeVisible();
  let pages = 1;
  while (await more.isVisible()) {
    await more.click();
    pages += 1;
    await expect(result.getByText(`${pages} pages loaded`)).toBeVisible();
  }
  await expect(result.getByText(/that is all\.$/)).toBeVisible();
  return pages;
}

/** Opens the comparison (choosing `legacy` when the operation has several) and waits for it. */
async function compare(page: Page, result: Locator, legacy?: string) {
  await result.getByRole('button', { name: 'Compare with legacy' }).click();
  const panel = page.getByRole('region', { name: 'Compare with legacy' });
  if (legacy) await panel.getByRole('button', { name: legacy }).click();
  await expect(page.getByRole('region', { name: 'What differs' })).toBeVisible();
  return panel;
}

test('an admin runs every v4 lookup and its legacy comparison, and finds them in the audit trail', async ({
  page,
  mockUpstream,
}) => {
  test.setTimeout(120_000);
  await mockUpstream.reset();
  await page.goto('/data-subjects');
  await expect(page.getByRole('heading', { level: 1, name: 'Data subjects' })).toBeVisible();

  // 1. Basic details: identity only; the legacy v2 listing has the same person.
  await lookUp(page, 'v4-basic-details', ADA);
  let result = page.getByRole('region', { name: 'v4 · Basic details' });
  await expect(result.getByText(ADA)).toBeVisible();
  await expect(result.getByRole('table', { name: 'Data elements' })).toBeVisible();
  await compare(page, result);
  await expect(page.getByRole('table', { name: 'Legacy: Data subjects' })).toBeVisible();

  // 2. Details: profiles (purposes) and link tokens; v3 calls the purposes "purposes".
  await lookUp(page, 'v4-details', ADA);
  result = page.getByRole('region', { name: 'v4 · Details with purposes' });
  await expect(result.getByRole('table', { name: 'Profiles' })).toBeVisible();
  await expect(result.getByRole('table', { name: 'Link tokens' })).toBeVisible();
  await expectIdentifierNowhere(page);
  await result.getByRole('button', { name: 'Raw JSON' }).click();
  await expect(result.getByLabel('Raw JSON of the answer')).toContainText('"profiles"');
  await result.getByRole('button', { name: 'Raw JSON' }).click();
  await compare(page, result);
  await expect(page.getByRole('table', { name: 'v4: Profiles' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Legacy: Purposes' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // 3. Data subjects changed in the last week, page by page; then v3's profiles of that week.
  await lookUp(page, 'v4-data-subjects');
  result = page.getByRole('region', { name: 'v4 · Data subjects changed in a date range' });
  await expect(result.getByRole('table', { name: 'Data subjects' })).toBeVisible();
  expect(await loadAll(page, result)).toBeGreaterThan(1);
  await expect(result.getByRole('table', { name: 'Data subjects' })).toContainText(ADA);
  await compare(page, result, 'v3 data-subject profiles');

  // 4. One purpose: the GUID goes in the path; v1 filters its profile to that purpose.
  await page.getByLabel('Operation', { exact: true }).selectOption('v4-purpose-profile');
  await page.getByLabel('Purpose GUID').fill(DEMO_PURPOSE);
  await lookUp(page, 'v4-purpose-profile', ADA);
  result = page.getByRole('region', { name: 'v4 · One purpose of a data subject' });
  await expect(result.getByText('Marketing e-mails')).toBeVisible();
  await compare(page, result);

  // 5. All purposes of the subject; 6. purposes updated in the last 30 days, page by page.
  await lookUp(page, 'v4-purposes', ADA);
  result = page.getByRole('region', { name: 'v4 · All purposes of a data subject' });
  await expect(result.getByRole('table', { name: 'Purposes' })).toBeVisible();
  await compare(page, result);
  await lookUp(page, 'v4-purposes-by-date');
  result = page.getByRole('region', { name: 'v4 · Purposes updated in a date range' });
  await expect(result.getByRole('table', { name: 'Purposes' })).toBeVisible();
  expect(await loadAll(page, result)).toBeGreaterThan(2);
  await expect(result.getByRole('button', { name: 'Compare with legacy' })).toHaveCount(0);

  // 7. The subject's link token; 8. every link token of the week, page by page.
  await lookUp(page, 'v4-link-token', ADA);
  result = page.getByRole('region', { name: 'v4 · Link token of a data subject' });
  await expect(result.getByText(/^lt_/)).toBeVisible();
  await compare(page, result);
  await lookUp(page, 'v4-link-tokens');
  result = page.getByRole('region', { name: 'v4 · All link tokens in a date range' });
  expect(await loadAll(page, result)).toBeGreaterThan(1);
  await compare(page, result);

  // 9. The subject's groups; 10. the members of the example group, page by page.
  await lookUp(page, 'v4-linked-groups', ADA);
  result = page.getByRole('region', { name: 'v4 · Linked identity groups of a data subject' });
  await expect(result.getByRole('table', { name: 'Linked identity groups' })).toBeVisible();
  await compare(page, result);
  await page.getByLabel('Operation', { exact: true }).selectOption('v4-linked-group');
  await page.getByLabel('Linked identity group id').fill(DEMO_GROUP);
  await page.getByRole('button', { name: 'Look up' }).click();
  result = page.getByRole('region', { name: 'v4 · Members of a linked identity group' });
  await expect(result.getByRole('table', { name: 'Members' })).toBeVisible();
  expect(await loadAll(page, result)).toBe(2);
  await compare(page, result);
  await expectIdentifierNowhere(page);
  await expectNoSeriousA11yViolations(page);

  // At the upstream's end: documented paths only, the identifier only ever in a header, and
  // every continuation sent back as the requestContinuation header.
  const received = await receivedUpstream(page);
  const v4 = received.filter((request) => request.operation.startsWith('v4-'));
  expect(new Set(v4.map((request) => request.operation)).size).toBe(10);
  expect(v4.every((request) => request.path.startsWith('/rest/api/consent/v4/'))).toBe(true);
  expect(JSON.stringify(received.map((request) => [request.path, request.query]))).not.toContain(
    'lovelace',
  );
  const continued = received.filter((request) => request.headers.requestcontinuation);
  expect(continued.length).toBeGreaterThan(4);
  expect(received.some((request) => 'requestContinuation' in request.query)).toBe(false);
  expect(new Set(received.map((request) => request.operation)).size).toBe(17);

  // An unknown identifier is an answer, not an error.
  await lookUp(page, 'v4-basic-details', 'nobody@example.com');
  await expect(
    page.getByRole('status').filter({ hasText: 'No data subject with this identifier' }),
  ).toBeVisible();

  // The audit trail has the lookups; typing the identifier finds its own.
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
  await expect(
    found.getByRole('row').filter({ hasText: 'v2 data subjects' }).first(),
  ).toBeVisible();
  // The link-token pages that listed her are found too: they displayed her data.
  await expect(found).toContainText('All link tokens');
  await expect(found).not.toContainText(ADA);
  await expectIdentifierNowhere(page);
});

test('a purpose stated in the bar goes with the lookup, and the audit page finds it by its reference', async ({
  page,
  mockUpstream,
}) => {
  // Two pages and a filtered trail: more than the default on a busy machine.
  test.setTimeout(90_000);
  await mockUpstream.reset();
  // Unique to this run, so the filtered trail holds this test's lookup only.
  const reference = `DSAR-${Date.now()}`;
  await page.goto('/data-subjects?operation=v4-basic-details');
  await statePurpose(page, { category: 'access request', reference });
  await expect(page.getByText(`Working on ${reference} · access request`)).toBeVisible();
  await lookUp(page, 'v4-basic-details', ADA);
  await expect(page.getByRole('region', { name: 'v4 · Basic details' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
  await page.getByLabel('Reference', { exact: true }).fill(reference);
  await expect(page).toHaveURL(new RegExp(`reference=${reference}`));
  const trail = page.getByRole('table', { name: 'Audit trail' });
  const rows = trail.getByRole('row').filter({ hasText: 'v4 · Basic details' });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(`Purpose: ${reference} · access request`);
});

test('a lookup with an option: Do Not Call inclusion finds the person only when ticked, sent in the query', async ({
  page,
  mockUpstream,
}) => {
  const DNC = 'hedy.lamarr@example.com';
  await mockUpstream.reset();
  await page.goto('/data-subjects?operation=v4-basic-details');
  await lookUp(page, 'v4-basic-details', DNC);
  await expect(page.getByRole('status').filter({ hasText: 'No data subject' })).toBeVisible();

  const options = page.locator('details.lookup-options');
  await options.getByText('Options').click();
  await options
    .getByRole('checkbox', { name: 'Include data subjects on the Do Not Call list' })
    .check();
  await page.getByRole('button', { name: 'Look up' }).click();
  const result = page.getByRole('region', { name: 'v4 · Basic details' });
  await expect(result.getByText(DNC).first()).toBeVisible();

  // Only this test's requests (the mock's log may hold earlier tests' lookups of others).
  const sent = (await receivedUpstream(page)).filter(
    (each) => each.operation === 'v4-basic-details' && each.headers.identifier === DNC,
  );
  expect(sent.map((each) => each.query)).toEqual([{}, { isDNCInclude: 'true' }]);
  expect(sent[1]?.headers).toEqual({ identifier: DNC });
  await expectIdentifierNowhere(page, DNC);

  // The comparison passes the choice on: v2 lists the person too, with its documented total.
  const panel = await compare(page, result);
  await expect(panel.getByText(/1 of 1 records, 1 page loaded; that is all/)).toBeVisible();
  const legacy = (await receivedUpstream(page)).filter(
    (each) => each.operation === 'v2-datasubjects',
  );
  expect(legacy.at(-1)?.query).toEqual({ isDNCInclude: 'true' });
});

test('a platform address that does not have the operation is a configuration problem, not "not found"', async ({
  page,
  mockUpstream,
}) => {
  await mockUpstream.reset();
  await mockUpstream.injectFault({ operation: 'v4-basic-details', status: 404 });
  await page.goto('/data-subjects?operation=v4-basic-details');
  await lookUp(page, 'v4-basic-details', ADA);
  const problem = page.getByRole('alert').filter({ hasText: 'not set up correctly' });
  await expect(problem).toBeVisible();
  await expect(problem).not.toContainText('No data subject');
  await problem.getByText('Details', { exact: true }).click();
  await expect(problem).toContainText('GET /rest/api/consent/v4/datasubjects/basic-details');
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
