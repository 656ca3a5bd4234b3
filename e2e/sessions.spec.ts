// The Sessions page as a person meets it: signed in from two browsers, they see both sessions,
// end the other one from this browser, and the other browser is signed out at its next request.
// The support user is used: the admin's session is shared by every other spec.
import type { Browser, Page } from '@playwright/test';
import {
  E2E_USERS,
  expect,
  expectNoSeriousA11yViolations,
  SIGNED_OUT_STATE,
  test,
} from './fixtures';

test.use({ storageState: SIGNED_OUT_STATE });

/** A fresh browser context signed in as support through the sign-in page. */
async function signedInBrowser(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: SIGNED_OUT_STATE });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Username').fill(E2E_USERS.support.username);
  await page.getByLabel('Password').fill(E2E_USERS.support.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Event types' })).toBeVisible();
  return page;
}

const sessionRows = (page: Page) =>
  page.getByRole('table').getByRole('row').filter({ hasText: 'Password' });

test('signed in twice, a person ends the other session and that browser is signed out', async ({
  browser,
  request,
}) => {
  // A clean slate: earlier specs' support sessions end first.
  expect((await request.post('/api/session', { data: E2E_USERS.support })).status()).toBe(200);
  expect((await request.delete('/api/sessions', { headers: { 'X-CSRF': '1' } })).status()).toBe(
    200,
  );

  const laptop = await signedInBrowser(browser);
  const other = await signedInBrowser(browser);

  await laptop.getByRole('link', { name: 'Sessions' }).click();
  await expect(laptop.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  await expect(sessionRows(laptop)).toHaveCount(2);
  const mine = sessionRows(laptop).filter({ hasText: 'This browser' });
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('Chromium on Linux');
  await expectNoSeriousA11yViolations(laptop);

  // End the other one, confirming in the page, from the keyboard.
  const theirs = sessionRows(laptop).filter({ hasNotText: 'This browser' });
  await theirs.getByRole('button', { name: /^End the session of support/ }).focus();
  await laptop.keyboard.press('Enter');
  await expect(laptop.getByRole('button', { name: 'End session' })).toBeFocused();
  await laptop.keyboard.press('Enter');
  await expect(sessionRows(laptop)).toHaveCount(1);

  // The other browser: signed out at its next request.
  await other.reload();
  await expect(other.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // This one carries on.
  await laptop.reload();
  await expect(laptop.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();

  await laptop.context().close();
  await other.context().close();
});

test('the page reads well on a phone, and "Sign out everywhere" shows the sign-in page', async ({
  browser,
}) => {
  const page = await signedInBrowser(browser);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/sessions');
  await expect(page.getByText('This browser')).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);

  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByText('End all your sessions, this one included?')).toBeVisible();
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.context().close();
});
