// Scenarios 2 and 3: what a crowd costs the upstream — token requests for 1,000 concurrent cold
// requests (and again after every token was revoked), and upstream calls for 200 identical ones.
import { mockStats, resetMock, startConsole, startMockUpstream } from '../lib/console';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const PORTS = { mock: 8784, console: 8785 };

async function burst(count: number, url: (i: number) => string, headers: Record<string, string>) {
  const responses = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const response = await fetch(url(i), { headers });
      await response.arrayBuffer();
      return response.status;
    }),
  );
  const failed = responses.filter((status) => status !== 200).length;
  if (failed)
    throw new Error(
      `${failed} of ${count} requests failed (statuses ${[...new Set(responses)].join(',')})`,
    );
}

export async function upstreamEconomyScenario(ctx: BenchContext): Promise<Figure[]> {
  const figures: Figure[] = [];
  const mock = await startMockUpstream(PORTS.mock, { MOCK_RATE_LIMITS: 'off' });
  try {
    for (let round = 1; round <= ctx.rounds; round += 1) {
      await resetMock(mock.url);
      // A fresh console process: no token yet. Distinct filters so the cache cannot hide the
      // token manager: 1,000 different upstream calls, which the console sends four at a time
      // (event-types-source.ts, LOADS) with the rest queued; the first ones all need a token at
      // once. (token-manager.test.ts holds 1,000 callers at once to one token request as well.)
      const cold = await startConsole(PORTS.console, mock.url, { EVENT_TYPES_CACHE_SECONDS: '0' });
      try {
        await burst(
          1_000,
          (i) => `${cold.url}/api/event-types?modules=Bench%20${i}`,
          cold.apiHeaders,
        );
        const afterCold = await mockStats(mock.url);
        // Revoke every token the console holds: each request now meets a 401 and must renew.
        await resetMock(mock.url);
        await burst(
          1_000,
          (i) => `${cold.url}/api/event-types?modules=Again%20${i}`,
          cold.apiHeaders,
        );
        const afterExpiry = await mockStats(mock.url);
        if (round === ctx.rounds) {
          figures.push(
            figure(
              'Token stampede',
              '1,000 concurrent cold requests: token requests',
              afterCold.tokenRequests,
              'requests',
              { op: '==', value: 1 },
            ),
          );
          figures.push(
            figure(
              'Token stampede',
              'after forced expiry: token requests',
              afterExpiry.tokenRequests,
              'requests',
              { op: '==', value: 1 },
            ),
          );
        }
      } finally {
        await cold.stop();
      }

      await resetMock(mock.url);
      const warm = await startConsole(PORTS.console, mock.url);
      try {
        await burst(200, () => `${warm.url}/api/event-types`, warm.apiHeaders);
        const stats = await mockStats(mock.url);
        if (round === ctx.rounds) {
          figures.push(
            figure(
              'Coalescing',
              '200 concurrent identical requests: upstream calls',
              stats.requests['event-types'] ?? 0,
              'calls',
              { op: '==', value: 1 },
              'one cache period',
            ),
          );
        }
      } finally {
        await warm.stop();
      }
      ctx.log(`  upstream economy round ${round}/${ctx.rounds} done`);
    }
    return figures;
  } finally {
    await mock.stop();
  }
}
