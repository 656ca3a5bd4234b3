// close() keeps the README's promise, "sends what is pending": everything recorded before it was
// called reaches the console, also what was recorded while an earlier report was still on its way.
import { describe, expect, it } from 'vitest';
import { createReporter } from './index.js';

const T0 = Date.UTC(2026, 2, 10, 9, 30, 5);

interface SentReport {
  minutes: Array<{ requests: number; throttled: number }>;
  throttles: unknown[];
}

describe('closing the reporter', () => {
  it('sends what was recorded while a report was in flight', async () => {
    const reports: SentReport[] = [];
    let release: () => void = () => undefined;
    let sending: () => void = () => undefined;
    const firstStarted = new Promise<void>((resolve) => (sending = resolve));
    const send = async (_url: string, init: RequestInit) => {
      reports.push(JSON.parse(String(init.body)) as SentReport);
      if (reports.length === 1) {
        sending();
        // The console is slow with the first report.
        await new Promise<void>((resolve) => (release = resolve));
      }
      return new Response(null, { status: 202 });
    };
    const reporter = createReporter({ consoleUrl: 'https://c', key: 'k', send, now: () => T0 });
    reporter.record({ method: 'GET', url: '/v1/preferences', status: 200 });
    const first = reporter.flush();
    await firstStarted;
    reporter.record({
      method: 'GET',
      url: '/v1/preferences',
      status: 429,
      headers: { 'retry-after': '60', 'ot-period': 'MINUTE' },
    });
    const closed = reporter.close();
    release();
    await Promise.all([first, closed]);

    const recorded = 2;
    const sentRequests = reports.flatMap((r) => r.minutes).reduce((n, m) => n + m.requests, 0);
    const sentThrottles = reports.reduce((n, r) => n + r.throttles.length, 0);
    expect({ recorded, sent: sentRequests, throttles: sentThrottles }).toEqual({
      recorded: 2,
      sent: 2,
      throttles: 1,
    });
    expect(reporter.stats()).toMatchObject({ pendingCounters: 0, pendingThrottles: 0 });
  });
});
