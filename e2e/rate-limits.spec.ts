// The rate-limit panel as a support engineer uses it: a 429 shows up live as an incident row with
// a countdown to the end of its block, the whole console says the account is blocked, and the
// incident is still there after a reload.
//
// How 429s are provoked: the demo controls need the built-in mock's state, which only a demo-mode
// console has, so the first test runs against a second console in demo mode
// (E2E_DEMO_BFF_PORT, see playwright.config.ts) and presses the control as a user would. The
// live-mode console of the other specs gets its 429 from the standalone mock's
// POST /__mock/faults, as a real upstream would send it.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { E2E_DEMO_BFF_PORT } from './ports';
import {
  expect,
  expectNoSeriousA11yViolations,
  SIGNED_OUT_STATE,
  signInToDemo,
  test,
} from './fixtures';

const incidentsTable = (page: Page) => page.getByRole('table', { name: '429 incidents' });
// The notice of a running account block: the platform's own block, or the console's precaution.
const banner = (page: Page) =>
  page
    .getByRole('status')
    .filter({ hasText: /^(Blocked by the platform|Paused by the console after a 429): / });

async function waitForLive(page: Page) {
  await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
}

test.describe('in demo mode', () => {
  const demoUrl = `http://127.0.0.1:${E2E_DEMO_BFF_PORT}`;
  // The demo console has its own users (admin / demo); the admin state of the live console does
  // not apply to it.
  test.use({ baseURL: demoUrl, storageState: SIGNED_OUT_STATE });

  test('a demo control provokes an incident that appears live, blocks the console, and survives a reload', async ({
    page,
  }) => {
    await page.goto('/sign-in');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/event-types/);

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Rate limits' })
      .click();
    await waitForLive(page);
    await page.getByRole('button', { name: 'End all blocks' }).click();
    await expect(
      page.getByText('Every block in the mock and the console has ended.'),
    ).toBeVisible();

    // Marks this document: if the row only appeared after a reload, the mark would be gone.
    await page.evaluate(() => {
      (window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true;
    });
    await page.getByRole('button', { name: 'Account minute block' }).click();
    const outcome = page.getByText(/^Account minute block: the platform answered 429/);
    await expect(outcome).toBeVisible();
    const eventId = (await outcome.innerText()).match(/incident ([0-9a-f-]{36})/)?.[1];
    expect(eventId).toBeTruthy();

    const row = incidentsTable(page).getByRole('row').filter({ hasText: eventId! });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Account minute limit');
    // The hit count and a countdown towards the end of the one-minute block.
    await expect(row.getByRole('cell').nth(2)).toHaveText('1');
    await expect(row.getByRole('cell').nth(4)).toContainText(/0:[0-5]\d|1:00/);
    expect(
      await page.evaluate(
        () => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage,
      ),
    ).toBe(true);
    await expect(banner(page)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Every page says the account is blocked.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Event types' })
      .click();
    await expect(page).toHaveURL(/event-types/);
    await expect(banner(page)).toBeVisible();
    await expect(banner(page)).toContainText(/ends in 0:[0-5]\d|ends in 1:00/);
    await expect(banner(page)).toContainText(
      'Blocked by the platform: Account minute limit. The platform blocked the account: the Account minute limit was used up',
    );

    // "See the incident" scrolls to its row and marks it.
    await page.getByRole('link', { name: 'See the incident' }).click();
    await expect(page).toHaveURL(/rate-limits\?incident=/);
    const linked = incidentsTable(page).getByRole('row').filter({ hasText: eventId! });
    await expect(linked).toBeFocused();
    await expect(linked).toBeInViewport();
    await expect(linked).toHaveAttribute('aria-current', 'true');
    await page.screenshot({ path: '.test-results/e2e/see-the-incident.png' });

    // Stored, not just shown: the row is there after a reload.
    await page.goto('/rate-limits');
    await page.reload();
    await expect(incidentsTable(page).getByRole('row').filter({ hasText: eventId! })).toBeVisible();

    await page.getByRole('button', { name: 'End all blocks' }).click();
    await expect(banner(page)).toBeHidden();
  });
  test('a 1,000-a-minute 429 on event types names no other call’s limit; support can end the blocks and every open tab hears it', async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: demoUrl, storageState: SIGNED_OUT_STATE });
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Username').fill('support');
    await page.getByLabel('Password').fill('demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/event-types/);
    await expect(page).toHaveTitle('Event types · Privacy API Console');
    await page.goto('/rate-limits');
    await expect(page).toHaveTitle('Rate limits · Privacy API Console');
    await waitForLive(page);
    // Support engineers investigate throttling: the demo controls are theirs too. The bursts
    // register as an integration's traffic, an admin's action: not offered (they answered 403).
    await expect(
      page.getByRole('heading', { name: 'Account-wide: every reporting client' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: /^Burst from/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'End all blocks' }).click();
    await page.getByRole('button', { name: '1,000-a-minute 429' }).click();
    const outcome = page.getByText(/^1,000-a-minute 429: the platform answered 429/);
    await expect(outcome).toBeVisible();
    const key = (await outcome.innerText()).match(/incident ([0-9a-f-]{36})/)?.[1];
    const row = incidentsTable(page).getByRole('row').filter({ hasText: key! });
    await expect(row).toContainText('Unknown limit (1,000 per minute, as the platform stated)');
    await expect(row).not.toContainText('Consent API quota');
    // The copy button's name starts with what it shows.
    await expect(row.getByRole('button', { name: /^Copy for support: incident/ })).toBeVisible();
    // The figure disagrees with the configured limits of the call: said, and kept.
    await expect(page.getByRole('heading', { name: 'Limits the platform reported' })).toBeVisible();
    await expect(page.getByText(/The platform reported 1,000 per minute/)).toBeVisible();

    // A second tab shows the account block; ending the blocks in the first clears it live.
    const other = await context.newPage();
    await other.goto('/event-types');
    await expect(banner(other)).toBeVisible();
    // Who refused what: one call, refused by the platform; the pause is the console's own.
    await expect(banner(other)).toContainText(
      'The platform refused one call (GET /api/audit/v4/audits/event-types) with a 429 under a limit this console does not know (1,000 per minute); it has not blocked the account',
    );
    await page.getByRole('button', { name: 'End all blocks' }).click();
    await expect(banner(other)).toBeHidden();
    await expect(row).toContainText('Ended early');
    await context.close();
  });
});

