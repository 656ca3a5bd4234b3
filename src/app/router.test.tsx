// The router starts the data a page needs as the page is opened, beside the download of the
// page's code, and only then: a filter change on the page does not ask again.
// Waits use Testing Library's waitFor, whose deadline is set once for a loaded machine.
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountOverview, RULES, T0, usage } from '../features/rate-limits/test-support/fixtures';
import { createQueryClient } from '../lib/query-client';
import { sendFirstRequests } from './first-requests';
import { createAppRouter } from './router';

/** What the fake BFF answers, by path; the event-types list for any other. */
const ANSWERS: Record<string, unknown> = {
  '/api/session': { username: 'ada', role: 'admin' },
  '/api/connections': {
    connections: [
      { name: 'default', label: 'Production (EU)', colour: 'blue', role: 'admin' },
      { name: 'uat', label: 'UAT', colour: 'green', role: 'admin' },
    ],
  },
  '/api/meta': { mode: 'demo', accountTier: 'production', demoControls: true },
  '/api/connections/uat/rate-limits/rules': RULES,
  '/api/connections/uat/rate-limits/usage': usage(T0),
  '/api/connections/uat/account-usage': accountOverview(T0),
  '/api/connections/default/rate-limits/rules': RULES,
  '/api/connections/default/rate-limits/usage': usage(T0),
  '/api/connections/default/account-usage': accountOverview(T0),
};

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

/**
 * Opens `path` in a fresh router (nothing rendered) and records the /api paths it asks for;
 * `early`: after sending its first requests as the SPA's entry does (start-early.ts).
 */
