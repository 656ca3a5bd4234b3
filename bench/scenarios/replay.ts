// The what-if replay at scale: seven days of per-minute traffic from 50 integrations over 40
// operation templates (about 20 million requests in 2 million report rows, lib/recorded-traffic.ts)
// in the embedded store, replayed against a custom policy tight enough to refuse in every busy
// hour, beside the policy in force, as the route does it. Figures: the time to answer (median of
// the rounds) and the process's memory while it runs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/server/store/database';
import { whatIf } from '../../src/server/planning/what-if';
import { planningDeps } from '../../src/server/test-support/planning-deps';
import { median } from '../lib/load';
import { REPLAYED_POLICY, TEMPLATE_COUNT, writeRecordedTraffic } from '../lib/recorded-traffic';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

export async function replayScenario(ctx: BenchContext): Promise<Figure[]> {
  const integrations = ctx.smoke ? 5 : 50;
  const days = ctx.smoke ? 1 : 7;
  const dataDir = process.env.BENCH_REPLAY_DIR ?? mkdtempSync(join(tmpdir(), 'bench-replay-'));
  const db = await openDatabase({ dataDir });
  try {
    const loadStarted = performance.now();
    const { registry, now, requests, rows } = await writeRecordedTraffic(db, integrations, days);
    ctx.log(
      `  replay: ${rows.toLocaleString('en-US')} report rows (${requests.toLocaleString('en-US')} requests) of ${integrations} integrations over ${TEMPLATE_COUNT} templates loaded in ${Math.round((performance.now() - loadStarted) / 1_000)} s`,
    );

    const deps = planningDeps(db, registry, now + 30_000);
    const period = ctx.smoke ? 'day' : 'week';
    const times: number[] = [];
    // The replay runs in this process (the console runs it in a worker thread, which adds that
    // thread's own small heap; replay-fairness measures the console): what it adds to the
    // process's memory (the highest RSS during a round over the RSS just before it, and the same
    // for the JS heap) is its cost; the process's own size holds the other scenarios' leftovers.
    let addedRss = 0;
    let addedHeap = 0;
    let summary = '';
    for (let round = 0; round < ctx.rounds + 1; round += 1) {
      const before = process.memoryUsage();
      let peakRss = before.rss;
      let peakHeap = before.heapUsed;
      const sample = () => {
        const now = process.memoryUsage();
        peakRss = Math.max(peakRss, now.rss);
        peakHeap = Math.max(peakHeap, now.heapUsed);
      };
      const sampler = setInterval(sample, 10);
      const started = performance.now();
      const result = await whatIf(deps, { period, policy: REPLAYED_POLICY });
      const elapsed = performance.now() - started;
      clearInterval(sampler);
      sample();
      addedRss = Math.max(addedRss, peakRss - before.rss);
      addedHeap = Math.max(addedHeap, peakHeap - before.heapUsed);
      // The first round warms the statement cache and the JIT, as a console's first replay would.
      if (round > 0) times.push(elapsed);
      summary = `${result.requests.toLocaleString('en-US')} requests replayed; chosen policy: ${result.chosen.refused.toLocaleString('en-US')} refused in ${result.chosen.minutesOver.toLocaleString('en-US')} minutes, ${result.chosen.breachesTotal.toLocaleString('en-US')} breaches, ${result.chosen.bySource.length} sources drew them`;
    }
    ctx.log(`  replay: ${summary}; rounds ${times.map((t) => Math.round(t)).join(', ')} ms`);
    const s = `What-if replay (${days} day${days === 1 ? '' : 's'}, ${integrations} integrations, ${TEMPLATE_COUNT} templates, ${Math.round(requests / 1e6)} million requests)`;
    return [
      figure(s, 'time to answer, embedded store (median)', median(times), 'ms', {
        op: '<=',
        value: 1_000,
      }),
      figure(
        s,
        'memory a replay adds: peak RSS over the RSS before it',
        addedRss / 1_048_576,
        'MB',
      ),
      figure(
        s,
        'memory a replay adds: peak JS heap over the heap before it',
        addedHeap / 1_048_576,
        'MB',
      ),
    ];
  } finally {
    await db.close();
  }
}
