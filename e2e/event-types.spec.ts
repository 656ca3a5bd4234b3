// The event-types explorer as a privacy admin uses it: filter, share by URL, export, and read
// clear states when the upstream fails.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, test } from './fixtures';

const table = (page: Page) => page.getByRole('table', { name: 'Event types' });

/** The module column of every row currently rendered (the table is virtualised). */
async function visibleModules(page: Page): Promise<string[]> {
  const rows = table(page).getByRole('row');
  const count = await rows.count();
  const modules: string[] = [];
  for (let i = 1; i < count; i += 1) {
    const cells = rows.nth(i).getByRole('cell');
    if ((await cells.count()) === 4) modules.push((await cells.nth(3).innerText()).trim());
  }
  return modules;
}

test('lists the event types of the upstream with code, name, object type and module', async ({
  page,
  mockUpstream: _,
}) => {
  await page.goto('/event-types');
  await expect(table(page)).toBeVisible();
  for (const header of ['Code', 'Name', 'Object type', 'Module']) {
    await expect(page.getByRole('columnheader', { name: header })).toBeVisible();
  }
  await expect(
    page.getByRole('status').filter({ hasText: /Showing [\d,]+ of [\d,]+ event types/ }),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('asks for the session and the list once each, the list once the session is known', async ({
  page,
  mockUpstream: _,
}) => {
  const events: string[] = [];
  page.on('request', (request) => events.push(`asked ${new URL(request.url()).pathname}`));
  page.on('response', (response) => events.push(`answered ${new URL(response.url()).pathname}`));
  await page.goto('/c/default/event-types');
  await expect(table(page).getByRole('row').nth(1)).toBeVisible();
  const list = '/api/connections/default/event-types';
  expect(events.filter((event) => event === `asked ${list}`)).toHaveLength(1);
  expect(events.filter((event) => event === 'asked /api/session')).toHaveLength(1);
  // Nothing that needs a session before its answer: signed out, the list would draw a 401.
  expect(events.indexOf('answered /api/session')).toBeLessThan(events.indexOf(`asked ${list}`));
});

test('the page’s code arrives compressed, and runs', async ({ page, mockUpstream: _ }) => {
  const encodings = new Map<string, Promise<string | undefined>>();
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const path = new URL(response.url()).pathname;
    encodings.set(
      path,
      response.allHeaders().then((headers) => headers['content-encoding']),
    );
  });
  await page.goto('/event-types');
  await expect(table(page).getByRole('row').nth(1)).toBeVisible();
  const entry = [...encodings.keys()].find((path) => /^\/assets\/index-.*\.js$/.test(path));
  expect(entry).toBeDefined();
  expect(await encodings.get(entry!)).toBe('br');
});

test('the list arrives gzipped, and fills the table', async ({ page, mockUpstream: _ }) => {
  const list = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/connections/default/event-types',
  );
  await page.goto('/event-types');
  const headers = await (await list).allHeaders();
  expect(headers['content-encoding']).toBe('gzip');
  expect(headers['vary']).toBe('Accept-Encoding');
  await expect(
    page.getByRole('status').filter({ hasText: /Showing [\d,]+ of [\d,]+ event types/ }),
  ).toBeVisible();
  await expect(table(page).getByRole('row').nth(1)).toBeVisible();
});

test('filtering by two modules survives a reload and the back button', async ({
  page,
  mockUpstream: _,
}) => {
  await page.goto('/event-types');
  const modules = page.getByRole('group', { name: 'Module' });
  await modules.getByRole('checkbox', { name: /^Assessments/ }).check();
  await modules.getByRole('checkbox', { name: /^Vendor Risk/ }).check();
  await expect(page).toHaveURL(/module=Assessments/);
  await expect(page).toHaveURL(/module=Vendor\+Risk|module=Vendor%20Risk/);

  const summary = page.getByRole('status').filter({ hasText: /Showing/ });
  const before = await summary.innerText();
  const shown = await visibleModules(page);
  expect(shown.length).toBeGreaterThan(0);
  expect(new Set(shown)).toEqual(new Set(['Assessments', 'Vendor Risk']));

  await page.reload();
  await expect(summary).toHaveText(before);
  expect(await visibleModules(page)).toEqual(shown);
  await expect(modules.getByRole('checkbox', { name: /^Assessments/ })).toBeChecked();

  await page.goBack();
  await expect(modules.getByRole('checkbox', { name: /^Vendor Risk/ })).not.toBeChecked();
  await expect(modules.getByRole('checkbox', { name: /^Assessments/ })).toBeChecked();
});

