// The one countdown format of the console: the same wait reads the same on every page.
import { describe, expect, it } from 'vitest';
import { describeCountdown, formatCountdown } from './format-countdown';

describe('formatCountdown', () => {
  it.each([
    [0, '0:00'],
    [-3, '0:00'],
    [42, '0:42'],
    [3_564, '59:24'],
    [3_600, '1:00:00'],
    [3_661, '1:01:01'],
  ])('%i seconds reads %s', (seconds, text) => {
    expect(formatCountdown(seconds)).toBe(text);
  });

  it('says the same wait in words', () => {
    expect(describeCountdown(3_564)).toBe('59 minutes 24 seconds');
    expect(describeCountdown(3_600)).toBe('1 hour');
    expect(describeCountdown(1)).toBe('1 second');
    expect(describeCountdown(0)).toBe('0 seconds');
  });
});
