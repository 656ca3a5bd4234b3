// Planning as people use it. In demo mode (a console with the week its simulated integrations
// reported): a support engineer replays the week under the newer published policy, sees what it
// would have refused and who would have drawn it, downloads the CSV, mistypes a limit and is told
// so on the field, and reads the v4 readiness. In live mode against the mock: the console's own
// calls are recorded and replayed.
import { E2E_DEMO_BFF_PORT } from './ports';
import { expect, expectNoSeriousA11yViolations, SIGNED_OUT_STATE, test } from './fixtures';

test.describe('in demo mode', () => {
  test.use({ baseURL: `http://127.0.0.1:${E2E_DEMO_BFF_PORT}`, storageState: SIGNED_OUT_STATE });
  // Two week-long replays, two accessibility scans and the readiness of every connection on a
  // busy machine: more than the default 30 s.
  test.setTimeout(120_000);

  test('a week replayed under the per-endpoint policy, then the v4 readiness', async ({ page }) => {
    await page.goto('/sign-in');
    await page.getByLabel('Username').fill('support');
    await page.getByLabel('Password').fill('demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/event-types/);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Planning' })
      .click();

    await page.getByLabel('Period').selectOption('week');
    await expect(page).toHaveURL(/period=week/);
    await page.getByRole('button', { name: 'Replay' }).click();
    const chosen = page.getByRole('region', { name: /^Under the policy chosen/ });
    await expect(chosen).toContainText('Published: per-endpoint limits');
    // The nightly sync's v4 peaks go past 1,000 a minute on its busiest nights.
    await expect(chosen.locator('.what-if-figure strong')).not.toHaveText('0');
    await expect(
      chosen.getByRole('table', { name: 'Who would have drawn the refusals' }),
    ).toContainText('Nightly consent sync');
    await expect(
      page.getByRole('heading', { name: /Breaches under the policy chosen \(\d+\)/ }),
    ).toBeVisible();
    await expect(
      page.getByRole('cell', { name: 'GET /rest/api/consent/v4/datasubjects/profiles' }).first(),
    ).toBeVisible();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    // The file is stamped with the run's time, as the export is that run and no other.
    expect((await download).suggestedFilename()).toMatch(/^what-if-default-week-[\dTZ-]+\.csv$/);

    await page.getByLabel('Numbers of your own, starting from the policy in force').check();
    const minute = page.getByLabel('Account, per minute');
    await expect(minute).toHaveValue('20000');
    await minute.fill('0');
    await page.getByRole('button', { name: 'Replay' }).click();
    await expect(
      page.getByText('A limit of 0 requests a minute would refuse everything.', { exact: false }),
    ).toBeVisible();
    await expect(minute).toHaveValue('0');
    await expect(minute).toHaveAttribute('aria-invalid', 'true');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('tab', { name: 'v4 migration readiness' }).click();
    await expect(page).toHaveURL(/tab=migration/);
    await expect(page.locator('.migration-figure')).toContainText(
      /\d+ % of [\d,]+ data-subject calls were already on v4/,
    );
    const legacy = page.getByRole('region', { name: 'Legacy calls and what replaces them' });
    await expect(legacy).toContainText('v2 data subjects');
    await expect(legacy).toContainText('Nightly consent sync');
    await expect(legacy).toContainText('Counted today by v2 data-subjects quota');
    await expectNoSeriousA11yViolations(page);
  });
});

test('in live mode, the console’s own calls are recorded and replayed', async ({ page }) => {
  await page.goto('/event-types');
  await expect(page.getByRole('table', { name: 'Event types' })).toBeVisible();
  await page.goto('/planning?period=hour');
  await page.getByLabel('Numbers of your own, starting from the policy in force').check();
  await page.getByLabel('Account, per minute').fill('1');
  // The console writes its counts every few seconds: replay until they are in.
  await expect(async () => {
    await page.getByRole('button', { name: 'Replay' }).click();
    await expect(
      page.getByRole('region', { name: /^Under the policy chosen/ }).getByRole('table', {
        name: 'Who would have drawn the refusals',
      }),
    ).toContainText('This console', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
});
