// Which requests count as a person's action: only those made shortly after a click, a key press
// or the page's load extend the session; the page's own polling is marked as background.
import * as z from 'zod/mini';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, onSessionExtended, sendEarly, sendEarlyWhenSignedIn } from './api-client';

let sent: Headers[] = [];
beforeEach(() => {
  sent = [];
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_: string, init: RequestInit) => {
      sent.push(new Headers(init.headers));
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const isBackground = (headers: Headers | undefined) => headers?.get('X-Console-Background') === '1';

describe('apiRequest and the session’s idle time', () => {
  it('marks requests made long after the last click as background, and those right after not', async () => {
    const extended: number[] = [];
    const stop = onSessionExtended((at) => extended.push(at));
    vi.setSystemTime(Date.now() + 60_000);
    await apiRequest('/api/health', z.object({}));
    expect(isBackground(sent[0])).toBe(true);
    expect(extended).toHaveLength(0);

    window.dispatchEvent(new Event('pointerdown'));
    vi.setSystemTime(Date.now() + 1_000);
    await apiRequest('/api/rate-limits/rules', z.object({}));
    expect(isBackground(sent[1])).toBe(false);
    expect(extended).toHaveLength(1);

    // Told explicitly, a request is what the caller says.
    await apiRequest('/api/session', z.object({}), { background: true });
    expect(isBackground(sent[2])).toBe(true);
    stop();
  });
});

describe('sendEarly', () => {
  it('sends GET requests as the person’s, and the first apiRequest of each path takes its answer over', async () => {
    vi.setSystemTime(Date.now() + 60_000); // long after the page's load: background by default
    sendEarly(['/api/session']);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(sent[0]?.get('X-CSRF')).toBe('1');
    expect(isBackground(sent[0])).toBe(false);
    const extended: number[] = [];
    const stop = onSessionExtended((at) => extended.push(at));
    await expect(apiRequest('/api/session', z.object({}))).resolves.toEqual({});
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(extended).toHaveLength(1); // the server restarted the idle timer for it
    // Taken once: the next call sends anew.
    await apiRequest('/api/session', z.object({}));
    expect(fetch).toHaveBeenCalledTimes(2);
    stop();
  });

  it('sends a path already on its way only once, for the entry and a route’s loader alike', async () => {
    sendEarly(['/api/connections/uat/account-usage']);
    sendEarly(['/api/connections/uat/account-usage']);
    await apiRequest('/api/connections/uat/account-usage', z.object({}));
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('is not taken by a request with a body', async () => {
    sendEarly(['/api/alerts/test']);
    await apiRequest('/api/alerts/test', z.object({}), { method: 'POST', body: {} });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('is dropped once any answer says the session has ended', async () => {
    // Opened at `/` signed out: the session answers 401 and the visitor is sent to sign in; the
    // list asked for early would answer 401 again after the sign-in.
    vi.mocked(fetch).mockResolvedValueOnce(new Response('{}', { status: 401 }));
    vi.mocked(fetch).mockResolvedValueOnce(new Response('{}', { status: 401 }));
    sendEarly(['/api/session', '/api/event-types']);
    await expect(apiRequest('/api/session', z.object({}))).rejects.toMatchObject({ status: 401 });
    await expect(apiRequest('/api/event-types', z.object({}))).resolves.toEqual({});
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('sends what needs a session only once the early session answered 200', async () => {
    vi.mocked(fetch).mockResolvedValueOnce(new Response(null, { status: 204 }));
    sendEarly(['/api/session']);
    sendEarlyWhenSignedIn('/api/session', ['/api/event-types']);
    await expect(apiRequest('/api/session', z.optional(z.object({})))).resolves.toBeUndefined();
    expect(fetch).toHaveBeenCalledTimes(1);

    sendEarly(['/api/session']);
    sendEarlyWhenSignedIn('/api/session', ['/api/event-types']);
    await apiRequest('/api/session', z.object({}));
    await expect(apiRequest('/api/event-types', z.object({}))).resolves.toEqual({});
    // The session twice, the list once: sent early, and taken over.
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('is dropped when not taken within ten seconds', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
    sendEarly(['/api/event-types']);
    vi.advanceTimersByTime(10_000);
    await apiRequest('/api/event-types', z.object({}));
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('fails in the apiRequest that takes it, and nowhere when none does', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // A plain function, not vi.fn: a spy watches the promises it returns, so none would be
      // left unhandled.
      let calls = 0;
      vi.stubGlobal('fetch', () => {
        calls += 1;
        return Promise.reject(new TypeError('Failed to fetch'));
      });
      sendEarly(['/api/session', '/api/event-types']);
      await expect(apiRequest('/api/session', z.object({}))).rejects.toMatchObject({ status: 0 });
      expect(calls).toBe(2); // the failure was the early request's, not a new one
      // '/api/event-types' is never taken, and its failure is reported nowhere.
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
