// Shared Playwright fixtures: the mock upstream's control routes (inject faults, reset) and an
// accessibility check, so every spec starts from a clean upstream.
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { ADMIN_STORAGE_STATE } from './e2e-users';
import { E2E_MOCK_PORT } from './ports';

/** Where the standalone mock upstream of the e2e run listens (see playwright.config.ts). */
export const MOCK_UPSTREAM_URL = `http://127.0.0.1:${E2E_MOCK_PORT}`;

export interface MockUpstreamControls {
  injectFault(fault: {
    operation: string;
    status: number;
    count?: number;
    retryAfterSeconds?: number;
    delayMs?: number;
    headers?: Record<string, string>;
  }): Promise<{ rateLimitEventId?: string }>;
  reset(): Promise<void>;
}

/** The axe impacts the console allows none of: everything but "minor". */
const BLOCKING_IMPACTS = new Set(['moderate', 'serious', 'critical']);

/** Violations of axe on the page as it is now, at moderate impact or above, one line each. */
export async function a11yViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes
          .map((node) => node.target.join(' '))
          .join(', ')})`,
    );
}

/** Fails the test when axe finds moderate, serious or critical violations on the page now. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  expect(await a11yViolations(page)).toEqual([]);
}

export const test = base.extend<{ mockUpstream: MockUpstreamControls }>({
  mockUpstream: [
    async ({ request, playwright, baseURL }, use) => {
      // Whether this test made the mock answer a 429 (which starts a block in the console).
      let provoked = false;
      const controls: MockUpstreamControls = {
        async injectFault(fault) {
          const response = await request.post(`${MOCK_UPSTREAM_URL}/__mock/faults`, {
            data: fault,
          });
          expect(response.ok()).toBe(true);
          if (fault.status === 429) provoked = true;
          return (await response.json()) as { rateLimitEventId?: string };
        },
        async reset() {
          await request.delete(`${MOCK_UPSTREAM_URL}/__mock/faults`);
        },
      };
      await controls.reset();
      await use(controls);
      await controls.reset();
      if (!provoked) return;
      // The console honours every Retry-After it receives (docs/rate-limit-model.md §8) and sends
      // nothing until it has passed: the next test must not start inside a block this one
      // provoked. Ask the console (as admin, whoever this test signed in as) until it reports no
      // block running.
      const admin = await playwright.request.newContext({
        ...(baseURL ? { baseURL } : {}),
        storageState: ADMIN_STORAGE_STATE,
      });
      try {
        await expect
          .poll(
            async () => {
              const response = await admin.get('/api/rate-limits/usage', {
                headers: { 'X-CSRF': '1' },
              });
              if (!response.ok()) return `usage answered ${response.status()}`;
              return ((await response.json()) as { blocks: unknown[] }).blocks.length;
            },
            // A 429 without Retry-After blocks for the rule's duration: a minute at most here.
            { timeout: 75_000, intervals: [250, 500, 1_000] },
          )
          .toBe(0);
      } finally {
        await admin.dispose();
      }
    },
    // Waiting for a block to end may outlast the test's own timeout.
    { timeout: 90_000 },
  ],
});

export { expect };

/**
 * Every spec starts signed in as admin (the setup project's storage state, playwright.config.ts).
 * Specs about signing in use this instead: `test.use({ storageState: SIGNED_OUT_STATE })`.
 */
export const SIGNED_OUT_STATE = { cookies: [], origins: [] };
export { E2E_USERS } from './e2e-users';

/** Signs in to the demo-mode console (its own users, password `demo`), landing on Event types. */
export async function signInToDemo(page: Page, username: 'admin' | 'support'): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/event-types/);
}
