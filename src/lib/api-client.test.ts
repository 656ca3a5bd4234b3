// Which requests count as a person's action: only those made shortly after a click, a key press
// or the page's load extend the session; the page's own polling is marked as background.
import * as z from 'zod/mini';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, onSessionExtended } from './api-client';

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
