// Large answers at once: 16 event-types answers of the largest size the console accepts by
// default (UPSTREAM_MAX_ANSWER_BYTES, 16 MiB; small objects) are fetched in parallel, each with
// other filters so none is shared, in two rounds (the same 16 in each: the first round's lists are
// kept as last good answers, within the console's bound on kept bytes, while the second arrives),
// while /healthz is probed every 20 ms. Bars: the probes' p95 at most 100 ms and none over 1 s
// (the image's health check gives up at 3 s), and every list answered in both rounds: before the
// lists were kept as bytes and bounded in bytes, the second round ran the console out of memory
// at `npm start`'s heap size. The console's peak memory meanwhile is reported: before distinct
// lists were fetched a few at a time (event-types-source.ts, LOADS), it grew with every list asked
// for at once.
import { startConsole, type RunningConsole } from '../lib/console';
import { percentile } from '../lib/load';
import { figure, type Figure } from '../lib/report';
import { eventTypesOfSize, startStubUpstream } from '../lib/stub-upstream';
import type { BenchContext } from './context';

const PORT = 8781;
const LARGEST_ACCEPTED = 16 * 1024 * 1024;
const PARALLEL = 16;
const ROUNDS = 2;

/** The console the scenario measures, against a stub answering 16 MiB; `nodeFlags` to profile it. */
export async function startLargeAnswersConsole(nodeFlags: string[] = []) {
  const stub = await startStubUpstream(eventTypesOfSize(LARGEST_ACCEPTED - 1_024));
  const app = await startConsole(
    PORT,
    stub.url,
    { EVENT_TYPES_CACHE_SECONDS: '0', UPSTREAM_TIMEOUT_MS: '30000' },
    nodeFlags,
  );
  return {
    app,
    async stop() {
      await app.stop();
      await stub.close();
    },
  };
}

/**
 * One round: the 16 lists fetched at once while /healthz is probed every 20 ms. The probes' times
 * (a probe that failed counts with its full wait), the lists' statuses (0: no answer) and the
 * console's largest resident memory seen at the probes.
 */
export async function largeAnswersRound(
  app: RunningConsole,
  log: (line: string) => void,
): Promise<{ probes: number[]; statuses: number[]; peakRssMb: number }> {
  const probes: number[] = [];
  let peakRssMb = app.rssMb();
  let done = false;
  const prober = (async () => {
    while (!done) {
      const at = performance.now();
      try {
        await (
          await fetch(`${app.url}/healthz`, { signal: AbortSignal.timeout(10_000) })
        ).arrayBuffer();
      } catch {
        // A probe that timed out counts with its full wait.
      }
      probes.push(performance.now() - at);
      peakRssMb = Math.max(peakRssMb, app.rssMb());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const statuses = await Promise.all(
    Array.from({ length: PARALLEL }, async (_, index) => {
      try {
        const response = await fetch(`${app.url}/api/event-types?modules=Module${index}`, {
          headers: app.apiHeaders,
        });
        await response.arrayBuffer();
        return response.status;
      } catch (error) {
        log(`  a list failed: ${String((error as Error).cause ?? error)}`);
        return 0;
      }
    }),
  );
  done = true;
  await prober;
  return { probes, statuses, peakRssMb };
}

export async function largeAnswersScenario(ctx: BenchContext): Promise<Figure[]> {
  const { app, stop } = await startLargeAnswersConsole();
  try {
    const probes: number[] = [];
    const statuses: number[] = [];
    let peakRssMb = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const result = await largeAnswersRound(app, ctx.log);
      probes.push(...result.probes);
      statuses.push(...result.statuses);
      peakRssMb = Math.max(peakRssMb, result.peakRssMb);
    }
    if (app.child.exitCode !== null) ctx.log(`  the console exited with ${app.child.exitCode}`);
    const p95 = Math.round(percentile(probes, 95) * 10) / 10;
    const over1s = probes.filter((ms) => ms > 1_000).length;
    const ok = statuses.filter((status) => status === 200).length;
    ctx.log(
      `  /healthz p95 ${p95} ms, max ${Math.round(Math.max(...probes))} ms, ${over1s} of ${probes.length} over 1 s; ${ok} of ${statuses.length} lists answered 200; peak RSS ${Math.round(peakRssMb)} MB`,
    );
    const s = `Large answers (${PARALLEL} event-types answers of 16 MiB at once)`;
    return [
      figure(s, 'p95 of GET /healthz meanwhile', p95, 'ms', { op: '<=', value: 100 }),
      figure(s, 'probes of /healthz over 1 s', over1s, 'probes', { op: '<=', value: 0 }),
      figure(s, `lists answered 200 (${ROUNDS} rounds)`, ok, `of ${statuses.length}`, {
        op: '>=',
        value: PARALLEL * ROUNDS,
      }),
      figure(s, 'the console’s peak resident memory meanwhile', peakRssMb, 'MB'),
    ];
  } finally {
    await stop();
  }
}
