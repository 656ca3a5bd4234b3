// Single sign-on as a person meets it in Chromium: "Sign in with" on the console, the identity
// provider's own login page (another site), and back on the console signed in with the role the
// provider's groups give; the no-access page for a person in no mapped group; sign-out through
// the provider's end-session page. The route tests cover the protocol; this proves the browser
// part they cannot: the console's cookies survive the cross-site return (SameSite=Lax).
import type { BrowserContext, Page } from '@playwright/test';
import { DEMO_IDP_PASSWORD } from '../src/mocks/identity-provider';
import { E2E_OIDC_DISPLAY_NAME, E2E_OIDC_ISSUER } from './e2e-identity';
import { expect, SIGNED_OUT_STATE, test } from './fixtures';
import { E2E_SSO_BFF_PORT } from './ports';

const CONSOLE_ORIGIN = `http://127.0.0.1:${E2E_SSO_BFF_PORT}`;

test.use({ baseURL: CONSOLE_ORIGIN, storageState: SIGNED_OUT_STATE });
// Three servers and two sites per sign-in: generous, but bounded, on a busy machine.
test.describe.configure({ timeout: 90_000 });
const SLOW = { timeout: 20_000 };

/** From the console's sign-in page, through the provider's own form, as `login`. */
async function signInAtProvider(page: Page, login: string, path = '/sign-in') {
  await page.goto(path);
  await page.getByRole('link', { name: `Sign in with ${E2E_OIDC_DISPLAY_NAME}` }).click();
  // The provider's page, on the provider's origin: nothing the console draws.
  await expect(page.getByRole('heading', { name: 'Demo identity provider' })).toBeVisible(SLOW);
  expect(new URL(page.url()).origin).toBe(E2E_OIDC_ISSUER);
  await page.getByLabel('Account').fill(login);
  await page.getByLabel('Password').fill(DEMO_IDP_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** What the console answers this browser's cookies at `GET /api/session`. */
const sessionOf = (context: BrowserContext) =>
  context.request.get('/api/session', { headers: { 'X-CSRF': '1' } });

/** The header's badge: who is signed in, and as what. */
const badge = (page: Page) => page.locator('.user-badge');

/** The main navigation: what the role may open. */
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test('an admin signs in through the provider and sees every page, lookups included', async ({
  page,
}) => {
  await signInAtProvider(page, 'ada');
  await expect(page.getByRole('heading', { level: 1, name: 'Event types' })).toBeVisible(SLOW);
  expect(new URL(page.url()).origin).toBe(CONSOLE_ORIGIN);
  await expect(badge(page)).toContainText('Ada Admin');
  await expect(badge(page)).toContainText('Admin');
  for (const name of ['Data subjects', 'Audit', 'Integrations']) {
    await expect(nav(page).getByRole('link', { name, exact: true })).toBeVisible();
  }
  await page.goto('/data-subjects');
  await expect(page.getByLabel('Operation')).toBeVisible(SLOW);
  await page.goto('/integrations');
  await expect(page.getByRole('heading', { name: 'Registered' })).toBeVisible(SLOW);
});

test('an auditor reads the audit trail but may not look anyone up', async ({ page }) => {
  await signInAtProvider(page, 'dora');
  await expect(page.getByRole('heading', { level: 1, name: 'Event types' })).toBeVisible(SLOW);
  await expect(badge(page)).toContainText('Dora Auditor');
  await expect(badge(page)).toContainText('Auditor');
  await expect(nav(page).getByRole('link', { name: 'Audit', exact: true })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Data subjects' })).toHaveCount(0);
  await page.goto('/audit');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible(SLOW);
  await page.goto('/data-subjects');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Not available for your role' }),
  ).toBeVisible(SLOW);
});

test('support sees the rate limits but neither lookups nor the audit trail', async ({ page }) => {
  await signInAtProvider(page, 'sam');
  await expect(page.getByRole('heading', { level: 1, name: 'Event types' })).toBeVisible(SLOW);
  await expect(badge(page)).toContainText('Sam Support');
  await expect(badge(page)).toContainText('Support');
  await expect(nav(page).getByRole('link', { name: 'Rate limits' })).toBeVisible();
  for (const name of ['Data subjects', 'Audit', 'Integrations']) {
    await expect(nav(page).getByRole('link', { name, exact: true })).toHaveCount(0);
  }
  await page.goto('/rate-limits');
  await expect(page.getByRole('heading', { name: 'Headroom' })).toBeVisible(SLOW);
  await page.goto('/data-subjects');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Not available for your role' }),
  ).toBeVisible(SLOW);
});

test('a person in no mapped group gets the no-access page and no session', async ({
  page,
  context,
}) => {
  await signInAtProvider(page, 'nora');
  await expect(
    page.getByRole('heading', { level: 1, name: 'You have no access to this console' }),
  ).toBeVisible(SLOW);
  await expect(page.getByText(/Nora Nogroup, you signed in with/)).toBeVisible();
  expect((await sessionOf(context)).status()).toBe(204);
});

test('the session cookie survives the cross-site return and the person lands where they were going', async ({
  page,
  context,
}) => {
  // Signed out, the audit trail sends them to sign in; they come back to it.
  await page.goto('/audit');
  await expect(page).toHaveURL(/\/sign-in/, SLOW);
  await page.getByRole('link', { name: `Sign in with ${E2E_OIDC_DISPLAY_NAME}` }).click();
  await page.getByLabel('Account').fill('dora');
  await page.getByLabel('Password').fill(DEMO_IDP_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible(SLOW);
  // The sign-in's own cookie rode the provider's cross-site redirect back (without it the callback
  // refuses), and the session cookie the callback set is Lax and HttpOnly and holds on reload.
  const cookie = (await context.cookies(CONSOLE_ORIGIN)).find((c) => c.name === 'console_session');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible(SLOW);
  const session = await sessionOf(context);
  expect(session.status()).toBe(200);
  expect(await session.json()).toMatchObject({ role: 'auditor', method: 'provider' });
});

test('signing out ends the session at the provider too', async ({ page, context }) => {
  await signInAtProvider(page, 'sam');
  await expect(page.getByRole('heading', { level: 1, name: 'Event types' })).toBeVisible(SLOW);
  await badge(page).getByRole('button', { name: 'Sign out' }).click();
  // The provider's end-session endpoint asks, on its own origin; yes sends the browser back.
  await expect(page).toHaveURL(new RegExp(`^${E2E_OIDC_ISSUER}/`), SLOW);
  await page.getByRole('button', { name: /sign me out/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible(SLOW);
  expect(new URL(page.url()).origin).toBe(CONSOLE_ORIGIN);
  expect((await sessionOf(context)).status()).toBe(204);
  // The provider forgot them: signing in again asks for the password instead of passing through.
  await page.getByRole('link', { name: `Sign in with ${E2E_OIDC_DISPLAY_NAME}` }).click();
  await expect(page.getByLabel('Account')).toBeVisible(SLOW);
});
