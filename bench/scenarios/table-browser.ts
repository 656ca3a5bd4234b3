// Scenario 5, the table in Chromium at 10,000 event types: first rows after navigation, the
// re-render per search keystroke and per facet click (measured inside the page with
// performance.mark/measure), and how many row elements the DOM holds.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { signIn } from '../lib/console';
import { median, percentile } from '../lib/load';
import { startNodeProcess } from '../lib/processes';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const PORT = 8779;

/** Installed before the app loads: notes when the first data row is in the DOM. */
export function recordFirstRow() {
  const observer = new MutationObserver(() => {
    if (document.querySelector('table[aria-label="Event types"] tbody tr td')) {
      performance.mark('first-row');
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
}

/**
 * Runs `count` interactions inside the page. Each one marks its start, changes the view the way
 * a user would (a keystroke into the search box, or a facet click), and measures until the
 * table shows the new result and the browser painted it.
 */
export async function measureInteractions(
  page: Page,
  kind: 'search' | 'facet',
  count: number,
): Promise<number[]> {
  return page.evaluate(
    async ({ kind, count }) => {
      // Done when no deferred render is pending (the table marks itself data-stale while it lags
      // behind the input) and the browser has had a frame to paint the result.
      const settled = () =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (document.querySelector('[data-stale]')) requestAnimationFrame(check);
            else requestAnimationFrame(() => resolve());
          };
          check();
        });
      const input = document.querySelector<HTMLInputElement>('input[type="search"]');
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
      const boxes = [
        ...document.querySelectorAll<HTMLInputElement>('fieldset input[type="checkbox"]'),
      ].slice(0, 6);
      const terms = ['vendor', 'consent', 'assessment', 'created', 'risk'];
      const durations: number[] = [];
      for (let i = 0; i < count; i += 1) {
        performance.mark(`start-${kind}-${i}`);
        if (kind === 'search' && input && setValue) {
          // One more character of the current term, or the next term after a full word.
          const term = terms[Math.floor(i / 3) % terms.length] ?? 'a';
          setValue.call(input, term.slice(0, 3 + (i % 3)));
          input.dispatchEvent(new Event('input', { bubbles: true }));
        } else {
          boxes[i % boxes.length]?.click();
        }
        await settled();
        performance.mark(`end-${kind}-${i}`);
        durations.push(
          performance.measure(`${kind}-${i}`, `start-${kind}-${i}`, `end-${kind}-${i}`).duration,
        );
      }
      return durations;
    },
    { kind, count },
  );
}

export async function tableBrowserScenario(ctx: BenchContext): Promise<Figure[]> {
  const app = await startNodeProcess('dist/server/index.js', {
    name: 'demo console with 10,000 event types',
    port: PORT,
    readyPath: '/healthz',
    env: {
      PORT: String(PORT),
      MOCK_EVENT_TYPES: '10000',
      LOG_LEVEL: 'warn',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-table-')),
    },
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    const cookie = await signIn(app.url, 'admin', 'demo');
    const firstRows: number[] = [];
    const search: number[] = [];
    const facet: number[] = [];
    let rowElements = 0;
    const interactions = ctx.smoke ? 5 : 30;
    for (let round = 1; round <= ctx.rounds; round += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addCookies(
        cookie.split('; ').map((pair) => {
          const [name, ...value] = pair.split('=');
          return { name: name ?? '', value: value.join('='), url: app.url };
        }),
      );
      // tsx keeps function names with a `__name` helper that does not exist inside the page.
      await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
      await context.addInitScript(recordFirstRow);
      const page = await context.newPage();
      // Warm the server's cache so the figure is the page's work, not the first upstream call.
      await page.request.get(`${app.url}/api/event-types`, { headers: { 'x-csrf': '1' } });
      await page.goto(`${app.url}/event-types`);
      await page.getByRole('table', { name: 'Event types' }).locator('tbody td').first().waitFor();
      firstRows.push(
        await page.evaluate(
          () => performance.getEntriesByName('first-row')[0]?.startTime ?? Number.NaN,
        ),
      );
      rowElements = Math.max(
        rowElements,
        await page.locator('table[aria-label="Event types"] tr').count(),
      );
      search.push(...(await measureInteractions(page, 'search', interactions)));
      await page.goto(`${app.url}/event-types`);
      await page.getByRole('table', { name: 'Event types' }).locator('tbody td').first().waitFor();
      facet.push(...(await measureInteractions(page, 'facet', interactions)));
      rowElements = Math.max(
        rowElements,
        await page.locator('table[aria-label="Event types"] tr').count(),
      );
      await context.close();
      ctx.log(`  table round ${round}/${ctx.rounds} done`);
    }
    const s = 'Table in Chromium (10,000 rows)';
    return [
      figure(s, 'first rows visible after navigation (median)', median(firstRows), 'ms', {
        op: '<=',
        value: 1000,
      }),
      figure(
        s,
        `search keystroke re-render p50 (${search.length} keystrokes)`,
        percentile(search, 50),
        'ms',
      ),
      figure(
        s,
        `search keystroke re-render p95 (${search.length} keystrokes)`,
        percentile(search, 95),
        'ms',
        { op: '<=', value: 50 },
      ),
      figure(s, `facet click re-render p50 (${facet.length} clicks)`, percentile(facet, 50), 'ms'),
      figure(s, `facet click re-render p95 (${facet.length} clicks)`, percentile(facet, 95), 'ms', {
        op: '<=',
        value: 50,
      }),
      figure(s, 'row elements in the DOM (max seen)', rowElements, 'rows', {
        op: '<=',
        value: 150,
      }),
    ];
  } finally {
    await browser.close();
    await app.stop();
  }
}
