// An admin unlocks a user's sign-in on the Sessions page, where sign-ins are managed, and is
// answered in the page's words: no shell command for a name that is no console user's.
import { expect, expectNoSeriousA11yViolations, test } from './fixtures';

test('an admin finds the sign-in unlock under Sessions, not under Integrations', async ({
  page,
}) => {
  await page.goto('/integrations');
  await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Unlock a user’s sign-in' })).toHaveCount(0);

  await page.goto('/sessions');
  const unlock = page.getByRole('region', { name: 'Unlock a user’s sign-in' });
  await expect(unlock).toBeVisible();
  await unlock.getByLabel('Console user').fill('nobody-here');
  await unlock.getByRole('button', { name: 'Unlock sign-in' }).click();
  await expect(unlock).toContainText('No console user has this name');
  await expect(unlock).not.toContainText('npm run');
  await expectNoSeriousA11yViolations(page);
});
