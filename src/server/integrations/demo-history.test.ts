// The demo's week of reported traffic (demo mode only) reaches the same distance before the
// console's first start at any time of day: the Planning page's "last 24 hours" and "last week"
// replay whole days, the nightly peak among them.
import { describe, expect, it } from 'vitest';
import { demoHistory, DEMO_HISTORY_NAMES } from './demo-history';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('the demo history', () => {
  for (const time of ['00:10', '03:30', '09:00', '23:50']) {
    it(`runs without a hole up to two hours before a start at ${time} UTC`, () => {
      const now = Date.parse(`2026-12-03T${time}:00Z`);
      const minutes = [
        ...new Set(
          (demoHistory(now).get(DEMO_HISTORY_NAMES.preferences) ?? []).map((e) => e.minute),
        ),
      ].sort((a, b) => a - b);
      // The preference centre reports every minute: the first is a week back, the last two
      // hours back, and none is missing between them.
      expect(minutes[0]).toBeGreaterThanOrEqual(now - 7 * 24 * HOUR);
      expect(minutes[0]).toBeLessThan(now - 7 * 24 * HOUR + MINUTE);
      expect(minutes.at(-1)).toBe(Math.floor((now - 2 * HOUR) / MINUTE) * MINUTE);
      expect(minutes.length).toBe((minutes.at(-1)! - minutes[0]!) / MINUTE + 1);
    });
  }

  it('holds a nightly peak past 1,000 v4 profile calls a minute in the last week', () => {
    const now = Date.parse('2026-12-03T03:30:00Z');
    const v4 = (demoHistory(now).get(DEMO_HISTORY_NAMES.nightly) ?? []).filter((entry) =>
      entry.template.includes('/v4/'),
    );
    const peak = v4.reduce((most, entry) => Math.max(most, entry.requests), 0);
    expect(peak).toBeGreaterThan(1_000);
  });
});
