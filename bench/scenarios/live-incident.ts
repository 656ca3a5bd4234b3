// Scenario 6, live incident latency: an upstream 429 provoked at t0, and the moment its row is in
// the DOM of an open rate-limits page in Chromium; p95 over 30 incidents.
import { chromium } from '@playwright/test';
import { consolePagePath, startConsole, startMockUpstream } from '../lib/console';
import { median, percentile } from '../lib/load';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const PORTS = { mock: 8774, console: 8775 };

export async function liveIncidentScenario(ctx: BenchContext): Promise<Figure[]> {
  const mock = await startMockUpstream(PORTS.mock, { MOCK_RATE_LIMITS: 'off' });
  const app = await startConsole(PORTS.console, mock.url);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies(
      (app.apiHeaders.cookie ?? '').split('; ').map((pair) => {
        const [name, ...value] = pair.split('=');
        return { name: name ?? '', value: value.join('='), url: app.url };
      }),
    );
    await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
    const page = await context.newPage();
    await page.goto(`${app.url}${consolePagePath('rate-limits')}`);
    await page
      .getByText(/^Live$/)
      .first()
      .waitFor({ timeout: 15_000 });

    const latencies: number[] = [];
    const count = ctx.smoke ? 3 : 30;
    for (let i = 0; i < count; i += 1) {
      // A 429 with a new event id and the shortest block the console honours (1 s).
      await fetch(`${mock.url}/__mock/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'event-types', status: 429, retryAfterSeconds: 1 }),
      });
      const t0 = Date.now();
      const response = await fetch(`${app.url}/api/event-types?modules=probe-${i}`, {
        headers: app.apiHeaders,
      });
      const { incidentId } = (await response.json()) as { incidentId?: string };
      if (response.status !== 429 || !incidentId)
        throw new Error(`probe ${i} answered ${response.status}`);
      const seenAt = await page.evaluate(
        (id) =>
          new Promise<number>((resolve) => {
            const found = () => document.querySelector(`tr[data-key="${id}"]`);
            if (found()) return resolve(Date.now());
            const observer = new MutationObserver(() => {
              if (found()) {
                observer.disconnect();
                resolve(Date.now());
              }
            });
            observer.observe(document.body, { childList: true, subtree: true });
          }),
        incidentId,
      );
      latencies.push(seenAt - t0);
      // Let the 1 s block pass before the next probe.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
    }
    ctx.log(`  live incident: median ${median(latencies)} ms over ${count}`);
    return [
      figure(
        'Live incident',
        `upstream 429 → row visible, p50 (${count} incidents)`,
        percentile(latencies, 50),
        'ms',
      ),
      figure(
        'Live incident',
        `upstream 429 → row visible, p95 (${count} incidents)`,
        percentile(latencies, 95),
        'ms',
        {
          op: '<=',
          value: 250,
        },
      ),
    ];
  } finally {
    await browser.close();
    await app.stop();
    await mock.stop();
  }
}
