// A flood of wrong reporting keys from one address: 20 connections in parallel, each sending a
// full-size report with its own well-formed but unknown key as soon as the previous one is
// answered, while a browser's GET /api/rate-limits/usage is polled every 50 ms. The same poll is
// measured first without the flood. Bars: the usage p95 under the flood at most 50 ms, and at
// most 3 times its quiet figure of the same run (a wrong key must cost the console next to
// nothing, however fast it is sent).
import { randomBytes } from 'node:crypto';
import { startConsole, startMockUpstream, type RunningConsole } from '../lib/console';
import { percentile } from '../lib/load';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const PORTS = { mock: 8782, console: 8783 };
/** Connections flooding at once, each sending its next report when the last is answered. */
const CONNECTIONS = 20;

/** A realistic report body: 300 minute entries (about 40 KB), what a busy reporter sends. */
function reportBody(): string {
  const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
  return JSON.stringify({
    minutes: Array.from({ length: 300 }, (_, index) => ({
      minute,
      method: 'GET',
      path: '/rest/api/consent/v4/datasubjects/profiles',
      requests: 1_000 + index,
      throttled: 0,
    })),
  });
}

/** Polls the usage route every 50 ms until `until`; resolves to the latencies (ms). */
async function pollUsage(app: RunningConsole, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!until()) {
    const at = performance.now();
    const response = await fetch(`${app.url}/api/rate-limits/usage`, { headers: app.apiHeaders });
    await response.arrayBuffer();
    latencies.push(performance.now() - at);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return latencies;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

export async function wrongKeyFloodScenario(ctx: BenchContext): Promise<Figure[]> {
  const mock = await startMockUpstream(PORTS.mock, { MOCK_RATE_LIMITS: 'off' });
  const app = await startConsole(PORTS.console, mock.url);
  try {
    // One real integration, so there are keys to compare against.
    await fetch(`${app.url}/api/integrations`, {
      method: 'POST',
      headers: { ...app.apiHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench integration' }),
    });
    const durationMs = ctx.smoke ? 2_000 : 10_000;

    let quietUntil = performance.now() + durationMs / 2;
    const quiet = await pollUsage(app, () => performance.now() >= quietUntil);
    quietUntil = 0;

    const body = reportBody();
    const deadline = performance.now() + durationMs;
    const over = () => performance.now() >= deadline;
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const connection = async () => {
      while (!over()) {
        const key = `pacr_${randomBytes(32).toString('base64url')}`;
        try {
          const response = await fetch(`${app.url}/api/integrations/reports`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body,
          });
          await response.arrayBuffer();
          count(response.status);
        } catch {
          // A connection the console closed on a refused report: refused too.
          count(0);
        }
      }
    };
    const [flooded] = await Promise.all([
      pollUsage(app, over),
      ...Array.from({ length: CONNECTIONS }, connection),
    ]);

    const sent = [...statuses.values()].reduce((sum, n) => sum + n, 0);
    const perSecond = Math.round(sent / (durationMs / 1_000));
    const quietP95 = round1(percentile(quiet, 95));
    const p95 = round1(percentile(flooded, 95));
    const p50 = round1(percentile(flooded, 50));
    const ratio = Math.round((p95 / Math.max(quietP95, 0.1)) * 100) / 100;
    const answered = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${n} ${status === 0 ? 'closed' : `answered ${status}`}`)
      .join(', ');
    ctx.log(
      `  quiet usage p95 ${quietP95} ms; ${perSecond} wrong-key reports/s over ${CONNECTIONS} connections (${answered}); usage p50 ${p50} ms, p95 ${p95} ms (${ratio} x quiet)`,
    );
    const s = `Wrong-key flood (${CONNECTIONS} connections in parallel, unknown keys)`;
    return [
      figure(s, 'p95 of GET /api/rate-limits/usage, quiet', quietP95, 'ms'),
      figure(s, 'p95 of GET /api/rate-limits/usage meanwhile', p95, 'ms', { op: '<=', value: 50 }),
      figure(s, 'p95 meanwhile over the quiet p95', ratio, 'times', { op: '<=', value: 3 }),
      figure(s, 'p50 of GET /api/rate-limits/usage meanwhile', p50, 'ms'),
      figure(s, 'wrong-key reports sent', perSecond, 'a second'),
    ];
  } finally {
    await app.stop();
    await mock.stop();
  }
}
