// Alerts as an admin sets them up in demo mode: a destination pointing at a receiver on
// 127.0.0.1, its signing secret shown once, "Send test", and the delivered alert in the delivery
// log — with the signature checked by the receiver. Then a support user sees the log but none of
// the controls.
import { expect, test, type Page } from '@playwright/test';
import { verifySignature } from '../src/server/alerts/signature';
import { startAlertReceiver, type AlertReceiver } from '../src/server/test-support/alert-receiver';
import { expectNoSeriousA11yViolations, SIGNED_OUT_STATE } from './fixtures';
import { E2E_DEMO_BFF_PORT } from './ports';

test.describe('alerts in demo mode', () => {
  test.use({ baseURL: `http://127.0.0.1:${E2E_DEMO_BFF_PORT}`, storageState: SIGNED_OUT_STATE });

  let receiver: AlertReceiver;
  test.beforeAll(async () => {
    receiver = await startAlertReceiver();
  });
  test.afterAll(() => receiver.close());

  async function signIn(page: Page, username: string) {
    await page.goto('/');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/event-types/);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Alerts' })
      .click();
    await expect(page.getByRole('heading', { name: 'Early warning and alerts' })).toBeVisible();
  }

  test('an admin adds a local receiver, sends a test, and sees it delivered in the log', async ({
    page,
    browser,
  }) => {
    // A name of its own per attempt: a retry runs against the same demo console.
    const name = `Local receiver ${Date.now().toString(36)}`;
    const before = receiver.received.length;
    await signIn(page, 'admin');
    // The forecast lists every limit.
    await expect(page.getByRole('row', { name: /Account minute limit/ }).first()).toBeVisible();

    // A plain-http address other than 127.0.0.1 is refused with the reason, nothing lost.
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('URL').fill('http://example.com/hook');
    await page.getByRole('button', { name: 'Add destination' }).click();
    await expect(page.getByText(/This URL must start with https:\/\//)).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveValue(name);

    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add destination' }).click();
    const secret = (await page.locator('.secret-value code').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.locator('.secret-value')).toHaveCount(0);

    const card = page.getByRole('article', { name });
    await card.getByRole('button', { name: 'Send test' }).click();
    await expect(card.getByText('Test delivered.')).toBeVisible();
    const row = card.getByRole('row').filter({ hasText: 'Test' });
    await expect(row).toContainText('Delivered');
    await expect(row).toContainText('Answered 200');
    // Happened, Event, Limit, Status, Attempts.
    await expect(row.getByRole('cell').nth(4)).toHaveText('1');

    // The receiver got one signed alert that verifies with the secret shown once.
    expect(receiver.received).toHaveLength(before + 1);
    const alert = receiver.received.at(-1);
    expect(
      verifySignature(
        secret,
        alert!.body,
        alert!.headers['console-signature'] as string,
        Date.now(),
      ),
    ).toBeNull();
    expect(JSON.parse(alert!.body)).toMatchObject({ type: 'test' });
    // The page never shows the secret again.
    await page.reload();
    await expect(page.getByText(secret)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // Support sees the destination and its log, without any control.
    const context = await browser.newContext({ storageState: SIGNED_OUT_STATE });
    const support = await context.newPage();
    await signIn(support, 'support');
    const supportCard = support.getByRole('article', { name });
    await expect(supportCard.getByRole('row').filter({ hasText: 'Test' })).toContainText(
      'Delivered',
    );
    await expect(supportCard.getByRole('button')).toHaveCount(0);
    await expect(support.getByRole('heading', { name: 'Add a destination' })).toHaveCount(0);
    await context.close();
  });
});
