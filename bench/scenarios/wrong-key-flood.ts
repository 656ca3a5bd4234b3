// A flood of wrong reporting keys: 400 reports a second, each with its own well-formed but unknown
// key, for a fixed time, while a browser's GET /api/rate-limits/usage is polled every 50 ms. Bar:
// the usage p95 at most 50 ms (a wrong key must cost the console next to nothing).
import { randomBytes } from 'node:crypto';
import { startConsole, startMockUpstream } from '../lib/console';
import { percentile } from '../lib/load';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const PORTS = { mock: 8782, console: 8783 };
const RATE = 400;

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
    const body = JSON.stringify({ minutes: [] });
    const durationMs = ctx.smoke ? 2_000 : 10_000;
    const started = performance.now();
    const deadline = started + durationMs;
    const latencies: number[] = [];
    const refused: number[] = [];
    const poller = (async () => {
      while (performance.now() < deadline) {
        const at = performance.now();
        const response = await fetch(`${app.url}/api/rate-limits/usage`, {
          headers: app.apiHeaders,
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - at);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const inFlight: Promise<void>[] = [];
    for (let sent = 0; performance.now() < deadline; sent += 1) {
      const wait = started + (sent * 1_000) / RATE - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const key = `pacr_${randomBytes(32).toString('base64url')}`;
      inFlight.push(
        fetch(`${app.url}/api/integrations/reports`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body,
        }).then(
          async (response) => {
            await response.arrayBuffer();
            refused.push(response.status);
          },
          // A connection the console closed on a refused report: refused too.
          () => void refused.push(0),
        ),
      );
    }
    await Promise.all([...inFlight, poller]);
    const perSecond = Math.round(refused.length / (durationMs / 1_000));
    const p95 = Math.round(percentile(latencies, 95) * 10) / 10;
    const p50 = Math.round(percentile(latencies, 50) * 10) / 10;
    ctx.log(
      `  ${perSecond} wrong-key reports/s (${refused.filter((s) => s === 401).length} answered 401, ${refused.filter((s) => s === 0).length} connections closed); usage p50 ${p50} ms, p95 ${p95} ms`,
    );
    const s = `Wrong-key flood (${RATE} reports a second with unknown keys)`;
    return [
      figure(s, 'p95 of GET /api/rate-limits/usage meanwhile', p95, 'ms', { op: '<=', value: 50 }),
      figure(s, 'p50 of GET /api/rate-limits/usage meanwhile', p50, 'ms'),
      figure(s, 'wrong-key reports sent', perSecond, 'a second'),
    ];
  } finally {
    await app.stop();
    await mock.stop();
  }
}
