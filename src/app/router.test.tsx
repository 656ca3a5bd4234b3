// The router starts the data a page needs as the page is opened, beside the download of the
// page's code, and only then: a filter change on the page does not ask again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client';
import { createAppRouter } from './router';

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

/** Opens `path` in a fresh router (nothing rendered) and records the /api paths it asks for. */
function open(path: string) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input instanceof Request ? input.url : input), location.origin);
      asked.push(url.pathname);
      const body =
        url.pathname === '/api/session'
          ? { username: 'ada', role: 'admin' }
          : { items: [], fetchedAt: '2026-01-02T03:04:05.000Z' };
      return new Response(JSON.stringify(body), {
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  window.history.replaceState(null, '', path);
  const client = createQueryClient();
  const router = createAppRouter(client);
  return { asked, client, router };
}

describe('createAppRouter', () => {
  it('asks for the event types and the session when /event-types opens, before any page renders', async () => {
    const { asked, router } = open('/event-types');
    // Nothing is rendered here: only the routes' loaders can have asked.
    await vi.waitFor(() => expect(asked).toContain('/api/event-types'));
    expect(asked).toContain('/api/session');
    router.dispose();
  });

  it('does not ask again when a filter changes the URL', async () => {
    const { asked, client, router } = open('/event-types');
    await vi.waitFor(() =>
      expect(router.state.initialized && client.isFetching() === 0).toBe(true),
    );
    // Nor do the loaders run again: each would turn the click into an asynchronous navigation.
    const started = vi.spyOn(client, 'prefetchQuery');
    await router.navigate('/event-types?modules=Consent');
    await router.navigate('/event-types?modules=Consent&objectTypes=Purpose');
    expect(router.state.location.search).toBe('?modules=Consent&objectTypes=Purpose');
    expect(asked.filter((path) => path === '/api/event-types')).toHaveLength(1);
    expect(started).not.toHaveBeenCalled();
    router.dispose();
  });

  it('leaves the list alone on other pages', async () => {
    const { asked, router } = open('/rate-limits');
    await vi.waitFor(() => expect(asked).toContain('/api/session'));
    expect(asked).not.toContain('/api/event-types');
    router.dispose();
  });
});
