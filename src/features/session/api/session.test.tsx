// What happens to the data in the tab when a session ends: signing out, or any 401 from the BFF.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';
import { consoleMetaQueryKey } from '../../../lib/console-meta-query';
import { sessionQueryKey } from '../../../lib/session-query';
import { useSignedOutHandler } from '../use-signed-out-handler';
import { signOut } from './session';

afterEach(() => vi.unstubAllGlobals());

const signedOut = () =>
  new Response(JSON.stringify({ type: '/problems/signed-out', title: 'Signed out', status: 401 }), {
    status: 401,
    headers: { 'Content-Type': 'application/problem+json' },
  });

/**
 * A tab signed in as admin that has loaded the console's meta data and run a lookup: lookups are
 * mutations, so the person's data sits in the mutation cache, not under a query key.
 */
async function seededClient() {
  const queryClient = new QueryClient();
  queryClient.setQueryData(sessionQueryKey, { username: 'admin', role: 'admin' });
  queryClient.setQueryData(consoleMetaQueryKey, { mode: 'demo', accountTier: 'professional' });
  await queryClient
    .getMutationCache()
    .build(queryClient, { mutationFn: async () => ({ name: 'Jane Doe' }) })
    .execute(undefined);
  return queryClient;
}

/** What the tab still holds of the signed-in user's work. */
function leftovers(queryClient: QueryClient) {
  return {
    session: queryClient.getQueryData(sessionQueryKey),
    meta: queryClient.getQueryData(consoleMetaQueryKey),
    lookups: queryClient.getMutationCache().getAll().length,
  };
}

const nothingLeft = { session: null, meta: undefined, lookups: 0 };

function Shell() {
  useSignedOutHandler();
  return null;
}

describe('the session in the SPA', () => {
  it('drops every cached query when any API call answers 401', async () => {
    const queryClient = await seededClient();
    expect(leftovers(queryClient)).not.toEqual(nothingLeft);
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
    await waitFor(() => expect(leftovers(queryClient)).toEqual(nothingLeft));
  });

  it('signs out on the server, leaves the page, then forgets all cached data', async () => {
    const queryClient = await seededClient();
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
      dataWhenLeaving = leftovers(queryClient);
    });
    expect(calls).toEqual(['DELETE /api/session', 'leave']);
    // The page being left still had its data to show while it went; nothing is kept after.
    expect(dataWhenLeaving).toMatchObject({ session: { username: 'admin' }, lookups: 1 });
    expect(leftovers(queryClient)).toEqual(nothingLeft);
  });

  it('forgets cached data even when the server cannot be reached', async () => {
    const queryClient = await seededClient();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    await signOut(queryClient);
    expect(leftovers(queryClient)).toEqual(nothingLeft);
  });
});
