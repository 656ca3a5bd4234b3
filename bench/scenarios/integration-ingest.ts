// Scenario 9, integration ingest: how many integration reports one console replica accepts a
// second while a browser's GET /api/rate-limits/usage keeps a p95 under 50 ms. Twenty integrations
// (registered through the admin API) each send reports of five minute entries, 16 at a time, for
// a fixed time; the usage endpoint is polled every 50 ms meanwhile. Bounded: stops by itself.
import { startConsole, startMockUpstream } from '../lib/console';
import { percentile } from '../lib/load';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const PORTS = { mock: 8778, console: 8779 };
const INTEGRATIONS = 20;

export async function integrationIngestScenario(ctx: BenchContext): Promise<Figure[]> {
  const mock = await startMockUpstream(PORTS.mock, { MOCK_RATE_LIMITS: 'off' });
  // The per-key limit is raised so the figure is the replica's, not one key's.
  const app = await startConsole(PORTS.console, mock.url, {
    INTEGRATION_INGEST_PER_MINUTE: '10000',
  });
  try {
    const keys: string[] = [];
    for (let index = 0; index < INTEGRATIONS; index += 1) {
      const response = await fetch(`${app.url}/api/integrations`, {
        method: 'POST',
        headers: { ...app.apiHeaders, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Bench integration ${index}` }),
      });
      keys.push(((await response.json()) as { key: string }).key);
    }
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
    const body = JSON.stringify({
      minutes: [
        '/rest/api/consent/v4/datasubjects/profiles',
        '/rest/api/consent/v4/datasubjects/details',
        '/api/consentmanager/v2/datasubjects',
        '/rest/api/preferences/v3/datasubjects/profile',
        '/api/audit/v4/audits/event-types',
      ].map((path) => ({ minute, method: 'GET', path, requests: 10 })),
    });
    // Paced steps: the highest rate at which the usage p95 stays under the bar is the figure.
    const rates = ctx.smoke ? [20] : [20, 50, 100, 200, 400];
    const stepMs = ctx.smoke ? 2_000 : 6_000;
    let best = 0;
    let bestP95 = 0;
    let next = 0;
    for (const rate of rates) {
      const started = performance.now();
      const deadline = started + stepMs;
      let accepted = 0;
      const inFlight: Promise<void>[] = [];
      const latencies: number[] = [];
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
      for (let sent = 0; performance.now() < deadline; sent += 1) {
        const due = started + (sent * 1_000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const key = keys[next++ % keys.length];
        inFlight.push(
          fetch(`${app.url}/api/integrations/reports`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body,
          }).then(async (response) => {
            await response.arrayBuffer();
            if (response.status === 202) accepted += 1;
          }),
        );
      }
      await Promise.all([...inFlight, poller]);
      const perSecond = Math.round(accepted / ((performance.now() - started) / 1_000));
      const p95 = Math.round(percentile(latencies, 95) * 10) / 10;
      ctx.log(`  ingest at ${rate}/s: ${perSecond} reports/s accepted, usage p95 ${p95} ms`);
      if (p95 > 50) break;
      best = perSecond;
      bestP95 = p95;
    }
    const s = `Integration ingest (${INTEGRATIONS} keys, 5 entries a report, paced steps)`;
    return [
      figure(
        s,
        'reports a second one replica accepts with the usage p95 under 50 ms',
        best,
        'reports/s',
        {
          op: '>=',
          value: 20,
        },
      ),
      figure(s, 'p95 of GET /api/rate-limits/usage at that rate', bestP95, 'ms', {
        op: '<=',
        value: 50,
      }),
    ];
  } finally {
    await app.stop();
    await mock.stop();
  }
}
