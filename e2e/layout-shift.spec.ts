// What is drawn first stays where it is: a cold load of a signed-in page must not push what the
// reader is looking at down the screen as later answers arrive. Measured with the browser's own
// Layout Instability API, the figure Lighthouse scores as cumulative layout shift; 0.1 is the
// bound its documentation calls good. (The rate-limits page once shifted by 0.7, then by 0.24 as
// the account-wide card filled in above the incidents: bench/findings/lighthouse.md.)
import type { Page } from '@playwright/test';
import { expect, SIGNED_OUT_STATE, signInToDemo, test } from './fixtures';
import { E2E_DEMO_BFF_PORT } from './ports';

/** The layout shifts recorded, each with what moved. */
type Shifts = { value: number; moved: string[] }[];

/** Starts recording layout shifts not caused by input, from the page's first paint. */
async function recordShifts(page: Page) {
  await page.addInitScript(() => {
    const shifts: Shifts = [];
    (window as unknown as { __shifts: Shifts }).__shifts = shifts;
    // What moved, as a reader would name it: the element's tag and class, and its first words.
    const named = (node: Node | null) =>
      node instanceof Element
        ? `${node.tagName.toLowerCase()}.${node.className} "${(node.textContent ?? '').slice(0, 30)}"`
        : 'an element since removed';
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        hadRecentInput: boolean;
        sources: { node: Node | null }[];
      }[])
        if (!entry.hadRecentInput)
          shifts.push({ value: entry.value, moved: entry.sources.map(({ node }) => named(node)) });
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

const totalShift = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __shifts: Shifts }).__shifts.reduce((sum, { value }) => sum + value, 0),
  );

/** Every element that moved, once each. */
const movedElements = (page: Page) =>
  page.evaluate(() => [
    ...new Set((window as unknown as { __shifts: Shifts }).__shifts.flatMap(({ moved }) => moved)),
  ]);

/** Waits for the page to paint twice: what the answers so far bring is on the screen. */
const twoFrames = (page: Page) =>
  page.evaluate(
    () =>
      new Promise((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(null))),
      ),
  );

const PAGES = [
  { path: '/event-types', settled: (page: Page) => page.getByRole('row').nth(5) },
  { path: '/planning', settled: (page: Page) => page.getByRole('button', { name: 'Replay' }) },
];

for (const { path, settled } of PAGES) {
  test(`${path} keeps what it drew first in place as its data arrives`, async ({ page }) => {
    await recordShifts(page);
    await page.goto(path);
    await expect(settled(page)).toBeVisible();
    // Shifts are reported after the frame they happen in.
    await twoFrames(page);
    expect(await totalShift(page)).toBeLessThan(0.1);
  });
}

test('/rate-limits moves nothing, its header included, when the account-wide card’s data comes last', async ({
  page,
}) => {
  // The account-wide view is the slowest of the page's answers on a busy account (it reads every
  // integration's reports); held back here until the rest has arrived and been drawn.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/connections/default/account-usage', async (route) => {
    await held;
    await route.continue();
  });
  await recordShifts(page);
  const rest = Promise.all(
    [
      '/api/connections/default/rate-limits/rules',
      '/api/connections/default/rate-limits/usage',
    ].map((path) => page.waitForResponse((response) => new URL(response.url()).pathname === path)),
  );
  await page.goto('/rate-limits');
  await rest;
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  await twoFrames(page);
  release();
  await expect(page.getByLabel('Key to the limit bars')).toBeVisible();
  await expect(page.getByRole('heading', { name: '429 incidents' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 }).locator('..')).toContainText('Account tier');
  await twoFrames(page);
  // Not even by a little: the limits add the account's tier to the header's description. Said
  // before the sections were placed, the longer description pushed the live indicator onto a line
  // of its own and the loading line below it down (0.045, counted on every cold load); the
  // indicator's word also narrows from "Connecting…" to "Live" at the header's right end.
  expect(await movedElements(page)).toEqual([]);
  expect(await totalShift(page)).toBe(0);
});

test.describe('with two connections (demo mode)', () => {
  test.use({ baseURL: `http://127.0.0.1:${E2E_DEMO_BFF_PORT}`, storageState: SIGNED_OUT_STATE });

  test('/c/default/rate-limits keeps its sections in place when the overview of every connection comes last', async ({
    page,
  }) => {
    await signInToDemo(page, 'admin');
    // The overview's cards hold their places from the first paint; their figures are held back
    // here until the rest of the page has been drawn.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/rate-limit-overview', async (route) => {
      await held;
      await route.continue();
    });
    await recordShifts(page);
    await page.goto('/c/default/rate-limits');
    await expect(page.getByRole('heading', { name: '429 incidents' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'All connections' })).toContainText('Loading…');
    await twoFrames(page);
    release();
    await expect(page.getByRole('region', { name: 'All connections' })).toContainText(
      'Tightest limit',
    );
    await twoFrames(page);
    expect(await totalShift(page)).toBeLessThan(0.1);
  });
});