test.describe('the incident list, in demo mode', () => {
  test.use({ baseURL: `http://127.0.0.1:${E2E_DEMO_BFF_PORT}`, storageState: SIGNED_OUT_STATE });

  test('is a keyboard jump away from the top at any time and back, and exports as CSV and JSON', async ({
    page,
  }) => {
    await signInToDemo(page, 'support');
    await page.goto('/rate-limits');
    await waitForLive(page);
    await page.getByRole('button', { name: 'End all blocks' }).click();
    await page.getByRole('button', { name: 'Account minute block' }).click();
    const outcome = page.getByText(/^Account minute block: the platform answered 429/);
    const eventId = (await outcome.innerText()).match(/incident ([0-9a-f-]{36})/)?.[1];
    expect(eventId).toBeTruthy();
    // No block needed for the way down: end it first.
    await page.getByRole('button', { name: 'End all blocks' }).click();
    await expect(banner(page)).toBeHidden();

    const jump = page
      .getByRole('navigation', { name: 'On this page' })
      .getByRole('link', { name: /^Jump to incidents \(\d+\+?\)$/ });
    await jump.focus();
    await page.keyboard.press('Enter');
    const list = page.locator('#incidents');
    await expect(list).toBeFocused();
    await expect(
      incidentsTable(page).getByRole('row').filter({ hasText: eventId! }),
    ).toBeInViewport();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Back to the top' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(jump).toBeFocused();
    await expect(jump).toBeInViewport();

    const csvDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = await readFile((await (await csvDownload).path())!, 'utf8');
    expect((await csvDownload).suggestedFilename()).toMatch(/^incidents-[\dT-]+Z\.csv$/);
    const lines = csv.replace(/^\ufeff/, '').split('\r\n');
    expect(lines[0]).toContain(
      'ot-ratelimit-event-id,Incident key,Rule,Limit,Period,First 429 (UTC)',
    );
    const line = lines.find((row) => row.startsWith(`${eventId},`));
    expect(line).toMatch(
      /,account-minute,Account minute limit,MINUTE,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC,/,
    );
    await expect(page.getByRole('status').filter({ hasText: /^Saved incidents-/ })).toBeVisible();

    // The list's filters shape the file: an hour-period filter leaves this minute's 429 out.
    await page.goto('/rate-limits?period=HOUR');
    const jsonDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export JSON' }).click();
    const file = JSON.parse(await readFile((await (await jsonDownload).path())!, 'utf8')) as {
      filters: { period: string | null };
      incidents: Array<{ eventId: string | null }>;
    };
    expect(file.filters.period).toBe('HOUR');
    expect(file.incidents.map((incident) => incident.eventId)).not.toContain(eventId);
    expect(JSON.stringify(file)).not.toContain('"headers"');

    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/rate-limits');
    await expect(jump).toBeVisible();
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
      ),
    ).toBe(true);
  });
});

test.describe('in live mode', () => {
  test('a 429 drawn on another page appears live in an open incident panel', async ({
    page,
    context,
    mockUpstream,
  }) => {
    await mockUpstream.reset();
    await page.goto('/rate-limits');
    await waitForLive(page);

    // The upstream's answer to the next event-types call: a 429 with all its headers. A short
    // Retry-After keeps the block from holding up the other specs.
    const { rateLimitEventId } = await mockUpstream.injectFault({
      operation: 'event-types',
      status: 429,
      retryAfterSeconds: 2,
    });
    expect(rateLimitEventId).toBeTruthy();

    const other = await context.newPage();
    await other.goto('/event-types');
    // The list fetched before stays usable; the notice above it says why it is not fresh.
    await expect(
      other
        .getByRole('alert')
        .or(other.getByRole('status').filter({ hasText: 'Showing the list fetched at' })),
    ).toContainText(/rate limit/i);
    await other.close();

    const row = incidentsTable(page).getByRole('row').filter({ hasText: rateLimitEventId! });
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell').nth(2)).toHaveText('1');
    // The block runs out by itself.
    await expect(row.getByRole('cell').nth(4)).toContainText('Ended', { timeout: 10_000 });
  });
});