function open(path: string, { early = false, signedIn = true } = {}) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input instanceof Request ? input.url : input), location.origin);
      asked.push(url.pathname);
      // Signed out, the BFF answers the session with 204 and anything else with 401.
      if (!signedIn)
        return new Response(null, { status: url.pathname === '/api/session' ? 204 : 401 });
      const body = ANSWERS[url.pathname] ?? { items: [], fetchedAt: '2026-01-02T03:04:05.000Z' };
      return new Response(JSON.stringify(body), {
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  window.history.replaceState(null, '', path);
  if (early) sendFirstRequests(path);
  const client = createQueryClient();
  const router = createAppRouter(client);
  return { asked, client, router };
}

describe('createAppRouter', () => {
  it('asks for the event types and the session when /c/uat/event-types opens, before any page renders', async () => {
    const { asked, router } = open('/c/uat/event-types');
    // Nothing is rendered here: only the routes' loaders can have asked.
    await waitFor(() => expect(asked).toContain('/api/connections/uat/event-types'));
    expect(asked).toContain('/api/session');
    router.dispose();
  });

  it('does not ask again when a filter changes the URL', async () => {
    const { asked, client, router } = open('/c/uat/event-types');
    await waitFor(() => expect(router.state.initialized && client.isFetching() === 0).toBe(true));
    // Nor do the loaders run again: each would turn the click into an asynchronous navigation.
    const started = vi.spyOn(client, 'prefetchQuery');
    await router.navigate('/c/uat/event-types?modules=Consent');
    await router.navigate('/c/uat/event-types?modules=Consent&objectTypes=Purpose');
    expect(router.state.location.search).toBe('?modules=Consent&objectTypes=Purpose');
    expect(asked.filter((path) => path === '/api/connections/uat/event-types')).toHaveLength(1);
    expect(started).not.toHaveBeenCalled();
    router.dispose();
  });

  it.each([false, true])(
    'asks a signed-out visitor at /c/uat/event-types for the session alone (sent early: %s)',
    async (early) => {
      const { asked, client, router } = open('/c/uat/event-types', { early, signedIn: false });
      await waitFor(() => expect(router.state.initialized && client.isFetching() === 0).toBe(true));
      // Nothing that would answer 401: the browser logs each one as an error.
      expect(asked).toEqual(['/api/session']);
      router.dispose();
    },
  );

  it('leaves the list alone on other pages', async () => {
    const { asked, router } = open('/c/uat/rate-limits');
    await waitFor(() => expect(asked).toContain('/api/session'));
    expect(asked).not.toContain('/api/connections/uat/event-types');
    router.dispose();
  });

  it('asks for what places the rate-limits page as it opens, and nothing of it signed out', async () => {
    const signedIn = open('/c/uat/rate-limits');
    await waitFor(() => expect(signedIn.asked).toContain('/api/connections/uat/account-usage'));
    expect(signedIn.asked).toEqual(
      expect.arrayContaining([
        '/api/connections/uat/rate-limits/rules',
        '/api/connections/uat/rate-limits/usage',
      ]),
    );
    signedIn.router.dispose();
    const signedOut = open('/c/uat/rate-limits', { signedIn: false });
    await waitFor(() =>
      expect(signedOut.router.state.initialized && signedOut.client.isFetching() === 0).toBe(true),
    );
    expect(signedOut.asked).toEqual(['/api/session']);
    signedOut.router.dispose();
  });

  it.each([
    [
      '/c/uat/event-types',
      ['/api/session'],
      ['/api/session', '/api/connections', '/api/connections/uat/event-types'],
    ],
    [
      '/c/uat/rate-limits',
      ['/api/session'],
      [
        '/api/session',
        '/api/connections',
        '/api/connections/uat/rate-limits/rules',
        '/api/connections/uat/rate-limits/usage',
        '/api/connections/uat/account-usage',
        '/api/meta',
      ],
    ],
    [
      '/event-types?module=Consent',
      ['/api/session'],
      ['/api/session', '/api/connections', '/api/connections/default/event-types'],
    ],
    ['/sign-in', [], []],
  ])(
    'takes over what the entry sent early at %s, and asks for nothing twice',
    async (path, sentAtOnce, paths) => {
      const { asked, client, router } = open(path, { early: true });
      // Sent before the router existed: the session, and what needs it once it answered.
      expect(asked).toEqual(sentAtOnce);
      await waitFor(() => expect(asked).toEqual(paths));
      await waitFor(() => expect(router.state.initialized && client.isFetching() === 0).toBe(true));
      expect(asked).toEqual(paths);
      // The loaders' queries have the answers: nothing is left to send.
      if (paths.includes('/api/connections/uat/event-types')) {
        expect(client.getQueryData(['event-types', 'uat', 'list'])).toEqual({
          items: [],
          fetchedAt: '2026-01-02T03:04:05.000Z',
        });
      }
      router.dispose();
    },
  );

  it('takes over the early connections at `/`, then asks for the first one’s list', async () => {
    const { asked, client, router } = open('/', { early: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/c/default/event-types'));
    await waitFor(() =>
      expect(client.getQueryData(['event-types', 'default', 'list'])).toBeDefined(),
    );
    expect(asked).toEqual([
      '/api/session',
      '/api/connections',
      '/api/connections/default/event-types',
    ]);
    router.dispose();
  });

  it.each([
    ['/', ['/api/connections/default/event-types']],
    ['/event-types', ['/api/connections/default/event-types']],
    [
      '/rate-limits',
      [
        // The account-wide view's first: its fetcher is still loading (router-started-pages.test).
        '/api/connections/default/account-usage',
        '/api/meta',
        '/api/connections/default/rate-limits/rules',
        '/api/connections/default/rate-limits/usage',
      ],
    ],
  ])(
    'leads the old address %s to the first connection’s page with its data asked for, before anything renders',
    async (path, pageData) => {
      const { asked, client, router } = open(`${path}?module=Consent`);
      // Nothing is rendered here: the old address's loader sent the router on and asked.
      await waitFor(() => expect(router.state.initialized && client.isFetching() === 0).toBe(true));
      const page = path === '/' ? '/event-types' : path;
      expect(router.state.location.pathname).toBe(`/c/default${page}`);
      expect(router.state.location.search).toBe('?module=Consent');
      expect(router.state.historyAction).toBe('REPLACE');
      expect(asked.filter((asked) => pageData.includes(asked))).toEqual(pageData);
      router.dispose();
    },
  );

  it('asks a signed-out visitor at an old address for the session alone', async () => {
    const { asked, client, router } = open('/event-types', { signedIn: false });
    await waitFor(() => expect(router.state.initialized && client.isFetching() === 0).toBe(true));
    expect(asked).toEqual(['/api/session']);
    router.dispose();
  });
});
