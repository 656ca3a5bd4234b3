// Every page and the states people meet, at desktop and phone width (390 px), through axe: no
// moderate, serious or critical violation anywhere. Also what a phone shows without a sideways
// swipe: no page wider than the screen, the forecast's state in view, and the forbidden page of
// the support role saying what the page holds.
import type { Page } from '@playwright/test';
import { a11yViolations, E2E_USERS, expect, SIGNED_OUT_STATE, test } from './fixtures';
import { E2E_DEMO_BFF_PORT } from './ports';
import { statePurpose } from './lookup-purpose';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** Where each page is ready to be read: its heading, and what loads under it. */
const ADMIN_PAGES: ReadonlyArray<{ path: string; ready: (page: Page) => Promise<void> }> = [
  {
    path: '/event-types',
    ready: (page) => expect(page.getByRole('table', { name: 'Event types' })).toBeVisible(),
  },
  {
    path: '/rate-limits',
    ready: (page) => expect(page.getByRole('heading', { name: 'Headroom' })).toBeVisible(),
  },
  {
    path: '/alerts',
    ready: (page) =>
      expect(page.getByRole('cell', { name: /OK|Past threshold/ }).first()).toBeVisible(),
  },
  {
    path: '/planning',
    ready: (page) => expect(page.getByRole('button', { name: 'Replay' })).toBeVisible(),
  },
  {
    path: '/planning?tab=migration&period=hour',
    ready: (page) => expect(page.getByText(/data-subject call/).first()).toBeVisible(),
  },
  {
    path: '/data-subjects',
    ready: (page) => expect(page.getByLabel('Operation')).toBeVisible(),
  },
  {
    path: '/audit',
    ready: (page) =>
      expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible(),
  },
  {
    path: '/audit?view=changes',
    ready: (page) =>
      expect(page.getByRole('table', { name: 'Administrative changes' })).toBeVisible(),
  },
  {
    path: '/accountability',
    ready: (page) => expect(page.getByTestId('lookups-total')).toBeVisible(),
  },
  {
    path: '/integrations',
    ready: (page) => expect(page.getByRole('heading', { name: 'Registered' })).toBeVisible(),
  },
  {
    path: '/sessions',
    ready: (page) => expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible(),
  },
  {
    path: '/tokens',
    ready: (page) => expect(page.getByRole('heading', { name: 'Make a token' })).toBeVisible(),
  },
  {
    path: '/no-such-page',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
];

async function expectNoViolations(page: Page, where: string) {
  // Soft: one run lists every page and state with a violation, not only the first.
  expect.soft(await a11yViolations(page), where).toEqual([]);
}

async function expectNoSidewaysScroll(page: Page, where: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${where}: page width`).toBeLessThanOrEqual(page.viewportSize()!.width);
  // The header's links scroll within it rather than widen the page, so a link pushed out of
  // sight would pass the check above: each must end inside the screen.
  const outOfSight = await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link')
    .evaluateAll((links) =>
      links
        .filter((link) => link.getBoundingClientRect().right > window.innerWidth)
        .map((link) => link.textContent),
    );
  expect(outOfSight, `${where}: header links out of sight`).toEqual([]);
}

for (const size of WIDTHS) {
  test.describe(`at ${size.name} width`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    // One test per page: a single walk through them all outlasts the timeout on a busy machine.
    for (const { path, ready } of ADMIN_PAGES) {
      test(`${path} as admin has no axe violation and fits the screen`, async ({ page }) => {
        await page.goto(path);
        await ready(page);
        await expectNoViolations(page, path);
        await expectNoSidewaysScroll(page, path);
      });
    }

    test('a lookup, its comparison with legacy and its raw JSON have no axe violation', async ({
      page,
    }) => {
      // Three axe runs over a page holding two 20-record tables: seconds each on a quiet machine,
      // far longer on a busy one.
      test.setTimeout(120_000);
      await page.goto('/data-subjects?operation=v4-data-subjects');
      await statePurpose(page);
      await page.getByRole('button', { name: 'Look up' }).click();
      const result = page.getByRole('region', { name: /v4 · / });
      await expect(result.getByRole('table').first()).toBeVisible();
      await expectNoViolations(page, 'lookup result');
      await result.getByRole('button', { name: 'Compare with legacy' }).click();
      await expect(page.getByRole('region', { name: 'What differs' })).toBeVisible();
      await expectNoViolations(page, 'comparison');
      await result.getByRole('button', { name: 'Raw JSON' }).click();
      await expectNoViolations(page, 'raw JSON');
      await expectNoSidewaysScroll(page, 'data subjects with a comparison');
    });

    test('the alerts forecast shows each limit’s state without a sideways swipe', async ({
      page,
    }) => {
      await page.goto('/alerts');
      const state = page
        .getByRole('cell', { name: /OK|Past threshold|Runs out|Exhausted/ })
        .first();
      await expect(state).toBeVisible();
      const box = await state.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(size.width);
      if (size.name === 'phone') {
        await page.screenshot({ path: '.test-results/e2e/phone-alerts.png' });
      }
    });

    test.describe('in demo mode', () => {
      // The demo console: simulated integrations report (the account-wide table), and the demo
      // controls provoke a block (the banner, an incident row, its countdown).
      test.use({
        baseURL: `http://127.0.0.1:${E2E_DEMO_BFF_PORT}`,
        storageState: SIGNED_OUT_STATE,
      });

      test('the rate limits with reporting integrations and during a block have no axe violation', async ({
        page,
      }) => {
        // Three axe runs and a block provoked and ended: a busy machine needs more than 30 s.
        test.setTimeout(120_000);
        await page.goto('/sign-in');
        await page.getByLabel('Username').fill('admin');
        await page.getByLabel('Password').fill('demo');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expect(page).toHaveURL(/event-types/);
        await page.goto('/rate-limits');
        await expect(page.getByRole('table', { name: /reporting integration/ })).toBeVisible();
        await expectNoViolations(page, 'demo rate limits');
        await expectNoSidewaysScroll(page, 'demo rate limits');
        await page.getByRole('button', { name: 'End all blocks' }).click();
        await page.getByRole('button', { name: '1,000-a-minute 429' }).click();
        const banner = page.getByRole('status').filter({ hasText: /refused one call/ });
        await expect(banner).toBeVisible();
        await expect(
          page.getByRole('table', { name: '429 incidents' }).getByRole('row'),
        ).not.toHaveCount(1);
        await expectNoViolations(page, 'demo rate limits during a block');
        await expectNoSidewaysScroll(page, 'demo rate limits during a block');
        await page.goto('/alerts');
        await expect(banner).toBeVisible();
        await expectNoViolations(page, 'demo alerts during a block');
        await page.goto('/rate-limits');
        await page.getByRole('button', { name: 'End all blocks' }).click();
        await expect(banner).toBeHidden();
      });

      test('planning’s results, the readiness report and a delivery log fit the screen', async ({
        page,
      }) => {
        // The states that once widened a phone's page: the replay's result cards, the readiness
        // table of legacy calls, and a destination's delivery log.
        test.slow();
        await page.goto('/sign-in');
        await page.getByLabel('Username').fill('admin');
        await page.getByLabel('Password').fill('demo');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expect(page).toHaveURL(/event-types/, { timeout: 15_000 });

        await page.goto('/planning?period=day');
        await page.getByRole('button', { name: 'Replay' }).click();
        // A replay of a day's recorded minutes takes seconds on a busy machine.
        await expect(page.getByRole('region', { name: /^Under the policy chosen/ })).toBeVisible({
          timeout: 30_000,
        });
        await expectNoViolations(page, 'planning result');
        await expectNoSidewaysScroll(page, 'planning result');

        await page.goto('/planning?tab=migration&period=week');
        const legacy = page.getByRole('region', { name: 'Legacy calls and what replaces them' });
        await expect(legacy).toContainText('Nightly consent sync', { timeout: 30_000 });
        await expectNoViolations(page, 'migration readiness');
        await expectNoSidewaysScroll(page, 'migration readiness');
        // Every column of the legacy table is in sight: no cell starts right of the screen.
        const replaceWith = legacy.getByText(/^v4 · /).first();
        const box = await replaceWith.boundingBox();
        expect(box!.x + box!.width).toBeLessThanOrEqual(size.width);

        await page.goto('/alerts');
        const name = `Phone receiver ${Date.now().toString(36)}`;
        await page.getByLabel('Name').fill(name);
        // Nothing listens there: the test is logged as failed, which is what the log is for.
        await page.getByLabel('URL').fill('http://127.0.0.1:9/hook');
        await page.getByRole('button', { name: 'Add destination' }).click();
        await page.getByRole('button', { name: 'Done' }).click();
        const card = page.getByRole('article', { name });
        await card.getByRole('button', { name: 'Send test' }).click();
        await expect(card.getByRole('table', { name: `Delivery log of ${name}` })).toBeVisible();
        await expectNoViolations(page, 'alerts with a delivery log');
        await expectNoSidewaysScroll(page, 'alerts with a delivery log');
      });
    });

    test.describe('signed out, and as support', () => {
      test.use({ storageState: SIGNED_OUT_STATE });

      test('the sign-in page and the support role’s forbidden pages have no axe violation', async ({
        page,
      }) => {
        await page.goto('/sign-in');
        await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
        await expectNoViolations(page, 'sign-in');
        await page.getByLabel('Username').fill(E2E_USERS.support.username);
        await page.getByLabel('Password').fill(E2E_USERS.support.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expect(page.getByRole('heading', { level: 1, name: 'Event types' })).toBeVisible();

        await page.goto('/integrations');
        const forbidden = page.getByRole('heading', {
          level: 1,
          name: 'Not available for your role',
        });
        await expect(forbidden).toBeVisible();
        // The integrations page holds keys, not personal data: it says so.
        await expect(page.getByText(/reporting keys/)).toBeVisible();
        await expect(page.getByText(/personal data/)).toHaveCount(0);
        await expectNoViolations(page, 'forbidden integrations');
        await page.goto('/data-subjects');
        await expect(forbidden).toBeVisible();
        await expect(page.getByText(/shows personal data/)).toBeVisible();
        await expectNoViolations(page, 'forbidden data subjects');
        await page.goto('/rate-limits');
        await expect(page.getByRole('heading', { name: 'Headroom' })).toBeVisible();
        await expectNoViolations(page, 'rate limits as support');
        await expectNoSidewaysScroll(page, 'rate limits as support');
      });
    });
  });
}
