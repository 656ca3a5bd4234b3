// The what-if replay at scale: seven days of per-minute traffic from 50 integrations over 40
// operation templates (each integration calling 4 of them, busier by day than by night: about
// 20 million requests in 2 million report rows) in the embedded store, replayed against a custom
// policy tight enough to refuse in every busy hour, beside the policy in force, as the route does
// it. Figures: the time to answer (median of the rounds) and the process's memory while it runs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATION_TEMPLATES } from '../../src/shared/operation-templates';
import type { PolicyChoice } from '../../src/shared/planning';
import { MODULE_RULES } from '../../src/shared/rate-limits';
import { IntegrationStore } from '../../src/server/integrations/integration-store';
import { openDatabase } from '../../src/server/store/database';
import { addToAccountTraffic, type SourcedRow } from '../../src/server/planning/traffic-store';
import { whatIf } from '../../src/server/planning/what-if';
import { planningDeps } from '../../src/server/test-support/planning-deps';
import { median } from '../lib/load';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const MINUTE_MS = 60_000;
const TEMPLATES_PER_INTEGRATION = 4;

/** A custom policy a little below the busy hours' traffic, so every day has breaches. */
const POLICY: PolicyChoice = {
  kind: 'custom',
  accountMinute: 2_600,
  accountHour: 140_000,
  endpointMinute: 150,
  moduleRules: MODULE_RULES.filter((rule) => rule.kind === 'hard').map((rule) => ({
    id: rule.id,
    minute: rule.limits.find((window) => window.period === 'MINUTE')?.limit ?? null,
    hour: rule.limits.find((window) => window.period === 'HOUR')?.limit ?? null,
  })),
};

/** Requests of one report row: about 10, twice that in the afternoon, a third of it at night. */
function requestsAt(minute: number, integration: number, template: number): number {
  const hour = new Date(minute).getUTCHours();
  const curve = hour >= 9 && hour < 18 ? 1.6 : hour >= 1 && hour < 6 ? 0.35 : 0.9;
  const wobble = ((minute / MINUTE_MS + integration * 7 + template * 13) % 11) / 10;
  return Math.max(1, Math.round(10 * curve * (0.5 + wobble)));
}

export async function replayScenario(ctx: BenchContext): Promise<Figure[]> {
  const integrations = ctx.smoke ? 5 : 50;
  const days = ctx.smoke ? 1 : 7;
  // The console recognises 26 operation templates today (a report's other paths count as
  // "(other)"); the rest of the 40 stand for the operations a larger catalog would add.
  const templates = [
    ...OPERATION_TEMPLATES,
    ...Array.from({ length: 40 - OPERATION_TEMPLATES.length }, (_, index) => ({
      method: 'GET' as const,
      template: `/api/bench/v1/resource-${index + 1}`,
    })),
  ].slice(0, 40);
  const dataDir = process.env.BENCH_REPLAY_DIR ?? mkdtempSync(join(tmpdir(), 'bench-replay-'));
  const db = await openDatabase({ dataDir });
  try {
    const registry = new IntegrationStore(db, Date.now);
    const ids: string[] = [];
    for (let index = 0; index < integrations; index += 1) {
      ids.push((await registry.register(`Integration ${index + 1}`, 'bench')).integration.id);
    }
    const now = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
    const first = now - (days * 1_440 - 1) * MINUTE_MS;
    // How a week of reports accumulates is not what is measured (the ingest scenario is): the rows
    // go in directly, the account totals beside them in the same transactions, as a report does.
    const loadStarted = performance.now();
    let requests = 0;
    let rows = 0;
    for (let minute = first; minute <= now; minute += 30 * MINUTE_MS) {
      await db.transaction(async (tx) => {
        const written: SourcedRow[] = [];
        for (
          let m = minute;
          m < Math.min(now + MINUTE_MS, minute + 30 * MINUTE_MS);
          m += MINUTE_MS
        ) {
          for (let integration = 0; integration < integrations; integration += 1) {
            for (let k = 0; k < TEMPLATES_PER_INTEGRATION; k += 1) {
              const t = (integration * TEMPLATES_PER_INTEGRATION + k) % templates.length;
              const template = templates[t]!;
              const count = requestsAt(m, integration, t);
              requests += count;
              rows += 1;
              await tx.query(
                `INSERT INTO integration_minutes (integration_id, minute, method, template, requests, throttled)
                 VALUES ($1, $2, $3, $4, $5, 0)`,
                [
                  ids[integration],
                  new Date(m).toISOString(),
                  template.method,
                  template.template,
                  count,
                ],
              );
              written.push({
                source: ids[integration]!,
                minute: m,
                method: template.method,
                template: template.template,
                requests: count,
                throttled: 0,
              });
            }
          }
        }
        await addToAccountTraffic(tx, written);
      });
    }
    ctx.log(
      `  replay: ${rows.toLocaleString('en-US')} report rows (${requests.toLocaleString('en-US')} requests) of ${integrations} integrations over ${templates.length} templates loaded in ${Math.round((performance.now() - loadStarted) / 1_000)} s`,
    );

    const deps = planningDeps(db, registry, now + 30_000);
    const period = ctx.smoke ? 'day' : 'week';
    const times: number[] = [];
    // The replay runs in this process, as in the console's: what it adds to the process's memory
    // (the highest RSS during a round over the RSS just before it, and the same for the JS heap)
    // is its cost; the process's own size holds the other scenarios' leftovers.
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
      const result = await whatIf(deps, { period, policy: POLICY });
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
    const s = `What-if replay (${days} day${days === 1 ? '' : 's'}, ${integrations} integrations, ${templates.length} templates, ${Math.round(requests / 1e6)} million requests)`;
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
