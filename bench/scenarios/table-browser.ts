// Scenario 5, the table in Chromium at 10,000 event types: first rows after navigation, the
// re-render per search keystroke and per facet click (measured inside the page with
// performance.mark/measure), and how many row elements the DOM holds. A peer runs beside it: the
// same rows in the plainest TanStack Table + Virtual page (bench/reference), measured the same
// way in the same run, so the bars are ratios a slow or busy machine cannot hide or fake.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { consolePagePath, signIn } from '../lib/console';
import { median, percentile } from '../lib/load';
import { startNodeProcess } from '../lib/processes';
import { consoleRoot } from '../lib/under-test';
import { figure, type Figure } from '../lib/report';
import { serveReferencePage } from '../reference/serve-reference';
import type { BenchContext } from './context';

const PORT = 8779;
/**
 * Page loads per page for the first-rows figure. One load varies by hundreds of milliseconds on a
 * busy two-core machine, so the median of the interaction rounds' three loads moved by more than
 * the changes it was meant to show; seven fresh loads per page make the median steadier.
 */
const FIRST_ROW_LOADS = 7;

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
      // Done when no deferred render is pending (a page that lets its rows lag behind the input
      // marks them data-stale meanwhile) and the browser has had a frame to paint the result.
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

function firstRowsLabel(loads: number): string {
  return `first rows visible after navigation (median of ${loads} load${loads === 1 ? '' : 's'})`;
}

interface PageFigures {
  firstRows: number[];
  search: number[];
  facet: number[];
  rowElements: number;
}

/** One page under measurement: its figures so far, and the steps that add to them. */
interface MeasuredPage {
  figures: PageFigures;
  /** One load of the page, for first rows only. */
  load(): Promise<void>;
  /** One load with keystrokes and facet clicks measured on it. */
  round(round: number): Promise<void>;
}

/**
 * Measures `url`, each load in a fresh context: first rows, keystrokes and facet clicks.
 * `prepare` adds what the page needs before it loads (the console's session cookie).
 */
function measuredPage(
  ctx: BenchContext,
  browser: Browser,
  url: string,
  label: string,
  prepare: (context: BrowserContext, page: Page) => Promise<void>,
): MeasuredPage {
  const figures: PageFigures = { firstRows: [], search: [], facet: [], rowElements: 0 };
  const interactions = ctx.smoke ? 5 : 30;
  const firstRow = async (page: Page) => {
    await page.goto(url);
    await page.getByRole('table', { name: 'Event types' }).locator('tbody td').first().waitFor();
  };
  const countRows = async (page: Page) => {
    figures.rowElements = Math.max(
      figures.rowElements,
      await page.locator('table[aria-label="Event types"] tr').count(),
    );
  };
  // A fresh context each time: nothing cached by the browser, as on a first visit.
  const openPage = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // tsx keeps function names with a `__name` helper that does not exist inside the page.
    await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
    await context.addInitScript(recordFirstRow);
    const page = await context.newPage();
    await prepare(context, page);
    await firstRow(page);
    figures.firstRows.push(
      await page.evaluate(
        () => performance.getEntriesByName('first-row')[0]?.startTime ?? Number.NaN,
      ),
    );
    return { context, page };
  };
  return {
    figures,
    load: async () => (await openPage()).context.close(),
    async round(round) {
      const { context, page } = await openPage();
      await countRows(page);
      figures.search.push(...(await measureInteractions(page, 'search', interactions)));
      await firstRow(page);
      figures.facet.push(...(await measureInteractions(page, 'facet', interactions)));
      await countRows(page);
      await context.close();
      ctx.log(`  table (${label}) round ${round}/${ctx.rounds} done`);
    },
  };
}

/**
 * Measures the pages load by load and round by round in turn, not one page after the other: the
 * bars are ratios of one page to the other, and a machine that slows down during the scenario
 * then slows both alike.
 */
async function measureInTurn(ctx: BenchContext, pages: readonly MeasuredPage[]): Promise<void> {
  const extraLoads = ctx.smoke ? 0 : FIRST_ROW_LOADS - ctx.rounds;
  for (let load = 0; load < extraLoads; load += 1) {
    for (const page of pages) await page.load();
  }
  for (let round = 1; round <= ctx.rounds; round += 1) {
    for (const page of pages) await page.round(round);
  }
}

