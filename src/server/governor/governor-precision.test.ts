// The governor's bar (docs/product.md §9): 3,000 requests at one 1,000-per-minute rule, and at most
// 1,000 reach the upstream in any 60 s window, none of them drawing a 429. Run through the whole
// BFF against the mock upstream enforcing the same rule, on one injected clock.
import { describe, expect, it } from 'vitest';
import { busiestSpan, runPrecision } from '../test-support/governor-precision';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);

describe('governor precision', () => {
  it('3,000 requests spread over two minutes: at most 1,000 in any 60 s, no upstream 429', async () => {
    // 25 requests a second, starting mid-minute so the mock's fixed windows are crossed.
    const { reached, statuses, mock } = await runPrecision(3_000, (i) => T0 + 30_000 + i * 40, T0);
    expect(busiestSpan(reached, 60_000)).toBeLessThanOrEqual(1_000);
    expect(mock.refused).toBe(0);
    // Held-back calls answer 429, or 200 with the last good list marked stale (event types).
    expect([...statuses.keys()].every((status) => ['200', '429 console'].includes(status))).toBe(
      true,
    );
    // Not timid either: about 1,000 per 61 s get through.
    expect(reached.length).toBeGreaterThanOrEqual(1_900);
  }, 60_000);

  it('3,000 requests bunched around a minute boundary: still at most 1,000 in any 60 s', async () => {
    // 1,500 just before the upstream's window turns and 1,500 just after: a fixed window would
    // let 2,000 through.
    const { reached, mock } = await runPrecision(
      3_000,
      (i) => (i < 1_500 ? T0 + 59_900 : T0 + 60_050),
      T0,
    );
    expect(reached).toHaveLength(1_000);
    expect(busiestSpan(reached, 60_000)).toBeLessThanOrEqual(1_000);
    expect(mock.refused).toBe(0);
  }, 60_000);
});
