// The what-if against what really happened, in demo mode: an admin provokes a real 429 with the
// demo controls, replays the hour holding it, and reads beside the policy in force's figures
// either its refusals reproduced or which recorded 429s the replay leaves out and why. The
// Markdown and CSV files are then that run (its id, its time, its totals, a window ending by its
// generation), and a policy of one's own is stated limit by limit on the page and in both files.
import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { E2E_DEMO_BFF_PORT } from './ports';
import { expect, SIGNED_OUT_STATE, signInToDemo, test } from './fixtures';

const fileText = async (download: Promise<Download>) =>
  readFile((await (await download).path())!, 'utf8');

/** The run's id and the minute:second of its time, as the page shows them above the figures. */
async function runOnScreen(page: Page) {
  const summary = await page.locator('.what-if-summary').innerText();
  const [, runId, generated] = /Run (\S+), generated ([^;]+);/.exec(summary) ?? [];
  expect(runId).toBeTruthy();
  return { runId: runId!, generated: generated! };
}

const refusedOnScreen = async (page: Page, region: RegExp) =>
  Number(
    (
      await page.getByRole('region', { name: region }).locator('.what-if-figure strong').innerText()
    ).replaceAll(',', ''),
  );

test.describe('in demo mode', () => {
  test.use({ baseURL: `http://127.0.0.1:${E2E_DEMO_BFF_PORT}`, storageState: SIGNED_OUT_STATE });
  // A replay and two exports on a busy machine.
  test.setTimeout(120_000);

  test('a replay of the hour holding a real 429 accounts for it, and its files are the run on screen', async ({
    page,
  }) => {
    await signInToDemo(page, 'admin');

    await page.goto('/rate-limits');
    await page.getByRole('button', { name: 'End all blocks' }).click();
    await expect(
      page.getByText('Every block in the mock and the console has ended.'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Account minute block' }).click();
    await expect(page.getByText(/^Account minute block: the platform answered 429/)).toBeVisible();

    await page.goto('/planning?period=hour');
    const inForce = page.getByRole('region', {
      name: /^Under Production \(EU\)’s policy in force/,
    });
    const note = inForce.locator('.what-if-baseline-note');
    // The console adds its counts to the record every few seconds: replay until the 429 is in.
    await expect(async () => {
      await page.getByRole('button', { name: 'Replay' }).click();
      await expect(note).toContainText(/The platform answered [\d,]+ 429s? in this period/, {
        timeout: 3_000,
      });
    }).toPass({ timeout: 45_000 });
    const noteText = await note.innerText();
    const recorded = Number(/answered ([\d,]+) 429/.exec(noteText)![1]!.replaceAll(',', ''));
    expect(recorded).toBeGreaterThanOrEqual(1);
    const refusedInForce = await refusedOnScreen(
      page,
      /^Under Production \(EU\)’s policy in force/,
    );
    // Either the baseline reproduces refusals, or it says it refuses none; and in both cases which
    // recorded 429s it leaves out, and why.
    expect(noteText).toContain(
      refusedInForce === 0
        ? 'the replay under the policy in force refuses none of the recorded requests'
        : `the replay under the policy in force refuses ${refusedInForce.toLocaleString('en-US')} request`,
    );
    expect(noteText).toContain(
      'a block the platform imposed for traffic it never saw (clients that do not report, or the platform’s own count), or for a limit the published policy does not have, is not in it. Those incidents are on the rate-limits page.',
    );

    // A policy of one's own, stated limit by limit.
    await page.getByLabel('Numbers of your own, starting from the policy in force').check();
    await page.getByLabel('Account, per minute').fill('15000');
    await page.getByRole('button', { name: 'Replay' }).click();
    const chosen = page.getByRole('region', { name: /^Under the policy chosen/ });
    const limits = chosen.getByRole('list', { name: /^Limits of / });
    await expect(limits).toContainText('Account minute limit: 15,000 a minute');
    const statedLines = await limits.getByRole('listitem').allInnerTexts();
    expect(statedLines.length).toBeGreaterThan(1);
    const label = ((await limits.getAttribute('aria-label')) ?? '').replace(/^Limits of /, '');
    // The record may have grown since the first replay (the console adds its counts every few
    // seconds): the files are compared with this run, the one on screen.
    const runNote = await note.innerText();
    const runRecorded = Number(/answered ([\d,]+) 429/.exec(runNote)![1]!.replaceAll(',', ''));
    expect(runRecorded).toBeGreaterThanOrEqual(recorded);

    const run = await runOnScreen(page);
    const refused = {
      inForce: await refusedOnScreen(page, /^Under Production \(EU\)’s policy in force/),
      chosen: await refusedOnScreen(page, /^Under the policy chosen/),
    };
    const breachesHeading = await page
      .getByRole('heading', { name: /^Breaches under the policy chosen/ })
      .innerText();
    const breaches = Number(/\(([\d,]+)\)/.exec(breachesHeading)![1]!.replaceAll(',', ''));

    const markdownDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download report (Markdown)' }).click();
    const markdown = await fileText(markdownDownload);
    const [, mdRun, mdGenerated, , mdTo] =
      /Run (\S+), generated at (\S+); traffic from (\S+) to (\S+)\./.exec(markdown) ?? [];
    expect(mdRun).toBe(run.runId);
    // The page writes the time in the reader's zone; minutes and seconds agree in any whole-hour one.
    expect(run.generated).toContain(mdGenerated!.slice(13, 19));
    expect(Date.parse(mdTo!)).toBeLessThanOrEqual(Date.parse(mdGenerated!));
    expect(markdown).toContain(`Requests refused: **${refused.inForce.toLocaleString('en-US')}**`);
    expect(markdown).toContain(`Requests refused: **${refused.chosen.toLocaleString('en-US')}**`);
    expect(markdown).toContain(runNote);
    for (const line of statedLines) expect(markdown).toContain(`- ${line}`);

    const csvDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    // A byte-order mark first, for spreadsheets.
    const csv = (await fileText(csvDownload)).replace(/^\ufeff/, '').split('\r\n');
    expect(csv[0]).toBe('run_id,generated_at,from,to,recorded_429s,connection');
    const [csvRun, csvGenerated, , csvTo, csvRecorded] = csv[1]!.split(',');
    expect([csvRun, csvGenerated, csvRecorded]).toEqual([
      run.runId,
      mdGenerated,
      String(runRecorded),
    ]);
    expect(Date.parse(csvTo!)).toBeLessThanOrEqual(Date.parse(csvGenerated!));
    // The chosen policy's rows: its label first (quoted when it holds a comma).
    const chosenRows = csv.filter(
      (row) => row.startsWith('chosen: ') || row.startsWith('"chosen: '),
    );
    expect(chosenRows[0]).toContain(
      label.includes(',') ? `"chosen: ${label}"` : `chosen: ${label},`,
    );
    expect(
      chosenRows.filter((row) => row.includes(',Account minute limit,MINUTE,15000,hard,')),
    ).toHaveLength(1);
    // Every limit stated on the page is a row of the chosen policy, and every breach is there.
    expect(chosenRows.filter((row) => /,(MINUTE|HOUR),\d+,(hard|soft),/.test(row))).toHaveLength(
      statedLines.length,
    );
    expect(chosenRows.filter((row) => /,\d{4}-\d\d-\d\dT[^,]*,/.test(row))).toHaveLength(breaches);

    await page.goto('/rate-limits');
    await page.getByRole('button', { name: 'End all blocks' }).click();
  });
});
