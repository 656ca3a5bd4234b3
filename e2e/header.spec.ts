// The header as a laptop shows it: beside the connection switcher and the person, every page's
// link stays in sight at common laptop widths (at 1280 px Tokens had scrolled out of the header),
// on one line from 1280 px.
import { navigationFor } from '../src/app/navigation';
import { expect, SIGNED_OUT_STATE, signInToDemo, test } from './fixtures';
import { E2E_DEMO_BFF_PORT } from './ports';

// The demo console: two connections, so the header holds the switcher.
test.use({ baseURL: `http://127.0.0.1:${E2E_DEMO_BFF_PORT}`, storageState: SIGNED_OUT_STATE });

for (const width of [1024, 1280, 1366]) {
  test(`every page's link is in sight at ${width} px beside the connection switcher`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await signInToDemo(page, 'admin');
    await page.goto('/c/default/event-types');
    await expect(page.getByRole('table', { name: 'Event types' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Connection' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    const tops: number[] = [];
    for (const { label } of navigationFor('admin')) {
      const link = nav.getByRole('link', { name: label, exact: true });
      await expect(link).toBeInViewport({ ratio: 1 });
      tops.push((await link.boundingBox())?.y ?? -1);
    }
    // From 1280 px, a laptop's common widths, the links stay on one line (Tokens used to wrap
    // onto a second one); narrower, a second line is how they stay in sight.
    if (width >= 1280) expect(new Set(tops).size).toBe(1);
  });
}
