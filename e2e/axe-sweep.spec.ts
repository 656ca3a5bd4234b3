// Every page and the states people meet, at desktop and phone width (390 px), through axe: no
// moderate, serious or critical violation anywhere. Also what a phone shows without a sideways
// swipe: no page wider than the screen, the forecast's state in view, and the forbidden page of
// the support role saying what the page holds.
import type { Page } from '@playwright/test';
import { a11yViolations, E2E_USERS, expect, SIGNED_OUT_STATE, test } from './fixtures';
import { E2E_DEMO_BFF_PORT } from './ports';
import { statePurpose } from './lookup-purpose';

// One axe run over a page of tables takes a second or two at rest and ten times that on a loaded
// two-core machine, past the 30 s default; the deadline only bounds a hang, and each test is one
// page state at one width, so a slow page fails alone.
test.describe.configure({ timeout: 120_000 });

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

/** The support role's states: the pages it may not open say why, and one it may open. */
const SUPPORT_STATES: ReadonlyArray<{
  path: string;
  where: string;
  ready: (page: Page) => Promise<void>;
}> = [
  {
    path: '/integrations',
    where: 'forbidden integrations',
    ready: async (page) => {
      await expect(forbidden(page)).toBeVisible();
      // The integrations page holds keys, not personal data: it says so.
      await expect(page.getByText(/reporting keys/)).toBeVisible();
      await expect(page.getByText(/personal data/)).toHaveCount(0);
    },
  },
  {
    path: '/data-subjects',
    where: 'forbidden data subjects',
    ready: async (page) => {
      await expect(forbidden(page)).toBeVisible();
      await expect(page.getByText(/shows personal data/)).toBeVisible();
    },
  },
  {
    path: '/rate-limits',
    where: 'rate limits as support',
    ready: (page) => expect(page.getByRole('heading', { name: 'Headroom' })).toBeVisible(),
  },
];

const forbidden = (page: Page) =>
  page.getByRole('heading', { level: 1, name: 'Not available for your role' });

/** The demo console's admin (demo mode's own users). */
const DEMO_ADMIN = { username: 'admin', password: 'demo' };

/** Signs in through the sign-in page and waits for the first page. */
async function signInAs(page: Page, user: { username: string; password: string }) {
  await page.goto('/sign-in');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Event types' })).toBeVisible({
    timeout: 15_000,
  });
}

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

