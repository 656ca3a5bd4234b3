// The purpose bar of the data-subjects page as the specs fill it: LOOKUP_PURPOSE is `required` by
// default, so a spec states why before its first lookup, as a person does.
import { expect, type Page } from '@playwright/test';

/** The purpose the specs work under unless they name their own. */
export const E2E_PURPOSE = { category: 'support ticket', reference: 'E2E-1' } as const;

/** States a purpose in the bar and waits until it is in force. */
export async function statePurpose(
  page: Page,
  purpose: { category: string; reference: string } = E2E_PURPOSE,
): Promise<void> {
  await page.getByLabel('Category', { exact: true }).selectOption(purpose.category);
  await page.getByLabel('Reference', { exact: true }).fill(purpose.reference);
  await page.getByRole('button', { name: 'Use this purpose' }).click();
  await expect(page.getByText(`Working on ${purpose.reference}`)).toBeVisible();
}

/** States the specs' purpose if the bar still asks for one (the page has just loaded). */
export async function statePurposeIfAsked(page: Page): Promise<void> {
  await expect(page.getByLabel('Operation', { exact: true })).toBeVisible();
  if (await page.getByRole('button', { name: 'Use this purpose' }).isVisible()) {
    await statePurpose(page);
  }
}