/** The demo console with 10,000 event types, as the table scenario and its profiler use it. */
export function startTableConsole(port: number, dataDirPrefix: string) {
  return startNodeProcess('dist/server/index.js', {
    cwd: consoleRoot(),
    name: 'demo console with 10,000 event types',
    port,
    readyPath: '/healthz',
    env: {
      PORT: String(port),
      MOCK_EVENT_TYPES: '10000',
      LOG_LEVEL: 'warn',
      DATA_DIR: mkdtempSync(join(tmpdir(), dataDirPrefix)),
    },
  });
}

/** Headless Chromium as the table measurements run it. */
export function launchTableBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

export async function tableBrowserScenario(ctx: BenchContext): Promise<Figure[]> {
  const app = await startTableConsole(PORT, 'bench-table-');
  const browser = await launchTableBrowser();
  let reference: Awaited<ReturnType<typeof serveReferencePage>> | undefined;
  try {
    const cookie = await signIn(app.url, 'admin', 'demo');
    const cookieHeader = { cookie, 'x-csrf': '1' };
    // The reference page shows exactly the rows the console shows: the console's own answer.
    const answer = await fetch(`${app.url}/api/event-types`, { headers: cookieHeader });
    if (!answer.ok) throw new Error(`event types answered ${answer.status}`);
    reference = await serveReferencePage(await answer.text());

    const consolePage = measuredPage(
      ctx,
      browser,
      `${app.url}${consolePagePath('event-types')}`,
      'console',
      async (context, page) => {
        await context.addCookies(
          cookie.split('; ').map((pair) => {
            const [name, ...value] = pair.split('=');
            return { name: name ?? '', value: value.join('='), url: app.url };
          }),
        );
        // Warm the server's cache so the figure is the page's work, not the first upstream call.
        await page.request.get(`${app.url}/api/event-types`, { headers: { 'x-csrf': '1' } });
      },
    );
    const referencePage = measuredPage(ctx, browser, reference.url, 'reference', async () => {});
    await measureInTurn(ctx, [consolePage, referencePage]);
    const consoleFigures = consolePage.figures;
    const peer = referencePage.figures;

    const s = 'Table in Chromium (10,000 rows)';
    const r = 'Table reference page (TanStack Table + Virtual, same rows)';
    const perInteraction = (
      kind: 'search keystroke' | 'facet click',
      own: number[],
      theirs: number[],
    ) => {
      const ownP95 = percentile(own, 95);
      const theirP95 = percentile(theirs, 95);
      const n = `${own.length} ${kind === 'search keystroke' ? 'keystrokes' : 'clicks'}`;
      return [
        figure(s, `${kind} re-render p50 (${n})`, percentile(own, 50), 'ms'),
        // Two frames on the reference machine at rest.
        figure(s, `${kind} re-render p95 (${n})`, ownP95, 'ms', { op: '<=', value: 33 }),
        figure(r, `${kind} re-render p50 (${n})`, percentile(theirs, 50), 'ms'),
        figure(r, `${kind} re-render p95 (${n})`, theirP95, 'ms'),
        figure(s, `${kind} re-render p95 ÷ the reference page's`, ownP95 / theirP95, '×', {
          op: '<=',
          value: 1.5,
        }),
      ];
    };
    return [
      figure(
        s,
        firstRowsLabel(consoleFigures.firstRows.length),
        median(consoleFigures.firstRows),
        'ms',
        {
          op: '<=',
          value: 600,
        },
      ),
      figure(r, firstRowsLabel(peer.firstRows.length), median(peer.firstRows), 'ms'),
      ...perInteraction('search keystroke', consoleFigures.search, peer.search),
      ...perInteraction('facet click', consoleFigures.facet, peer.facet),
      figure(s, 'row elements in the DOM (max seen)', consoleFigures.rowElements, 'rows', {
        op: '<=',
        value: 150,
      }),
      figure(r, 'row elements in the DOM (max seen)', peer.rowElements, 'rows'),
    ];
  } finally {
    await reference?.stop();
    await browser.close();
    await app.stop();
  }
}
