// Signing in and out as console users meet it: the sign-in page, what a wrong password says, what
// each role sees, that signing out leaves nothing behind, and that returnTo stays on the console.
import type { Page } from '@playwright/test';
import { navigationFor } from '../src/app/navigation';
import type { Role } from '../src/shared/session';
import {
  E2E_USERS,
  expect,
  expectNoSeriousA11yViolations,
  SIGNED_OUT_STATE,
  test,
} from './fixtures';

test.use({ storageState: SIGNED_OUT_STATE });

const table = (page: Page) => page.getByRole('table', { name: 'Event types' });
// The signed-in page itself, whatever state the upstream (or the rate-limit governor) is in.
const eventTypesHeading = (page: Page) =>
  page.getByRole('heading', { level: 1, name: 'Event types' });

async function signIn(page: Page, role: Role, password = E2E_USERS[role].password) {
  await page.getByLabel('Username').fill(E2E_USERS[role].username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

// A first visit asks only what it may: the session first, nothing that needs one. A browser logs
// every 4xx answer as a console error (Lighthouse reports them), so a 401 here would be one.
for (const path of ['/', '/sign-in']) {
  test(`a first visit to ${path} logs no console error and draws no 401`, async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 401) refused.push(new URL(response.url()).pathname);
    });
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByLabel('Username')).toBeVisible();
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
  });
}

test('a signed-out visitor signs in and comes back to the page they asked for', async ({
  page,
}) => {
  await page.goto('/event-types?module=Assessments');
  await expect(page).toHaveURL(/\/sign-in\?returnTo=%2Fevent-types%3Fmodule%3DAssessments$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByLabel('Username')).toBeFocused();
  await expectNoSeriousA11yViolations(page);

  // Keyboard only: type, tab, type, Enter.
  await page.keyboard.type(E2E_USERS.admin.username);
  await page.keyboard.press('Tab');
  await page.keyboard.type(E2E_USERS.admin.password);
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/event-types\?module=Assessments$/);
  await expect(eventTypesHeading(page)).toBeVisible();
  const header = page.getByRole('banner');
  await expect(header).toContainText('admin');
  await expect(header).toContainText('Admin');
  await expect(header.getByRole('button', { name: 'Sign out' })).toBeVisible();
});

test('a first visit gets a plain sign-in page: no "session ended", no live stream before signing in', async ({
  page,
}) => {
  const streams: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/rate-limits/stream')) streams.push(request.url());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText(/session has ended/)).toHaveCount(0);
  await signIn(page, 'admin', 'not-the-password');
  await expect(page.getByRole('alert')).toContainText('Wrong username or password');
  await expect(page.getByText(/session has ended/)).toHaveCount(0);
  expect(streams).toEqual([]);
});

test('the root address the start banner prints opens the console, signed out and in', async ({
  page,
}) => {
  // Not a download, not an empty page: the document is HTML and the sign-in form shows.
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-type']).toMatch(/^text\/html/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await signIn(page, 'admin');
  await expect(eventTypesHeading(page)).toBeVisible();
  // Signed in, the root address is the console too.
  await page.goto('/');
  await expect(eventTypesHeading(page)).toBeVisible();
});

test('a wrong password says so and lets the user try again', async ({ page }) => {
  await page.goto('/sign-in');
  await signIn(page, 'admin', 'not-the-password');
  await expect(page.getByRole('alert')).toHaveText(
    'Wrong username or password. Check both and try again.',
  );
  await expect(page.getByLabel('Password')).toHaveValue('');
  await expect(page.getByLabel('Username')).toHaveValue('admin');
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('Password').fill(E2E_USERS.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(eventTypesHeading(page)).toBeVisible();
});

test('a support user sees only what the role may use, and personal data is refused', async ({
  page,
}) => {
  await page.goto('/sign-in');
  await signIn(page, 'support');
  await expect(eventTypesHeading(page)).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('Support');

  const nav = page.getByRole('navigation', { name: 'Main' });
  const allowed = navigationFor('support').map((entry) => entry.label);
  const hidden = navigationFor('admin')
    .map((entry) => entry.label)
    .filter((label) => !allowed.includes(label));
  for (const label of allowed) await expect(nav.getByRole('link', { name: label })).toBeVisible();
  for (const label of hidden) await expect(nav.getByRole('link', { name: label })).toHaveCount(0);

  // The API refuses personal-data routes to support whatever the page shows.
  for (const path of ['/api/data-subjects/operations', '/api/audit-trail']) {
    const response = await page.request.get(path, { headers: { 'X-CSRF': '1' } });
    expect(response.status()).toBe(403);
  }
});

test('signing out returns to sign-in, and the back button shows no data', async ({ page }) => {
  await page.goto('/event-types?q=consent');
  await signIn(page, 'admin');
  await expect(eventTypesHeading(page)).toBeVisible();
  // Whatever the page holds (the list, or the upstream's state), wait until it is on screen.
  await expect(table(page).or(page.getByRole('alert'))).toBeVisible();
  // One more in-app history entry of the signed-in console.
  await page.getByRole('link', { name: 'Event types' }).click();
  await expect(page).toHaveURL(/\/event-types$/);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  for (let step = 0; step < 2; step += 1) {
    await page.goBack();
    await expect(page).toHaveURL(/\/sign-in/);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(eventTypesHeading(page)).toHaveCount(0);
    await expect(table(page)).toHaveCount(0);
    await expect(page.getByRole('banner')).toHaveCount(0);
  }

  // The old session is over on the server too.
  const session = await page.request.get('/api/session', { headers: { 'X-CSRF': '1' } });
  expect(session.status()).toBe(204);
});

test('returnTo leads back into the console and never to another site', async ({
  page,
  baseURL,
}) => {
  await page.goto('/sign-in?returnTo=%2Fevent-types%3Fq%3Dvendor');
  await signIn(page, 'admin');
  await expect(page).toHaveURL(/\/event-types\?q=vendor$/);

  for (const target of ['//evil.example', 'https://evil.example/', '/\\evil.example']) {
    await page.request.delete('/api/session', { headers: { 'X-CSRF': '1' } });
    await page.goto(`/sign-in?returnTo=${encodeURIComponent(target)}`);
    await signIn(page, 'admin');
    await expect(eventTypesHeading(page)).toBeVisible();
    expect(new URL(page.url()).origin).toBe(baseURL);
    await expect(page).toHaveURL(/\/event-types$/);
  }
});
