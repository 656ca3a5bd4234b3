// The sliding window's promise: however requests arrive, no 60-second span ever holds more
// admitted requests than the limit, with the clock injected instead of waited for.
import { describe, expect, it } from 'vitest';
import { SlidingWindow } from './sliding-window';
import { createMemoryWindowStore } from './window-store';
import { busiestSpan } from '../test-support/governor-precision';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);

function window(limit: number, clock: { now: number }) {
  return new SlidingWindow({
    name: `test-${Math.random()}`,
    limit,
    windowMs: 60_000,
    store: createMemoryWindowStore(),
    now: () => clock.now,
  });
}

describe('SlidingWindow', () => {
  it('admits the limit, refuses the next, and says when there is room to the second', async () => {
    const clock = { now: T0 + 500 };
    const w = window(3, clock);
    for (let i = 0; i < 3; i += 1) expect((await w.take()).taken).toBe(true);
    const refused = await w.take();
    expect(refused).toEqual({ taken: false, used: 3, retryAfterMs: 60_500 });
    clock.now = T0 + 60_999;
    expect((await w.take()).taken).toBe(false);
    clock.now = T0 + 61_000;
    expect((await w.take()).taken).toBe(true);
  });

  it('does not let twice the limit through across a minute boundary', async () => {
    const clock = { now: T0 + 59_900 };
    const w = window(1_000, clock);
    let admitted = 0;
    for (let i = 0; i < 1_500; i += 1) if ((await w.take()).taken) admitted += 1;
    clock.now = T0 + 60_050;
    for (let i = 0; i < 1_500; i += 1) if ((await w.take()).taken) admitted += 1;
    expect(admitted).toBe(1_000);
  });

  it('keeps any 60 s span at or under the limit for random traffic', async () => {
    const clock = { now: T0 };
    const w = window(100, clock);
    const admittedAt: number[] = [];
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 6_000; i += 1) {
      clock.now += Math.floor(random() * random() * 400);
      if ((await w.take()).taken) admittedAt.push(clock.now);
    }
    expect(busiestSpan(admittedAt, 60_000)).toBeLessThanOrEqual(100);
    // And it is not timid: over the run it admits close to the limit per 61 s.
    const minutes = (clock.now - T0) / 61_000;
    expect(admittedAt.length).toBeGreaterThan(minutes * 100 * 0.9);
  });

  it('gives exactly the limit to a crowd of concurrent callers', async () => {
    const clock = { now: T0 };
    const w = window(1_000, clock);
    const results = await Promise.all(Array.from({ length: 2_500 }, () => w.take()));
    expect(results.filter((result) => result.taken)).toHaveLength(1_000);
  });

  it('reports usage and when the oldest counted request leaves the window', async () => {
    const clock = { now: T0 + 10_200 };
    const w = window(10, clock);
    await w.take();
    clock.now = T0 + 20_000;
    await w.take();
    expect(await w.usage()).toEqual({ used: 2, resetsAt: T0 + 71_000 });
    expect(await w.wouldRefuse()).toEqual({ refused: false, retryAfterMs: 0 });
    clock.now = T0 + 71_000;
    expect(await w.usage()).toEqual({ used: 1, resetsAt: T0 + 81_000 });
  });

  it('gives a point back when asked', async () => {
    const clock = { now: T0 };
    const w = window(1, clock);
    const first = await w.take();
    expect(first.taken).toBe(true);
    if (first.taken) await w.giveBack(first.bucket);
    expect((await w.take()).taken).toBe(true);
  });
});
