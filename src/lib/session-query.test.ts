// Reading the session: a 204 (or an older console's 401) means "signed out", and every reader shares one query key.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSession, sessionQueryKey, useSession, useViewerRole } from './session-query';

afterEach(() => vi.unstubAllGlobals());

const signedOut = () =>
  new Response(JSON.stringify({ type: '/problems/signed-out', title: 'Signed out', status: 401 }), {
    status: 401,
    headers: { 'Content-Type': 'application/problem+json' },
  });

describe('the session query', () => {
  it('reads a 204 from GET /api/session as "signed out"', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    expect(await getSession()).toBeNull();
  });

  it('reads a 401 from GET /api/session as "signed out", as a console of the release before answers', async () => {
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

  it('reads a session from a replica of the release before connections as one with no connection roles', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ username: 'ann', role: 'support' })),
    );
    const queryClient = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client: queryClient }, children);
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() =>
      expect(result.current.data).toEqual({ username: 'ann', role: 'support', roles: {} }),
    );
  });

  it('asks once for the shell and the role checks alike, under the one session key', async () => {
    const ann = { username: 'ann', role: 'support', roles: { default: 'support' } };
    const fetchMock = vi.fn(async () => Response.json(ann));
    vi.stubGlobal('fetch', fetchMock);
    const queryClient = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client: queryClient }, children);
    const { result } = renderHook(() => ({ session: useSession(), role: useViewerRole() }), {
      wrapper,
    });
    await waitFor(() => expect(result.current.role.data).toBe('support'));
    expect(result.current.session.data).toEqual(ann);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryData(sessionQueryKey)).toEqual(ann);
  });
});
