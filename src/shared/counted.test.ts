// Counts with thousands grouped as English writes them, without building an Intl formatter for
// the whole numbers every page shows on its first render.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { counted, formatCount } from './counted';

afterEach(() => {
  vi.restoreAllMocks();
});

const english = (value: number) => new Intl.NumberFormat('en').format(value);

describe('formatCount', () => {
  it.each([0, 7, 999, 1000, 10_000, 20_000, 123_456, 1_000_000, -1, -1234, -999_999, 2 ** 53 - 1])(
    'writes %d as English does',
    (value) => {
      expect(formatCount(value)).toBe(english(value));
    },
  );

  it('writes a whole number without building an Intl.NumberFormat', async () => {
    // A fresh copy of the module, as a page's first render finds it: nothing built yet.
    vi.resetModules();
    const fresh = await import('./counted');
    const built = vi.spyOn(Intl, 'NumberFormat');
    expect(fresh.formatCount(10_000)).toBe('10,000');
    expect(fresh.counted(1234, 'record')).toBe('1,234 records');
    expect(built).not.toHaveBeenCalled();
  });

  it.each([12.5, 1234.5678, -0.25, 2 ** 60])(
    'writes %d, not a whole count, as English does',
    (value) => {
      expect(formatCount(value)).toBe(english(value));
    },
  );
});

describe('counted', () => {
  it('puts the noun in the right number', () => {
    expect(counted(1, 'record')).toBe('1 record');
    expect(counted(0, 'record')).toBe('0 records');
    expect(counted(20_000, 'event type')).toBe('20,000 event types');
  });
});
