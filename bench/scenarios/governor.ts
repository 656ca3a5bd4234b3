// Scenario 4, governor precision: 3,000 requests at one 1,000-per-minute rule, through the whole
// console against the mock enforcing the same rule, on one injected clock (no real minutes pass).
// Reported: the most requests the upstream received in any 60 s, and the 429s the console drew.
import type { RateLimitRule } from '../../src/shared/rate-limits';
import { startBffHarness } from '../../src/server/test-support/bff-harness';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const RULE: RateLimitRule = {
  id: 'bench-1k-per-minute',
  name: '1k per minute',
  area: 'Benchmark',
  scope: 'module',
  method: 'GET',
  path: '/api/audit/v4/audits/event-types',
  kind: 'hard',
  limits: [{ period: 'MINUTE', limit: 1_000, blockSeconds: 60, blockDocumented: true }],
  blocks: 'rule',
  violation: '429 with rate-limit id and blocked duration',
};

/** The most arrivals in any span shorter than `spanMs`. */
function busiestSpan(times: readonly number[], spanMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= spanMs) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

async function run(count: number, schedule: (i: number) => number) {
  const clock = { now: T0 };
  const h = await startBffHarness({
    env: { EVENT_TYPES_CACHE_SECONDS: '0' },
    mock: { now: () => clock.now, eventTypeCount: 5 },
    mockRateLimits: true,
    moduleRules: [RULE],
    now: () => clock.now,
  });
  try {
    const reached: number[] = [];
    for (let i = 0; i < count; i += 1) {
      clock.now = schedule(i);
      const before = h.sent.length;
      await (await h.request('/api/event-types')).arrayBuffer();
      for (const request of h.sent.slice(before)) {
        if (request.url.pathname.endsWith('/event-types')) reached.push(clock.now);
      }
    }
    return {
      busiest: busiestSpan(reached, 60_000),
      refused: h.mockRateLimits?.snapshot().refused ?? Number.NaN,
    };
  } finally {
    await h.close();
  }
}

export async function governorScenario(ctx: BenchContext): Promise<Figure[]> {
  const count = ctx.smoke ? 300 : 3_000;
  // 25 a second from mid-minute, crossing the upstream's fixed windows; then bunched half just
  // before and half just after a window turns, where a fixed window would let 2,000 through.
  const spread = await run(count, (i) => T0 + 30_000 + i * 40);
  const bunched = await run(count, (i) => (i < count / 2 ? T0 + 59_900 : T0 + 60_050));
  ctx.log(`  governor: busiest 60 s ${spread.busiest} (spread), ${bunched.busiest} (bunched)`);
  const s = `Governor precision (${count.toLocaleString('en-US')} requests, 1,000/min rule)`;
  return [
    figure(
      s,
      'most requests upstream in any 60 s, spread over 2 minutes',
      spread.busiest,
      'requests',
      { op: '<=', value: 1_000 },
    ),
    figure(
      s,
      'most requests upstream in any 60 s, bunched at a window edge',
      bunched.busiest,
      'requests',
      { op: '<=', value: 1_000 },
    ),
    figure(s, 'upstream 429s drawn by the console', spread.refused + bunched.refused, '429s', {
      op: '==',
      value: 0,
    }),
  ];
}
