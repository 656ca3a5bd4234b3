// Setup project: signs in once as the e2e admin through the API and saves the browser state, so
// every spec starts signed in (specs about signing in start from an empty state instead).
import { expect, test as setup } from '@playwright/test';
import { ADMIN_STORAGE_STATE, E2E_USERS } from './e2e-users';

setup('sign in as admin', async ({ request }) => {
  const response = await request.post('/api/session', { data: E2E_USERS.admin });
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ username: 'admin', role: 'admin' });
  await request.storageState({ path: ADMIN_STORAGE_STATE });
});
