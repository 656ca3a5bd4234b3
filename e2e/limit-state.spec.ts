// One answer per limit: after each demo control, every page that shows a limit (the rate-limits
// gauges, the account-wide card, the Alerts forecast, and the banner above every page, Planning's
// included) says the same thing about it: blocked or not, by whom, under which limit's name.
import type { Page } from '@playwright/test';
import { E2E_DEMO_BFF_PORT } from './ports';
import { expect, SIGNED_OUT_STATE, test } from './fixtures';

/** Each demo control, and the state every page must then show (null: nothing is blocked). */
const CONTROLS: ReadonlyArray<{ button: string; state: string | null }> = [
  { button: 'Account minute block', state: 'Blocked by the platform: Account minute limit' },
  { button: 'Account hour block', state: 'Blocked by the platform: Account hour limit' },
  {
    button: '1,000-a-minute 429',
    state:
      'Paused by the console after a 429: Unknown limit (1,000 per minute, as the platform stated)',
  },
  {
    button: '429 without headers',
    state:
      'Paused by the console after a 429: Unknown limit (the 429 had no usable rate-limit headers)',
  },
  { button: 'Upstream 500', state: null },
  { button: 'Slow upstream', state: null },
];

const STATE = /(Blocked by the platform|Paused by the console after a 429): /;
const banner = (page: Page) => page.getByRole('status').filter({ hasText: STATE });

async function goTo(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
}

test.describe('in demo mode', () => {
  test.use({
    baseURL: `http://127.0.0.1:${E2E_DEMO_BFF_PORT}`,
    storageState: SIGNED_OUT_STATE,
  });
  // Six controls, four pages each.
  test.setTimeout(120_000);

  test('after each demo control, every page says the same about each limit', async ({ page }) => {
    await page.goto('/sign-in');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/event-types/);

    for (const control of CONTROLS) {
      await test.step(control.button, async () => {
        await goTo(page, 'Rate limits');
        await page.getByRole('button', { name: 'End all blocks' }).click();
        await expect(banner(page)).toBeHidden();
        await page.getByRole('button', { name: control.button, exact: true }).click();
        await expect(page.getByText(new RegExp(`^${control.button}: `))).toBeVisible();

        const headroom = page.locator('section, div').filter({
          has: page.getByRole('heading', { name: 'Headroom', exact: true }),
        });
        const accountWide = page.getByRole('region', {
          name: 'Account-wide: every reporting client',
        });
        // The account-wide card is polled every 5 s, not pushed like the banner: waiting for it
        // must outlast one poll and its answer.
        const polled = { timeout: 15_000 };
        if (control.state === null) {
          await expect(banner(page)).toBeHidden();
          await expect(headroom.last()).not.toContainText(STATE);
          await expect(accountWide).not.toContainText(STATE, polled);
        } else {
          // The banner, the account gauges and the account-wide card, same words.
          await expect(banner(page)).toContainText(`${control.state}.`);
          await expect(headroom.last()).toContainText(control.state);
          await expect(accountWide).toContainText(control.state, polled);
        }

        await goTo(page, 'Alerts');
        const minuteRow = page.getByRole('row').filter({
          has: page.getByRole('rowheader', { name: 'Account minute limit', exact: true }),
        });
        if (control.state === null) {
          await expect(minuteRow).toBeVisible();
          await expect(minuteRow).not.toContainText('Blocked');
          await expect(banner(page)).toBeHidden();
        } else {
          await expect(minuteRow).toContainText('Blocked');
          // Said on the row, or once above the table when every blocked limit shares the block.
          const forecast = page.getByRole('table').filter({ has: minuteRow });
          await expect(forecast).toContainText(control.state);
          await expect(banner(page)).toContainText(control.state);
        }

        await goTo(page, 'Planning');
        await expect(page).toHaveURL(/planning/);
        if (control.state === null) await expect(banner(page)).toBeHidden();
        else await expect(banner(page)).toContainText(control.state);
      });
    }
    await goTo(page, 'Rate limits');
    await page.getByRole('button', { name: 'End all blocks' }).click();
  });
});
