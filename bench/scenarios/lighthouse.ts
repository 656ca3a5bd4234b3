// Pages as a browser sees them: Lighthouse (desktop preset) in Debian's Chromium on the built demo
// console with 10,000 event types: the sign-in page signed out, and event types, rate limits and
// planning signed in by cookie. Three runs per page, the median of each figure reported. Bars:
// performance at least 95, accessibility and best practices 100, and the largest contentful paint
// of a signed-in page at most 1 s. What a page loses points on is printed as it runs, so a miss
// says where to look.
import { loadavg } from 'node:os';
import { chromium } from '@playwright/test';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { consolePagePath, signIn } from '../lib/console';
import { freePort } from '../../src/server/test-support/free-port';
import { median } from '../lib/load';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';
import { startTableConsole } from './table-browser';

const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;

interface MeasuredPath {
  label: string;
  path: string;
  signedIn: boolean;
}

const PAGES: readonly MeasuredPath[] = [
  { label: 'sign-in', path: '/sign-in', signedIn: false },
  { label: 'event types (10,000 rows)', path: consolePagePath('event-types'), signedIn: true },
  { label: 'rate limits', path: consolePagePath('rate-limits'), signedIn: true },
  { label: 'planning', path: consolePagePath('planning'), signedIn: true },
];

/** One Lighthouse run's figures: the three scores out of 100, and the metrics in ms (CLS bare). */
interface RunFigures {
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

function figuresOf(lhr: Result): RunFigures {
  const score = (id: (typeof CATEGORIES)[number]) =>
    Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
    },
    lcpMs: metric('largest-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
  };
}

/** The audits a run lost points on, worst first, as one line each: what to profile next. */
function flagged(lhr: Result): string[] {
  const ids = new Set(
    CATEGORIES.flatMap((id) => lhr.categories[id]?.auditRefs.map((ref) => ref.id) ?? []),
  );
  return Object.values(lhr.audits)
    .filter((audit) => ids.has(audit.id) && audit.score !== null && audit.score < 1)
    .filter((audit) => audit.scoreDisplayMode !== 'informative')
    .sort((a, b) => (a.score ?? 0) - (b.score ?? 0))
    .map((audit) => {
      const where = itemsOf(audit.details).slice(0, 3).join(', ');
      return `${audit.id} (${audit.score}): ${audit.displayValue ?? audit.title}${where ? ` at ${where}` : ''}`;
    });
}

/** What an audit's table names: the URLs or elements it found, so a miss says where to look. */
function itemsOf(details: Result['audits'][string]['details']): string[] {
  if (!details || !('items' in details) || !Array.isArray(details.items)) return [];
  return details.items.flatMap((item: Record<string, unknown>) => {
    const node = item.node as { selector?: string } | undefined;
    // Not every `url` is one: work no script owns is listed as "Unattributable".
    const url =
      typeof item.url === 'string'
        ? URL.canParse(item.url)
          ? new URL(item.url).pathname
          : item.url
        : undefined;
    const label = url ?? node?.selector;
    return label ? [label] : [];
  });
}

export async function lighthouseScenario(ctx: BenchContext): Promise<Figure[]> {
  // Free ports rather than fixed ones: Chromium's DevTools port is easily taken on a shared machine.
  const app = await startTableConsole(await freePort(), 'bench-lighthouse-');
  const debuggingPort = await freePort();
  // Playwright starts the browser as the other browser scenarios do; Lighthouse drives it over
  // the DevTools port, each run in a fresh tab with the cache and storage cleared.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      `--remote-debugging-port=${debuggingPort}`,
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    const cookie = await signIn(app.url, 'admin', 'demo');
    // Warm the server's cache so the figure is the page's work, not the first upstream call.
    await fetch(`${app.url}/api/event-types`, { headers: { cookie, 'x-csrf': '1' } });
    const pages = ctx.smoke ? PAGES.slice(0, 1) : PAGES;
    const runs = ctx.smoke ? 1 : 3;
    const figures: Figure[] = [];
    for (const page of pages) {
      const measured: RunFigures[] = [];
      // Lighthouse times the page on this CPU: on a shared machine the load says how far to trust
      // a performance figure, and a before and after are comparable only at a similar load.
      ctx.log(`  lighthouse ${page.label}: load average ${loadavg()[0]?.toFixed(2)}`);
      for (let run = 1; run <= runs; run += 1) {
        const flags: Flags = {
          port: debuggingPort,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...CATEGORIES],
          // The session cookie on every request of the page, as a signed-in browser sends it.
          ...(page.signedIn ? { extraHeaders: { Cookie: cookie } } : {}),
        };
        const result = await lighthouse(`${app.url}${page.path}`, flags, desktopConfig);
        if (!result) throw new Error(`Lighthouse returned nothing for ${page.path}`);
        if (result.lhr.runtimeError) {
          throw new Error(`Lighthouse failed on ${page.path}: ${result.lhr.runtimeError.message}`);
        }
        measured.push(figuresOf(result.lhr));
        const lost = flagged(result.lhr);
        ctx.log(
          `  lighthouse ${page.label} run ${run}/${runs}: ${CATEGORIES.map((id) => `${id} ${figuresOf(result.lhr).scores[id]}`).join(', ')}`,
        );
        if (run === runs) for (const line of lost) ctx.log(`    ${line}`);
      }
      const s = `Lighthouse, desktop (${page.label})`;
      const n = `median of ${runs}`;
      const of = (pick: (f: RunFigures) => number) => median(measured.map(pick));
      figures.push(
        figure(
          s,
          `performance score (${n})`,
          of((f) => f.scores.performance),
          'points',
          {
            op: '>=',
            value: 95,
          },
        ),
        figure(
          s,
          `accessibility score (${n})`,
          of((f) => f.scores.accessibility),
          'points',
          {
            op: '>=',
            value: 100,
          },
        ),
        figure(
          s,
          `best practices score (${n})`,
          of((f) => f.scores['best-practices']),
          'points',
          { op: '>=', value: 100 },
        ),
        figure(
          s,
          `largest contentful paint (${n})`,
          of((f) => f.lcpMs),
          'ms',
          // The sign-in page is a form of a few lines; the bar is for the pages people work in.
          page.signedIn ? { op: '<=', value: 1000 } : undefined,
        ),
        figure(
          s,
          `total blocking time (${n})`,
          of((f) => f.tbtMs),
          'ms',
        ),
        figure(
          s,
          `cumulative layout shift (${n})`,
          of((f) => f.cls),
          '',
        ),
      );
    }
    return figures;
  } finally {
    await browser.close();
    await app.stop();
  }
}
