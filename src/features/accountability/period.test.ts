// The period the page asks for: presets in UTC months, custom days with the last one included,
// and the URL that keeps the choice.
import { describe, expect, it } from 'vitest';
import { parsePeriodChoice, periodBounds, serialisePeriodChoice } from './period';

// 2026-03-01T00:30Z: still February in New York, which must not matter.
const NOW = Date.UTC(2026, 2, 1, 0, 30);

describe('periodBounds', () => {
  it('leaves the last 30 days to the server, and makes months whole UTC months', () => {
    expect(periodBounds({ preset: 'last-30-days' }, NOW)).toEqual({ ok: true });
    expect(periodBounds({ preset: 'this-month' }, NOW)).toEqual({
      ok: true,
      since: '2026-03-01T00:00:00.000Z',
      until: '2026-04-01T00:00:00.000Z',
    });
    expect(periodBounds({ preset: 'last-month' }, NOW)).toEqual({
      ok: true,
      since: '2026-02-01T00:00:00.000Z',
      until: '2026-03-01T00:00:00.000Z',
    });
    expect(periodBounds({ preset: 'last-month' }, Date.UTC(2026, 0, 15))).toMatchObject({
      since: '2025-12-01T00:00:00.000Z',
    });
  });

  it('includes a custom period’s last day, and says what is wrong with one that cannot be', () => {
    expect(periodBounds({ preset: 'custom', from: '2026-02-10', to: '2026-02-10' }, NOW)).toEqual({
      ok: true,
      since: '2026-02-10T00:00:00.000Z',
      until: '2026-02-11T00:00:00.000Z',
    });
    expect(periodBounds({ preset: 'custom', from: '2026-02-10', to: '' }, NOW)).toEqual({
      ok: false,
      error: 'Choose the first and the last day of the period.',
    });
    expect(periodBounds({ preset: 'custom', from: '2026-02-10', to: '2026-02-09' }, NOW)).toEqual({
      ok: false,
      error: 'The last day is before the first.',
    });
  });
});

describe('the period in the URL', () => {
  it('round-trips each choice, and reads anything unknown as the default', () => {
    for (const choice of [
      { preset: 'last-30-days' },
      { preset: 'last-month' },
      { preset: 'custom', from: '2026-01-01', to: '2026-01-31' },
    ] as const) {
      expect(parsePeriodChoice(serialisePeriodChoice(choice))).toEqual(choice);
    }
    expect(serialisePeriodChoice({ preset: 'last-30-days' }).toString()).toBe('');
    expect(parsePeriodChoice(new URLSearchParams('period=forever'))).toEqual({
      preset: 'last-30-days',
    });
  });
});
