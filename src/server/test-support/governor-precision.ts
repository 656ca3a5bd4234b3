// The governor's precision bar (docs/product.md §9) as a reusable run: many requests at one hard
// 1,000-per-minute rule, through the whole BFF against the mock enforcing the same rule, on one
// injected clock. Used by the precision test and by `npm run bench`.
import { EVENT_TYPES_OPERATION } from '../../shared/event-types';
import type { RateLimitRule } from '../../shared/rate-limits';
import { startBffHarness } from './bff-harness';

/** A hard 1,000-per-minute rule on the event-types operation. */
const PRECISION_RULE: RateLimitRule = {
  id: 'precision-test',
  name: '1k per minute',
  area: 'Test',
  scope: 'module',
  method: 'GET',
  path: EVENT_TYPES_OPERATION.path,
  kind: 'hard',
  limits: [{ period: 'MINUTE', limit: 1_000, blockSeconds: 60, blockDocumented: true }],
  blocks: 'rule',
  violation: '429 with rate-limit id and blocked duration',
};

/** The most arrivals in any span shorter than `spanMs`. */
export function busiestSpan(times: readonly number[], spanMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= spanMs) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

/**
 * Sends `count` requests, request `i` at clock time `schedule(i)`, and reports when each reached
 * the upstream, how the console answered, and what the mock's limits saw.
 */
export async function runPrecision(count: number, schedule: (i: number) => number, t0: number) {
  const clock = { now: t0 };
  const h = await startBffHarness({
    env: { EVENT_TYPES_CACHE_SECONDS: '0' },
    mock: { now: () => clock.now, eventTypeCount: 5 },
    mockRateLimits: true,
    moduleRules: [PRECISION_RULE],
    now: () => clock.now,
  });
  try {
    const reached: number[] = [];
    const statuses = new Map<string, number>();
    for (let i = 0; i < count; i += 1) {
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
