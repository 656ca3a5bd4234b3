// An auditor as they meet the console: the audit page and the operational pages, no lookups, and
// a token for a script made on the Tokens page, shown once, used without a cookie, then revoked.
import { request as playwrightRequest } from '@playwright/test';
import { navigationFor } from '../src/app/navigation';
import {
  E2E_USERS,
  expect,
  expectNoSeriousA11yViolations,
  SIGNED_OUT_STATE,
  test,
} from './fixtures';

test.use({ storageState: SIGNED_OUT_STATE });

test('an auditor reads the audit trail, and a script uses the token they made until it is revoked', async ({
  page,
  baseURL,
}) => {
  await page.goto('/sign-in');
  await page.getByLabel('Username').fill(E2E_USERS.auditor.username);
  await page.getByLabel('Password').fill(E2E_USERS.auditor.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('banner')).toContainText('Auditor');

  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const { label } of navigationFor('auditor')) {
    await expect(nav.getByRole('link', { name: label })).toBeVisible();
  }
  await expect(nav.getByRole('link', { name: 'Data subjects' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Integrations' })).toHaveCount(0);
  await nav.getByRole('link', { name: 'Audit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Audit/ })).toBeVisible();

  await nav.getByRole('link', { name: 'Tokens' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tokens' })).toBeVisible();
  await page.getByLabel('Name').fill('Nightly export');
  await expect(page.getByLabel('Role')).toHaveValue('auditor');
  await page.getByRole('button', { name: 'Make the token' }).click();
  const token = (await page.getByTestId('created-token').textContent())?.trim() ?? '';
  expect(token).toMatch(/^pac_/);
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await expect(page.getByTestId('created-token')).toHaveCount(0);

  // A script: no cookie, no X-CSRF.
  const script = await playwrightRequest.newContext({ baseURL });
  const asScript = { headers: { Authorization: `Bearer ${token}` } };
  expect((await script.get('/api/audit-trail', asScript)).status()).toBe(200);
  expect((await script.get('/api/data-subjects/operations', asScript)).status()).toBe(403);

  const row = page.getByRole('row', { name: /Nightly export/ });
  await row.getByRole('button', { name: 'Revoke' }).click();
  await row.getByRole('button', { name: 'Revoke “Nightly export”' }).click();
  await expect(page.getByRole('row', { name: /Nightly export/ })).toHaveCount(0);
  const refused = await script.get('/api/audit-trail', asScript);
  expect(refused.status()).toBe(401);
  expect(refused.headers()['www-authenticate']).toBe('Bearer error="invalid_token"');
  await script.dispose();
});
