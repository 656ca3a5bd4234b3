// Scenarios 2 and 3: what a crowd costs the upstream — token requests for 1,000 concurrent cold
// requests (and again after every token was revoked), and upstream calls for 200 identical ones.
import { mockStats, resetMock, startConsole, startMockUpstream } from '../lib/console';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const PORTS = { mock: 8784, console: 8785 };

/**
 * Sends `count` requests at once; returns how many were not answered 200. An overloaded console
 * answers some 503 or 504 and a starved machine drops a connection now and then: that is a figure
 * of the run (a bar of its own), not a harness that failed to run.
 */
async function burst(count: number, url: (i: number) => string, headers: Record<string, string>) {
  const outcomes = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      try {
        const response = await fetch(url(i), { headers });
        await response.arrayBuffer();
        return String(response.status);
      } catch (error) {
        const cause = (error as Error).cause;
        return cause instanceof Error ? cause.message : (error as Error).message;
      }
    }),
  );
  const failed = outcomes.filter((outcome) => outcome !== '200');
  return { failed: failed.length, outcomes: [...new Set(failed)] };
}

export async function upstreamEconomyScenario(ctx: BenchContext): Promise<Figure[]> {
  const figures: Figure[] = [];
  const notAnswered = { count: 0, outcomes: new Set<string>() };
  const tally = ({ failed, outcomes }: Awaited<ReturnType<typeof burst>>) => {
    notAnswered.count += failed;
    for (const outcome of outcomes) notAnswered.outcomes.add(outcome);
  };
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
        tally(
          await burst(
            1_000,
            (i) => `${cold.url}/api/event-types?modules=Bench%20${i}`,
            cold.apiHeaders,
          ),
        );
        const afterCold = await mockStats(mock.url);
        // Revoke every token the console holds: each request now meets a 401 and must renew.
        await resetMock(mock.url);
        tally(
          await burst(
            1_000,
            (i) => `${cold.url}/api/event-types?modules=Again%20${i}`,
            cold.apiHeaders,
          ),
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
        tally(await burst(200, () => `${warm.url}/api/event-types`, warm.apiHeaders));
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
    if (notAnswered.count > 0) {
      ctx.log(`  not answered 200: ${[...notAnswered.outcomes].join(', ')}`);
    }
    figures.push(
      figure(
        'Token stampede',
        'requests of the bursts not answered 200, all rounds',
        notAnswered.count,
        'requests',
        { op: '==', value: 0 },
      ),
    );
    return figures;
  } finally {
    await mock.stop();
  }
}
