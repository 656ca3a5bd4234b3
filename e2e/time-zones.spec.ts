// Times follow the browser's zone and say which it is: the same session start reads in Berlin's
// zone in a browser set to Berlin and in New York's in one set to New York, each labelled, with the
// same instant in UTC on hover.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** The first session's start as the Sessions page shows it: text, UTC title and instant. */
async function sessionStart(page: Page) {
  await page.goto('/sessions');
  const time = page
    .getByRole('cell')
    .filter({ has: page.locator('time') })
    .first()
    .locator('time');
  await expect(time).toBeVisible();
  return {
    text: (await time.textContent()) ?? '',
    title: (await time.getAttribute('title')) ?? '',
    instant: (await time.getAttribute('datetime')) ?? '',
  };
}

for (const [timezoneId, label, offsetHours] of [
  ['Europe/Berlin', /GMT\+[12]$/, [1, 2]],
  ['America/New_York', /E[SD]T$/, [-5, -4]],
] as const) {
  test.describe(`a browser in ${timezoneId}`, () => {
    test.use({ timezoneId });

    test('shows a session’s start in its own zone, labelled, with UTC on hover', async ({
      page,
    }) => {
      const start = await sessionStart(page);
      expect(start.text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} /);
      expect(start.text).toMatch(label);
      expect(start.title).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
      // The local hour is the UTC hour moved by the zone's offset.
      const utcHour = Number(start.title.slice(11, 13));
      const localHour = Number(start.text.slice(11, 13));
      expect(offsetHours.map((offset) => (utcHour + offset + 24) % 24)).toContain(localHour);
      // The title is the machine-readable instant to the second.
      expect(start.instant.slice(0, 19)).toBe(start.title.slice(0, 19).replace(' ', 'T'));
    });
  });
}
