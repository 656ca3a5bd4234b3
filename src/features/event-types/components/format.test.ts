// How old the list is, in English, without building a relative-time formatter for a fresh list.
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
});

const NOW = Date.UTC(2026, 0, 6, 12, 0, 0);
const before = (ms: number) => new Date(NOW - ms).toISOString();

describe('formatAge', () => {
  it('says "just now" for a list fetched under a minute ago, without building an Intl formatter', async () => {
    // A fresh copy of the module, as a first visit loads it.
    vi.resetModules();
    const built = vi.spyOn(Intl, 'RelativeTimeFormat');
    const { formatAge } = await import('./format');
    expect(formatAge(before(30_000), NOW)).toBe('just now');
    expect(built).not.toHaveBeenCalled();
  });

  it('says how many minutes, hours or days old an older list is', async () => {
    vi.resetModules();
    const { formatAge } = await import('./format');
    expect(formatAge(before(12 * 60_000), NOW)).toBe('12 minutes ago');
    expect(formatAge(before(3 * 3_600_000), NOW)).toBe('3 hours ago');
    expect(formatAge(before(3 * 86_400_000), NOW)).toBe('3 days ago');
  });
});
