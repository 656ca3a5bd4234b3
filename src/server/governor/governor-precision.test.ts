// The governor's bar (PRODUCT.md §9): 3,000 requests at one 1,000-per-minute rule, and at most
// 1,000 reach the upstream in any 60 s window, none of them drawing a 429. Run through the whole
// BFF against the mock upstream enforcing the same rule, on one injected clock.
import { describe, expect, it } from 'vitest';
import type { RateLimitRule } from '../../shared/rate-limits';
import { startBffHarness } from '../test-support/bff-harness';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);

/** A hard 1,000-per-minute rule on the one operation the BFF has today. */
const RULE: RateLimitRule = {
  id: 'precision-test',
  name: '1k per minute',
  area: 'Test',
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

async function run(schedule: (i: number) => number) {
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
    const statuses = new Map<string, number>();
    for (let i = 0; i < 3_000; i += 1) {
      clock.now = schedule(i);
      const before = h.sent.length;
      const response = await h.request('/api/event-types');
      const body = response.status === 200 ? {} : await response.json();
      const outcome =
        response.status === 200
          ? '200'
          : `${response.status} ${body.limitedBy ?? body.upstreamStatus}`;
      statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
      for (const request of h.sent.slice(before)) {
        if (request.url.pathname.endsWith('/event-types')) reached.push(clock.now);
      }
    }
    return { reached, statuses, mock: h.mockRateLimits!.snapshot() };
  } finally {
    await h.close();
  }
}

describe('governor precision', () => {
  it('3,000 requests spread over two minutes: at most 1,000 in any 60 s, no upstream 429', async () => {
    // 25 requests a second, starting mid-minute so the mock's fixed windows are crossed.
    const { reached, statuses, mock } = await run((i) => T0 + 30_000 + i * 40);
    expect(busiestSpan(reached, 60_000)).toBeLessThanOrEqual(1_000);
    expect(mock.refused).toBe(0);
    expect([...statuses.keys()].sort()).toEqual(['200', '429 console']);
    // Not timid either: about 1,000 per 61 s get through.
    expect(reached.length).toBeGreaterThanOrEqual(1_900);
  }, 60_000);

  it('3,000 requests bunched around a minute boundary: still at most 1,000 in any 60 s', async () => {
    // 1,500 just before the upstream's window turns and 1,500 just after: a fixed window would
    // let 2,000 through.
    const { reached, mock } = await run((i) => (i < 1_500 ? T0 + 59_900 : T0 + 60_050));
    expect(reached).toHaveLength(1_000);
    expect(busiestSpan(reached, 60_000)).toBeLessThanOrEqual(1_000);
    expect(mock.refused).toBe(0);
  }, 60_000);
});
