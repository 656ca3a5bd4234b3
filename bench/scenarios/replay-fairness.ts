// Replays that share fairly: the built console over a week of recorded traffic (the replay
// scenario's, lib/recorded-traffic.ts, in its DATA_DIR), asked for 8 week-long replays at once,
// each against a different policy, as 8 users pressing Replay together. A refused one (429) asks
// again after its Retry-After, as a person would, until all 8 have answered; meanwhile /healthz is
// probed one request at a time. Bar: /healthz p95 <= 50 ms while the replays are requested.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/server/store/database';
import { startConsole, startMockUpstream } from '../lib/console';
import { percentile } from '../lib/load';
import { REPLAYED_POLICY, writeRecordedTraffic } from '../lib/recorded-traffic';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const PORTS = { mock: 8880, console: 8881 };
const REPLAYS = 8;

export async function replayFairnessScenario(ctx: BenchContext): Promise<Figure[]> {
  const integrations = ctx.smoke ? 5 : 50;
  const days = ctx.smoke ? 1 : 7;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-replay-fairness-'));
  const db = await openDatabase({ dataDir });
  const { requests } = await writeRecordedTraffic(db, integrations, days).finally(() => db.close());
  ctx.log(`  replay-fairness: ${requests.toLocaleString('en-US')} requests recorded`);

  const mock = await startMockUpstream(PORTS.mock);
  const processes = [mock];
  try {
    const bff = await startConsole(PORTS.console, mock.url, { DATA_DIR: dataDir });
    processes.push(bff);
    const period = ctx.smoke ? 'day' : 'week';
    let refusals = 0;
    const replay = async (index: number): Promise<number> => {
      const started = performance.now();
      // Each asks for another policy, so none joins another's replay.
      const body = JSON.stringify({
        period,
        policy: { ...REPLAYED_POLICY, accountMinute: REPLAYED_POLICY.accountMinute! - index },
      });
      for (;;) {
        const response = await fetch(`${bff.url}/api/planning/what-if`, {
          method: 'POST',
          headers: { ...bff.apiHeaders, 'content-type': 'application/json' },
          body,
        });
        await response.arrayBuffer();
        if (response.status === 200) return performance.now() - started;
        if (response.status !== 429) throw new Error(`a replay answered ${response.status}`);
        refusals += 1;
        const wait = Number(response.headers.get('retry-after') ?? 1);
        await new Promise((resolve) => setTimeout(resolve, wait * 1_000));
      }
    };

    const started = performance.now();
    const health: number[] = [];
    /** Probes over 100 ms: when (ms since the replays were asked for) and how long. */
    const slow: string[] = [];
    let replaying = true;
    const probe = (async () => {
      while (replaying) {
        const t0 = performance.now();
        const response = await fetch(`${bff.url}/healthz`);
        await response.arrayBuffer();
        const took = performance.now() - t0;
        health.push(took);
        if (took > 100) slow.push(`${Math.round(took)} ms at +${Math.round(t0 - started)} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const answered = await Promise.all(Array.from({ length: REPLAYS }, (_, i) => replay(i)));
    const allAnswered = performance.now() - started;
    replaying = false;
    await probe;
    ctx.log(
      `  replay-fairness: ${REPLAYS} replays answered in ${Math.round(allAnswered)} ms (${refusals} refusals asked again); ${health.length} /healthz probes${slow.length ? `, over 100 ms: ${slow.join(', ')}` : ''}`,
    );

    const s = `Replays sharing the console (${REPLAYS} ${period}-long replays requested at once)`;
    return [
      figure(s, '/healthz p95 while they run', percentile(health, 95), 'ms', {
        op: '<=',
        value: 50,
      }),
      figure(s, '/healthz p50 while they run', percentile(health, 50), 'ms'),
      figure(s, '/healthz slowest while they run', Math.max(...health), 'ms'),
      figure(s, 'time until the last replay answered', allAnswered, 'ms'),
      figure(s, 'fastest replay, from first request to answer', Math.min(...answered), 'ms'),
      figure(s, '429 refusals, asked again after Retry-After', refusals, 'count'),
    ];
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
  }
}