test('a tick made just before leaving by the navigation is there when the user comes back', async ({
  page,
  mockUpstream: _,
}) => {
  await page.goto('/event-types');
  const modules = page.getByRole('group', { name: 'Module' });
  const box = modules.getByRole('checkbox', { name: /^Assessments/ });
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', {
    name: 'Rate limits',
  });
  const elements = [await box.elementHandle(), await link.elementHandle()] as const;
  // The tick and the link in one task: well within the pause before the URL is written.
  await page.evaluate(([tick, away]) => {
    (tick as HTMLElement).click();
    (away as HTMLElement).click();
  }, elements);
  await expect(page).toHaveURL(/\/rate-limits$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/event-types\?module=Assessments$/);
  await expect(box).toBeChecked();
  expect(new Set(await visibleModules(page))).toEqual(new Set(['Assessments']));
});

test('search and sort are carried by the URL', async ({ page, mockUpstream: _ }) => {
  await page.goto('/event-types');
  await page.getByRole('searchbox', { name: 'Search event types' }).fill('vendor');
  await expect(page).toHaveURL(/q=vendor/);
  await page.getByRole('button', { name: 'Code' }).click();
  await page.getByRole('button', { name: 'Code' }).click();
  await expect(page).toHaveURL(/sort=code/);
  await expect(page).toHaveURL(/dir=desc/);
  await expect(page.getByRole('columnheader', { name: 'Code' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );

  const url = page.url();
  const fresh = await page.context().newPage();
  await fresh.goto(url);
  await expect(fresh.getByRole('searchbox', { name: 'Search event types' })).toHaveValue('vendor');
  await expect(fresh.getByRole('columnheader', { name: 'Code' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
});

test('exports the filtered rows as CSV', async ({ page, mockUpstream: _ }) => {
  await page.goto('/event-types?module=Cookie+Consent');
  await expect(table(page)).toBeVisible();
  const summary = await page
    .getByRole('status')
    .filter({ hasText: /Showing/ })
    .innerText();
  const shownCount = Number(/Showing ([\d,]+)/.exec(summary)?.[1]?.replace(/,/g, ''));

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^event-types-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
  const lines = text.split('\r\n').filter(Boolean);
  expect(lines[0]).toBe('Code,Name,Object type,Module');
  expect(lines).toHaveLength(shownCount + 1);
  for (const line of lines.slice(1)) expect(line.endsWith(',Cookie Consent')).toBe(true);
  await expect(page.getByText(/Exported [\d,]+ event types? to event-types-/)).toBeVisible();
});

test('says in plain language when the upstream fails, keeps the list usable, and recovers', async ({
  page,
  mockUpstream,
}) => {
  await mockUpstream.injectFault({ operation: 'event-types', status: 500, count: 3 });
  await page.goto('/event-types');
  // With no list fetched before, an alert; after one, that list with a notice saying why.
  const problem = page
    .getByRole('alert')
    .or(page.getByRole('status').filter({ hasText: 'Showing the list fetched at' }));
  await expect(problem).toBeVisible();
  await expect(problem).toContainText(/platform/i);
  await expectNoSeriousA11yViolations(page);
  await mockUpstream.reset();
  await problem.getByRole('button', { name: /Try again|Refresh/ }).click();
  await expect(table(page)).toBeVisible();
  await expect(problem).toBeHidden();
});

test('shows the wait until retry when the upstream rate limits', async ({ page, mockUpstream }) => {
  await mockUpstream.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 30 });
  await page.goto('/event-types');
  const problem = page
    .getByRole('alert')
    .or(page.getByRole('status').filter({ hasText: 'Showing the list fetched at' }));
  // The console's one countdown format, as on the banner.
  await expect(problem).toContainText(/(try again|asked for) in 0:(30|29|28)/i);
  await expect(problem.getByRole('button', { name: /Try again|Refresh/ })).toHaveAttribute(
    'aria-disabled',
    'true',
  );
});

test('is usable on a 390 px wide screen', async ({ page, mockUpstream: _ }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/event-types');
  await expect(table(page)).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search event types' })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});

test('during a block a reloaded page still shows the last good list, with its age', async ({
  page,
  mockUpstream,
}) => {
  await page.goto('/event-types');
  await expect(table(page).getByRole('row').nth(1)).toBeVisible();
  await mockUpstream.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 3 });
  await page.reload();
  await expect(page.getByText(/^Showing the list fetched at/)).toBeVisible();
  await expect(page.getByText(/rate limiting the account/)).toBeVisible();
  await expect(table(page).getByRole('row').nth(1)).toBeVisible();
});

test('every change of search, sort or filters starts the table at its first row', async ({
  page,
  mockUpstream: _,
}) => {
  await page.goto('/event-types');
  const scroller = page.getByRole('region', { name: 'Event types, scrollable' });
  await expect(table(page).getByRole('row').nth(1)).toBeVisible();
  await scroller.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
  await page.getByLabel('Search event types').fill('a');
  await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBe(0);
  await scroller.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  await page.getByRole('button', { name: 'Name' }).click();
  await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBe(0);
});

test('a keystroke shows its matches in the same frame as the typed character', async ({
  page,
  mockUpstream: _,
}) => {
  await page.goto('/event-types');
  await expect(table(page).getByRole('row').nth(1)).toBeVisible();
  // Types one character the way the browser delivers it and reads the page before the next frame:
  // the summary and the rows must already be those of the new text, not the previous ones.
  const seen = await page.evaluate(() => {
    const input = document.querySelector<HTMLInputElement>('input[type="search"]');
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    if (!input || !setValue) return { summary: '', names: [] as string[] };
    setValue.call(input, 'zz-no-such-name');
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const cells = document.querySelectorAll('table[aria-label="Event types"] tbody td.cell-name');
    return {
      summary: document.querySelector('.event-types-summary')?.textContent ?? '',
      names: [...cells].map((cell) => cell.textContent ?? ''),
    };
  });
  expect(seen.summary).toMatch(/^Showing 0 of/);
  expect(seen.names).toEqual([]);
});

test.describe('at phone width', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('filters fold behind a button, the first rows are on the first screen, the rest on tap', async ({
    page,
    mockUpstream: _,
  }) => {
    await page.goto('/event-types');
    const firstRow = table(page).getByRole('row').nth(1);
    await expect(firstRow).toBeInViewport();
    // The rows fill the table's box: no white strip on the right of the two phone columns.
    const rowWidth = (await firstRow.boundingBox())?.width ?? 0;
    const boxWidth = await page
      .locator('.event-types-scroll')
      .evaluate((element) => element.clientWidth);
    expect(Math.abs(rowWidth - boxWidth)).toBeLessThanOrEqual(1);
    await expect(page.getByRole('group', { name: 'Module' })).toBeHidden();
    await page.getByRole('button', { name: 'Filters' }).click();
    await expect(page.getByRole('group', { name: 'Module' })).toBeVisible();
    await page.getByRole('button', { name: 'Filters' }).click();
    await firstRow.getByRole('button', { name: /^All fields of/ }).click();
    const details = page.getByRole('dialog');
    await expect(details).toContainText('Object type');
    await expect(details).toContainText('Module');
    await details.getByRole('button', { name: 'Close' }).click();
    await expect(details).toBeHidden();
    await expectNoSeriousA11yViolations(page);
  });
});
