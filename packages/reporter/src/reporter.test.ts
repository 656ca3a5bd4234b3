// The reporter as an integration uses it: counts per template and minute through a wrapped fetch,
// 429 headers forwarded, nothing identifying sent, bounded memory, and a console that is down or
// refusing never reaches the host as an error.
import { describe, expect, it } from 'vitest';
import { createReporter, OTHER, templateOf } from './index.js';

const T0 = Date.UTC(2026, 2, 10, 9, 30, 5);

function capture(status = 202) {
  const sent: Array<{ url: string; init: RequestInit; body: string }> = [];
  const send = async (url: string, init: RequestInit) => {
    sent.push({ url, init, body: String(init.body) });
    return new Response(null, { status });
  };
  return { sent, send };
}

const upstream =
  (status: number, headers: Record<string, string> = {}) =>
  async () =>
    new Response('{"identifier":"jane.doe@example.com"}', { status, headers });

describe('the reporter', () => {
  it('counts requests per operation template and sends only templates, counts and 429 headers', async () => {
    const { sent, send } = capture();
    const reporter = createReporter({
      consoleUrl: 'https://console.test/',
      key: 'pacr_k',
      send,
      now: () => T0,
    });
    const fetch429 = reporter.wrapFetch(
      upstream(429, {
        'retry-after': '60',
        'ot-ratelimit-event-id': '0b4f7c1e-8a4d-4c5e-9f1a-2b3c4d5e6f70',
        'ot-period': 'MINUTE',
        'ot-requests-allowed': '20000',
        'ot-request-made': '20001',
        'set-cookie': 'session=secret',
      }),
    );
    const fetchOk = reporter.wrapFetch(upstream(200));
    await fetchOk(
      'https://tenant.example/rest/api/consent/v4/datasubjects/profiles/1d3e8f6a-4a51-4f35-9a9e-2d1c5b7a8e90?identifier=jane',
      {
        headers: { identifier: 'jane.doe@example.com', Authorization: 'Bearer upstream-token' },
      },
    );
    await fetchOk(
      new URL('https://tenant.example/api/consentmanager/v1/datasubjects/profiles?identifier=x'),
    );
    await fetch429('https://tenant.example/rest/api/consent/v4/datasubjects/basic-details', {
      method: 'GET',
      body: undefined,
    });
    await fetchOk('https://tenant.example/unknown/jane.doe@example.com', {
      method: 'POST',
      body: 'secret body',
    });
    await reporter.close();

    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('https://console.test/api/integrations/reports');
    expect((sent[0]?.init.headers as Record<string, string>).Authorization).toBe('Bearer pacr_k');
    const body = JSON.parse(sent[0]!.body);
    expect(
      body.minutes.map((m: { path: string; requests: number }) => [m.path, m.requests]),
    ).toEqual([
      ['/rest/api/consent/v4/datasubjects/profiles/{purposeGuid}', 1],
      ['/api/consentmanager/v1/datasubjects/profiles', 1],
      ['/rest/api/consent/v4/datasubjects/basic-details', 1],
      [OTHER, 1],
    ]);
    expect(body.throttles).toEqual([
      {
        at: new Date(T0).toISOString(),
        method: 'GET',
        path: '/rest/api/consent/v4/datasubjects/basic-details',
        headers: {
          'retry-after': '60',
          'ot-ratelimit-event-id': '0b4f7c1e-8a4d-4c5e-9f1a-2b3c4d5e6f70',
          'ot-requests-allowed': '20000',
          'ot-period': 'MINUTE',
          'ot-request-made': '20001',
        },
      },
    ]);
    for (const secret of ['jane', 'example.com', 'upstream-token', 'secret', '1d3e8f6a', '?']) {
      expect(sent[0]!.body).not.toContain(secret);
    }
  });

  it('reduces paths below a tenant prefix and keeps nothing of an unknown path', () => {
    expect(templateOf('/tenant-a/request/v1/consentreceipts')).toBe('/request/v1/consentreceipts');
    expect(templateOf('/some/where/else')).toBe(OTHER);
    expect(templateOf('not a url at all %%%')).toBe(OTHER);
  });

  it('never throws into the host, whatever it is given, and passes the host its own errors', async () => {
    const { send } = capture();
    const reporter = createReporter({ consoleUrl: 'https://console.test', key: 'k', send });
    expect(() =>
      reporter.record({ method: 'GET', url: undefined as unknown as string, status: 200 }),
    ).not.toThrow();
    expect(() => reporter.record(null as never)).not.toThrow();
    const failing = reporter.wrapFetch(async () => {
      throw new TypeError('host network down');
    });
    await expect(failing('https://x/y')).rejects.toThrow('host network down');
    await reporter.close();
  });

  it('turns itself off, without throwing, when the console address or key is missing', async () => {
    for (const [consoleUrl, key, reason] of [
      [undefined, 'pacr_k', 'consoleUrl is not an http(s) address'],
      ['console.example.com', 'pacr_k', 'consoleUrl is not an http(s) address'],
      ['https://console.test', undefined, 'no reporting key was given'],
      ['https://console.test', '  ', 'no reporting key was given'],
    ] as const) {
      const { sent, send } = capture();
      const told: string[] = [];
      let reporter: ReturnType<typeof createReporter> | undefined;
      expect(() => {
        reporter = createReporter({
          consoleUrl: consoleUrl as unknown as string,
          key: key as unknown as string,
          send,
          onError: (why) => told.push(why),
        });
      }).not.toThrow();
      const platformFetch = reporter!.wrapFetch(upstream(200));
      expect((await platformFetch('https://tenant.example/v1/preferences')).status).toBe(200);
      await reporter!.close();
      expect(sent).toHaveLength(0);
      expect(told).toEqual([expect.stringContaining(reason)]);
      expect(reporter!.stats().lastError).toContain(reason);
    }
  });

  it('never holds the host’s calls while the console hangs, and gives up on a report at its timeout', async () => {
    let reportStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (reportStarted = resolve));
    // A console that accepts the connection and never answers; like fetch, it stops on abort.
    const hanging = (_url: string, init: RequestInit) =>
      new Promise<Response>((_, reject) => {
        reportStarted();
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    const reporter = createReporter({
      consoleUrl: 'https://c',
      key: 'k',
      send: hanging,
      timeoutMs: 50,
    });
    const platformFetch = reporter.wrapFetch(upstream(200));
    await platformFetch('https://tenant.example/v1/preferences');
    const report = reporter.flush();
    await started;
    const during = await Promise.all(
      Array.from({ length: 5 }, () => platformFetch('https://tenant.example/v1/preferences')),
    );
    expect(during.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    await report;
    await reporter.close();
    expect(reporter.stats()).toMatchObject({
      reportsSent: 0,
      reportsFailed: 2,
      lastError: 'the console did not answer within 50 ms',
    });
  });

  it('drops rather than blocks when the console is down, within its memory bound', async () => {
    let clock = T0;
    let attempts = 0;
    const reporter = createReporter({
      consoleUrl: 'https://console.test',
      key: 'k',
      now: () => clock,
      maxCounters: 10,
      maxAgeMs: 86_400_000,
      send: async () => {
        attempts += 1;
        throw new TypeError('connection refused');
      },
    });
    for (let minute = 0; minute < 50; minute += 1) {
      clock = T0 + minute * 60_000;
      reporter.record({ method: 'GET', url: '/v1/preferences', status: 200 });
    }
    await reporter.flush();
    const stats = reporter.stats();
    expect(attempts).toBe(1);
    expect(stats.pendingCounters).toBeLessThanOrEqual(10);
    expect(stats.dropped).toBeGreaterThanOrEqual(40);
    expect(stats.reportsFailed).toBe(1);
    await reporter.close();
  });

  it('stops after the console refuses the key, and pauses for Retry-After on 429', async () => {
    const refused = capture(401);
    const revoked = createReporter({ consoleUrl: 'https://c', key: 'k', send: refused.send });
    revoked.record({ method: 'GET', url: '/v1/preferences', status: 200 });
    await revoked.flush();
    revoked.record({ method: 'GET', url: '/v1/preferences', status: 200 });
    await revoked.flush();
    expect(refused.sent).toHaveLength(1);
    await revoked.close();

    let clock = T0;
    const calls: number[] = [];
    const busy = createReporter({
      consoleUrl: 'https://c',
      key: 'k',
      now: () => clock,
      send: async () => {
        calls.push(clock);
        return new Response(null, { status: 429, headers: { 'retry-after': '30' } });
      },
    });
    busy.record({ method: 'GET', url: '/v1/preferences', status: 200 });
    await busy.flush();
    clock += 10_000;
    await busy.flush();
    clock += 25_000;
    await busy.flush();
    expect(calls).toEqual([T0, T0 + 35_000]);
    expect(busy.stats().pendingCounters).toBe(1);
    await busy.close();
  });
});
