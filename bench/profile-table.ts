// `npx tsx bench/profile-table.ts [search|facet]`: records a CPU profile of the table scenario's
// interactions in Chromium (CDP Profiler) on the built console and prints where the time goes, by
// self time per function and source file. Used to find the causes behind the table's figures.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consolePagePath, signIn } from './lib/console';
import { largest, profileTotals, type CpuProfile } from './lib/cpu-profile';
import { median } from './lib/load';
import {
  launchTableBrowser,
  measureInteractions,
  startTableConsole,
} from './scenarios/table-browser';

const kind = process.argv[2] === 'facet' ? 'facet' : 'search';
const PORT = 8781;
const app = await startTableConsole(PORT, 'profile-table-');
const browser = await launchTableBrowser();
try {
  const cookie = await signIn(app.url, 'admin', 'demo');
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const [name, ...value] = pair.split('=');
      return { name: name ?? '', value: value.join('='), url: app.url };
    }),
  );
  await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  const page = await context.newPage();
  await page.goto(`${app.url}${consolePagePath('event-types')}`);
  await page.getByRole('table', { name: 'Event types' }).locator('tbody td').first().waitFor();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await browser.startTracing(page, { categories: ['devtools.timeline'] });
  const durations = await measureInteractions(page, kind, 30);
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
    traceEvents: Array<{ name: string; ph: string; dur?: number }>;
  };
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
  // The browser's own work per phase (style, layout, paint, script), from the performance trace.
  const phases = new Map<string, number>();
  for (const event of trace.traceEvents) {
    if (event.ph === 'X' && event.dur) {
      phases.set(event.name, (phases.get(event.name) ?? 0) + event.dur / 1000);
    }
  }
  const out = join(tmpdir(), `table-${kind}.cpuprofile`);
  writeFileSync(out, JSON.stringify(profile));

  const { total, self, byFile } = profileTotals(profile);
  console.log(
    `${kind}: ${durations.length} interactions, p50 ${median(durations).toFixed(1)} ms, busy ${total.toFixed(0)} ms in the profile → ${out}`,
  );
  for (const [name, ms] of largest(phases, 15))
    console.log(`  phase ${ms.toFixed(1).padStart(7)} ms  ${name}`);
  for (const [name, ms] of largest(byFile, 15))
    console.log(`  file ${ms.toFixed(1).padStart(8)} ms  ${name}`);
  for (const [name, ms] of largest(self, 15))
    console.log(`  self ${ms.toFixed(1).padStart(8)} ms  ${name}`);
} finally {
  await browser.close();
  await app.stop();
}
