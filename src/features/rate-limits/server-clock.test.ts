// The server-clock offset that turns the BFF's block ends into this browser's times.
import { describe, expect, it } from 'vitest';
import { serverClockOffset } from './server-clock';

describe('serverClockOffset', () => {
  it('is how far this browser was ahead of the server when the usage answer arrived', () => {
    const serverNow = Date.parse('2026-03-12T09:00:00Z');
    expect(
      serverClockOffset({
        data: { now: '2026-03-12T09:00:00Z' },
        dataUpdatedAt: serverNow + 90_000,
      }),
    ).toBe(90_000);
    expect(
      serverClockOffset({
        data: { now: '2026-03-12T09:00:00Z' },
        dataUpdatedAt: serverNow - 5_000,
      }),
    ).toBe(-5_000);
  });

  it('is 0 until the usage has loaded', () => {
    expect(serverClockOffset({ data: undefined, dataUpdatedAt: 0 })).toBe(0);
  });
});
