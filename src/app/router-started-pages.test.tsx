// On an old address, the router starts the page's code and the requests that place it before the
// code that reads their answers has loaded: neither waits for a download it does not need.
import { waitFor } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client';
import { createAppRouter } from './router';

/** Modules of the pages' chunks this test saw imported. */
const imported = vi.hoisted(() => new Set<string>());
/** Holds the rate-limits page's chunks back until the tests are done. */
const chunks = vi.hoisted(() => {
  let load!: () => void;
  const loaded = new Promise<void>((resolve) => (load = resolve));
  return { loaded, load };
});

// The account-wide view's fetcher, a chunk of the rate-limits page's own, does not finish loading
// during the tests, nor does the page: what the router asks for cannot have waited for them.
vi.mock('../features/rate-limits/api/account-usage-api', async (importOriginal) => {
  await chunks.loaded;
  return importOriginal();
});
vi.mock('../features/rate-limits/components/rate-limits-page', async (importOriginal) => {
  await chunks.loaded;
  return importOriginal();
});
vi.mock('../features/planning/components/planning-page', () => {
  imported.add('planning-page');
  return { PlanningPage: () => null };
});

const CONNECTIONS = {
  connections: [{ name: 'default', label: 'Production (EU)', colour: 'blue', role: 'admin' }],
};

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});
// Loaded before the test environment goes, which cannot load a module any more.
afterAll(async () => {
  chunks.load();
  await import('../features/rate-limits/components/rate-limits-page');
});

/**
 * Opens `path` in a fresh router, records the /api paths it asks for, and holds the connections'
 * answer until `answerConnections` is called.
 */
function open(path: string) {
  const asked: string[] = [];
  let answerConnections!: () => void;
  const connections = new Promise<void>((resolve) => (answerConnections = resolve));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input instanceof Request ? input.url : input), location.origin);
      asked.push(url.pathname);
      if (url.pathname === '/api/connections') await connections;
      const body =
        url.pathname === '/api/session'
          ? { username: 'ada', role: 'admin' }
          : url.pathname === '/api/connections'
            ? CONNECTIONS
            : {};
      return new Response(JSON.stringify(body), {
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  window.history.replaceState(null, '', path);
  const router = createAppRouter(createQueryClient());
  return { asked, router, answerConnections };
}

describe('createAppRouter on an old address', () => {
  it('asks for everything that places the rate-limits page before that page’s fetchers have loaded', async () => {
    const { asked, router, answerConnections } = open('/rate-limits');
    answerConnections();
    await waitFor(() =>
      expect(asked).toEqual(
        expect.arrayContaining([
          '/api/meta',
          '/api/connections/default/rate-limits/rules',
          '/api/connections/default/rate-limits/usage',
          '/api/connections/default/account-usage',
        ]),
      ),
    );
    router.dispose();
  });

  it('loads the planning page’s code while the connections are still on their way', async () => {
    const { asked, router, answerConnections } = open('/planning');
    await waitFor(() => expect(imported).toContain('planning-page'));
    expect(asked).toEqual(['/api/session', '/api/connections']);
    answerConnections();
    await waitFor(() => expect(router.state.location.pathname).toBe('/c/default/planning'));
    router.dispose();
  });
});
