// The forecast an operator reads on the alerts page and in the banner: when a limit runs out at the
// current rate, and which warning it shows. Pure maths on an injected "now".
import { describe, expect, it } from 'vitest';
import { forecastLimit, secondsToExhaustion, type LimitSample } from './forecast';

const NOW = Date.UTC(2025, 0, 6, 9, 0, 0);

const minute = (used: number, perMinute: number, limit = 1_000): LimitSample => ({
  ruleId: 'account-minute',
  period: 'MINUTE',
  limit,
  windowSeconds: 60,
  used,
  ratePerSecond: perMinute / 60,
  source: 'console',
});

describe('secondsToExhaustion', () => {
  it('never runs out when the steady rate fills less than one window', () => {
    // 900 a minute settle at 900 in a 60 s window: under 1,000.
    expect(secondsToExhaustion(850, 1_000, 60, 900 / 60)).toBeNull();
  });

  it('runs out within the window when the rate over a window exceeds the limit', () => {
    // 2,000 a minute from an empty window: full after 30 s.
    expect(secondsToExhaustion(0, 1_000, 60, 2_000 / 60)).toBeCloseTo(30, 5);
  });

  it('counts the requests leaving the sliding window as it moves', () => {
    // 600 counted, 1,200 a minute arriving, 600 a minute leaving: 400 to go at 600/min = 40 s.
    expect(secondsToExhaustion(600, 1_000, 60, 1_200 / 60)).toBeCloseTo(40, 5);
  });

  it('is zero when the limit is already reached', () => {
    expect(secondsToExhaustion(1_000, 1_000, 60, 0)).toBe(0);
  });

  it('is null with no traffic at all', () => {
    expect(secondsToExhaustion(10, 1_000, 60, 0)).toBeNull();
  });

  it('uses the hour window for an hour limit', () => {
    // 4,000 a minute is 240,000 an hour: 200,000 reached after 50 minutes from empty.
    expect(secondsToExhaustion(0, 200_000, 3_600, 4_000 / 60)).toBeCloseTo(3_000, 5);
    // 3,000 a minute is 180,000 an hour: never.
    expect(secondsToExhaustion(150_000, 200_000, 3_600, 3_000 / 60)).toBeNull();
  });
});

describe('forecastLimit', () => {
  it('says ok, with no exhaustion time, for a quiet limit', () => {
    const forecast = forecastLimit(minute(100, 100), 80, NOW);
    expect(forecast).toMatchObject({
      key: 'account-minute:MINUTE',
      level: 'ok',
      percentUsed: 10,
      ratePerMinute: 100,
      secondsToExhaustion: null,
      exhaustsAt: null,
    });
  });

  it('warns "near" once the threshold is passed while the rate would not fill the window', () => {
    const forecast = forecastLimit(minute(820, 820), 80, NOW);
    expect(forecast.level).toBe('near');
    expect(forecastLimit(minute(820, 820), 90, NOW).level).toBe('ok');
  });

  it('forecasts the exhaustion time on the injected clock', () => {
    const forecast = forecastLimit(minute(0, 2_000), 80, NOW);
    expect(forecast.level).toBe('forecast');
    expect(forecast.exhaustsAt).toBe(new Date(NOW + 30_000).toISOString());
    const later = forecastLimit(minute(0, 2_000), 80, NOW + 5_000);
    expect(later.exhaustsAt).toBe(new Date(NOW + 35_000).toISOString());
  });

  it('says exhausted when the window is full', () => {
    expect(forecastLimit(minute(1_000, 1_000), 80, NOW)).toMatchObject({
      level: 'exhausted',
      secondsToExhaustion: 0,
      exhaustsAt: new Date(NOW).toISOString(),
    });
  });
});
