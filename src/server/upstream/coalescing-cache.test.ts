import { describe, expect, it } from 'vitest';
import { deferred } from '../test-support/deferred';
import { CoalescingCache } from './coalescing-cache';

describe('CoalescingCache', () => {
  it('runs one load for 200 concurrent identical requests', async () => {
    const cache = new CoalescingCache<string>({ ttlMs: 30_000, maxEntries: 10, now: () => 0 });
    let loads = 0;
    const pending = deferred<string>();
    const results = Array.from({ length: 200 }, () =>
      cache.get('k', () => {
        loads += 1;
        return pending.promise;
      }),
    );
    pending.resolve('value');
    expect(await Promise.all(results)).toEqual(Array(200).fill('value'));
    expect(loads).toBe(1);
  });

  it('serves from cache within the period and loads again after it', async () => {
    const clock = { now: 0 };
    const cache = new CoalescingCache<number>({
      ttlMs: 1000,
      maxEntries: 10,
      now: () => clock.now,
    });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    clock.now = 999;
    expect(await cache.get('k', load)).toBe(1);
    clock.now = 1000;
    expect(await cache.get('k', load)).toBe(2);
  });

  it('keeps nothing with a zero period but still coalesces loads in flight', async () => {
    const cache = new CoalescingCache<number>({ ttlMs: 0, maxEntries: 10, now: () => 0 });
    let loads = 0;
    const pending = deferred<number>();
    const both = [
      cache.get('k', () => (loads++, pending.promise)),
      cache.get('k', () => (loads++, pending.promise)),
    ];
    pending.resolve(7);
    await Promise.all(both);
    expect(loads).toBe(1);
    await cache.get('k', async () => ++loads);
    expect(loads).toBe(2);
  });

  it('never keeps a failed load', async () => {
    const cache = new CoalescingCache<number>({ ttlMs: 60_000, maxEntries: 10, now: () => 0 });
    await expect(cache.get('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('k', async () => 5)).toBe(5);
  });

  it('evicts the oldest keys beyond the bound', async () => {
    const cache = new CoalescingCache<string>({ ttlMs: 60_000, maxEntries: 2, now: () => 0 });
    let loads = 0;
    const load = (value: string) => async () => (loads++, value);
    await cache.get('a', load('a'));
    await cache.get('b', load('b'));
    await cache.get('c', load('c'));
    await cache.get('a', load('a')); // evicted: loads again
    expect(loads).toBe(4);
  });

  it('keeps values within a size bound, oldest evicted first, and never one larger than it', async () => {
    const cache = new CoalescingCache<string>({
      ttlMs: 60_000,
      maxEntries: 10,
      maxSize: { limit: 10, sizeOf: (value) => value.length },
      now: () => 0,
    });
    const loads: string[] = [];
    const load = (value: string) => async () => (loads.push(value), value);
    await cache.get('a', load('aaaa'));
    await cache.get('b', load('bbbb'));
    await cache.get('c', load('cccc')); // 12 > 10: a goes
    await cache.get('b', load('bbbb'));
    await cache.get('c', load('cccc'));
    await cache.get('a', load('aaaa')); // loaded again; now b goes
    expect(await cache.get('huge', load('h'.repeat(11)))).toBe('h'.repeat(11));
    await cache.get('huge', load('h'.repeat(11))); // too large to keep: loaded each time
    await cache.get('c', load('cccc')); // still kept: the large value evicted nothing
    expect(loads).toEqual(['aaaa', 'bbbb', 'cccc', 'aaaa', 'h'.repeat(11), 'h'.repeat(11)]);
  });
});
