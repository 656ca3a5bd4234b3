// What happens to the data in the tab when a session ends: signing out, or any 401 from the BFF.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';
import { useSignedOutHandler } from '../use-signed-out-handler';
import { getSession, sessionQueryKeys, signOut } from './session';

afterEach(() => vi.unstubAllGlobals());

const signedOut = () =>
  new Response(JSON.stringify({ type: '/problems/signed-out', title: 'Signed out', status: 401 }), {
    status: 401,
    headers: { 'Content-Type': 'application/problem+json' },
  });

function seededClient() {
  const queryClient = new QueryClient();
  queryClient.setQueryData(sessionQueryKeys.current, { username: 'admin', role: 'admin' });
  queryClient.setQueryData(['data-subjects', 'lookup'], { name: 'Jane Doe' });
  queryClient.setQueryData(['event-types', 'list'], { items: [] });
  return queryClient;
}

function Shell() {
  useSignedOutHandler();
  return null;
}

describe('the session in the SPA', () => {
  it('reads a 401 from GET /api/session as "signed out", not as an error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => signedOut()),
    );
    expect(await getSession()).toBeNull();
  });

  it('sends X-CSRF and same-origin credentials', async () => {
    const fetchMock = vi.fn(async () => Response.json({ username: 'a', role: 'support' }));
    vi.stubGlobal('fetch', fetchMock);
    await getSession();
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(new Headers(init.headers).get('x-csrf')).toBe('1');
    expect(init.credentials).toBe('same-origin');
  });

  it('drops every cached query when any API call answers 401', async () => {
    const queryClient = seededClient();
    render(
      <QueryClientProvider client={queryClient}>
        <Shell />
      </QueryClientProvider>,
    );
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => signedOut()),
    );
    await expect(apiRequest('/api/event-types', z.unknown())).rejects.toMatchObject({
      status: 401,
    });
    await waitFor(() => expect(queryClient.getQueryData(sessionQueryKeys.current)).toBeNull());
    expect(queryClient.getQueryData(['data-subjects', 'lookup'])).toBeUndefined();
    expect(queryClient.getQueryData(['event-types', 'list'])).toBeUndefined();
  });

  it('signs out on the server, leaves the page, then forgets all cached data', async () => {
    const queryClient = seededClient();
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        calls.push(`${init?.method ?? 'GET'} ${String(input)}`);
        return new Response(null, { status: 204 });
      }),
    );
    let dataWhenLeaving: unknown;
    await signOut(queryClient, () => {
      calls.push('leave');
      dataWhenLeaving = queryClient.getQueryData(['data-subjects', 'lookup']);
    });
    expect(calls).toEqual(['DELETE /api/session', 'leave']);
    expect(dataWhenLeaving).toBeDefined();
    expect(queryClient.getQueryData(sessionQueryKeys.current)).toBeNull();
    expect(queryClient.getQueryData(['data-subjects', 'lookup'])).toBeUndefined();
  });

  it('forgets cached data even when the server cannot be reached', async () => {
    const queryClient = seededClient();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    await signOut(queryClient);
    expect(queryClient.getQueryData(['data-subjects', 'lookup'])).toBeUndefined();
    expect(queryClient.getQueryData(sessionQueryKeys.current)).toBeNull();
  });
});