/** A heading touching its card's border reads as content spilling out of the card. */
async function expectCardsHoldTheirHeadings(page: Page, where: string) {
  const flush = await page.locator('.card').evaluateAll((cards) =>
    cards.flatMap((card) => {
      const heading = card.querySelector('h2, h3');
      if (!heading || heading.closest('.card') !== card) return [];
      const outer = card.getBoundingClientRect();
      const inner = heading.getBoundingClientRect();
      if (outer.width === 0 || inner.width === 0) return [];
      return inner.left - outer.left < 8 || inner.top - outer.top < 8
        ? [heading.textContent ?? '']
        : [];
    }),
  );
  expect(flush, `${where}: headings against their card's border`).toEqual([]);
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
        await expectCardsHoldTheirHeadings(page, path);
      });
    }

    // Each state of a lookup in a test of its own: each step before it is taken again, and one
    // axe run over two 20-record tables, so no walk through all three outlasts the timeout.
    for (const state of ['lookup result', 'comparison', 'raw JSON'] as const) {
      test(`a lookup’s ${state} has no axe violation`, async ({ page }) => {
        await page.goto('/data-subjects?operation=v4-data-subjects');
        await statePurpose(page);
        await page.getByRole('button', { name: 'Look up' }).click();
        const result = page.getByRole('region', { name: /v4 · / });
        await expect(result.getByRole('table').first()).toBeVisible();
        if (state !== 'lookup result') {
          await result.getByRole('button', { name: 'Compare with legacy' }).click();
          await expect(page.getByRole('region', { name: 'What differs' })).toBeVisible();
        }
        if (state === 'raw JSON') {
          await result.getByRole('button', { name: 'Raw JSON' }).click();
        }
        await expectNoViolations(page, state);
        await expectNoSidewaysScroll(page, `data subjects: ${state}`);
      });
    }

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

      test('the rate limits with reporting integrations have no axe violation', async ({
        page,
      }) => {
        await signInAs(page, DEMO_ADMIN);
        await page.goto('/rate-limits');
        await expect(page.getByRole('table', { name: /reporting integration/ })).toBeVisible();
        await expectNoViolations(page, 'demo rate limits');
        await expectNoSidewaysScroll(page, 'demo rate limits');
      });

      // A block provoked and ended in each test, so one page's slow axe run cannot time out the
      // other's.
      for (const path of ['/rate-limits', '/alerts']) {
        test(`${path} during a block has no axe violation`, async ({ page }) => {
          await signInAs(page, DEMO_ADMIN);
          await page.goto('/rate-limits');
          await page.getByRole('button', { name: 'End all blocks' }).click();
          await page.getByRole('button', { name: '1,000-a-minute 429' }).click();
          const banner = page.getByRole('status').filter({ hasText: /refused one call/ });
          await expect(banner).toBeVisible();
          await expect(
            page.getByRole('table', { name: '429 incidents' }).getByRole('row'),
          ).not.toHaveCount(1);
          if (path !== '/rate-limits') {
            await page.goto(path);
            await expect(banner).toBeVisible();
          }
          await expectNoViolations(page, `demo ${path} during a block`);
          await expectNoSidewaysScroll(page, `demo ${path} during a block`);
          await page.goto('/rate-limits');
          await page.getByRole('button', { name: 'End all blocks' }).click();
          await expect(banner).toBeHidden();
        });
      }

      // The states that once widened a phone's page: the replay's result cards, the readiness
      // table of legacy calls, and a destination's delivery log.
      test('planning’s replay result fits the screen', async ({ page }) => {
        await signInAs(page, DEMO_ADMIN);
        // A week: it holds the demo's last nightly peaks at any time of day (the last 24 hours
        // hold one only outside 02:40–04:40 UTC, the history stopping two hours before the start).
        await page.goto('/planning?period=week');
        await page.getByRole('button', { name: 'Replay' }).click();
        // A replay of a week's recorded minutes takes seconds on a busy machine.
        await expect(page.getByRole('region', { name: /^Under the policy chosen/ })).toBeVisible({
          timeout: 30_000,
        });
        // The widest state: the demo's nightly peak past the per-endpoint limit gives refusals,
        // and their sources' table (whose long header once widened the page).
        await expect(
          page.getByRole('table', { name: 'Who would have drawn the refusals' }),
        ).toBeVisible();
        await expectNoViolations(page, 'planning result');
        await expectNoSidewaysScroll(page, 'planning result');
      });

      test('the migration readiness report fits the screen', async ({ page }) => {
        await signInAs(page, DEMO_ADMIN);
        await page.goto('/planning?tab=migration&period=week');
        const legacy = page.getByRole('region', { name: 'Legacy calls and what replaces them' });
        await expect(legacy).toContainText('Nightly consent sync', { timeout: 30_000 });
        await expectNoViolations(page, 'migration readiness');
        await expectNoSidewaysScroll(page, 'migration readiness');
        // Every column of the legacy table is in sight: no cell starts right of the screen.
        const replaceWith = legacy.getByText(/^v4 · /).first();
        const box = await replaceWith.boundingBox();
        expect(box!.x + box!.width).toBeLessThanOrEqual(size.width);
      });

      test('a destination’s delivery log fits the screen', async ({ page }) => {
        await signInAs(page, DEMO_ADMIN);
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

      test('the sign-in page has no axe violation', async ({ page }) => {
        await page.goto('/sign-in');
        await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
        await expectNoViolations(page, 'sign-in');
      });

      for (const { path, where, ready } of SUPPORT_STATES) {
        test(`${where} has no axe violation`, async ({ page }) => {
          await signInAs(page, E2E_USERS.support);
          await page.goto(path);
          await ready(page);
          await expectNoViolations(page, where);
          await expectNoSidewaysScroll(page, where);
        });
      }
    });
  });
}
