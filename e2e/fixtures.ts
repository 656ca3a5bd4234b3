// Shared Playwright fixtures: the mock upstream's control routes (inject faults, reset) and an
// accessibility check, so every spec starts from a clean upstream.
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

/** Where the standalone mock upstream of the e2e run listens (see playwright.config.ts). */
export const MOCK_UPSTREAM_URL = 'http://127.0.0.1:8798';

export interface MockUpstreamControls {
  injectFault(fault: {
    operation: string;
    status: number;
    count?: number;
    retryAfterSeconds?: number;
    delayMs?: number;
  }): Promise<void>;
  reset(): Promise<void>;
}

/** Fails the test when axe finds serious or critical violations on the page as it is now. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.length} nodes)`);
  expect(serious).toEqual([]);
}

export const test = base.extend<{ mockUpstream: MockUpstreamControls }>({
  mockUpstream: async ({ request }, use) => {
    const controls: MockUpstreamControls = {
      async injectFault(fault) {
        const response = await request.post(`${MOCK_UPSTREAM_URL}/__mock/faults`, { data: fault });
        expect(response.ok()).toBe(true);
      },
      async reset() {
        await request.delete(`${MOCK_UPSTREAM_URL}/__mock/faults`);
      },
    };
    await controls.reset();
    await use(controls);
    await controls.reset();
  },
});

export { expect };
