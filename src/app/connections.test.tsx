// A person's connections in the SPA: old addresses lead to the first connection's page with their
// query, a connection that is not theirs gets a page saying so, and the header's switcher opens
// the same page of the other connection with the filters kept, from the other connection's cache.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonAnswer } from '../lib/test-support/render-with-queries';
import { usePageConnectionName } from '../lib/connections-query';
import { eventTypesQueryKeys, useEventTypes } from '../features/event-types/api/get-event-types';
import { ConnectionGate, OldPageRedirect } from './connection-gate';
import { ConnectionSwitcher } from './connection-switcher';

const CONNECTIONS = [
  { name: 'default', label: 'Production (EU)', colour: 'blue', role: 'admin' },
  { name: 'uat', label: 'UAT', colour: 'green', role: 'support' },
];

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A page that shows where it is and how many event types its connection has. */
function ProbePage() {
  const location = useLocation();
  const list = useEventTypes(usePageConnectionName());
  return (
    <p>
      at {location.pathname + location.search}: {list.data?.items.length ?? '…'} event types
    </p>
  );
}

/** The frame (switcher) and the routes of the app, as router.tsx lays them out, at `path`. */
function open(path: string) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      asked.push(url);
      if (url === '/api/connections') return jsonAnswer({ connections: CONNECTIONS });
      const count = url === '/api/connections/uat/event-types' ? 2 : 3;
      const item = { code: 1, value: 'Consent given', moduleName: 'Consent' };
      return jsonAnswer({ items: Array(count).fill(item), fetchedAt: '2026-01-02T03:04:05.000Z' });
    }),
  );
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <ConnectionSwitcher />
            <Outlet />
          </>
        ),
        children: [
          { path: 'event-types', element: <OldPageRedirect page="event-types" /> },
          { path: 'data-subjects', element: <OldPageRedirect page="data-subjects" /> },
          {
            path: 'c/:connection',
            element: <ConnectionGate />,
            children: [
              { path: 'event-types', element: <ProbePage /> },
              { path: 'data-subjects', element: <ProbePage /> },
              { path: 'planning', element: <ProbePage /> },
            ],
          },
          { path: 'audit', element: <p>audit trail</p> },
          { path: 'alerts', element: <p>alerts</p> },
          { path: 'planning', element: <OldPageRedirect page="planning" /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { asked, client, router };
}

describe('connections in the SPA', () => {
  it('sends an old address to the first connection’s page, keeping its query', async () => {
    const { router } = open('/event-types?module=Consent&q=given');
    expect(
      await screen.findByText('at /c/default/event-types?module=Consent&q=given: 3 event types'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/c/default/event-types');
  });

  it('says there is no such connection, links to the person’s own, and asks for no data', async () => {
    const { asked } = open('/c/staging/event-types');
    expect(
      await screen.findByRole('heading', { name: 'No connection named “staging”' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'UAT' })).toHaveAttribute('href', '/c/uat/event-types');
    expect(screen.getByRole('link', { name: 'Production (EU)' })).toHaveAttribute(
      'href',
      '/c/default/event-types',
    );
    expect(asked).toEqual(['/api/connections']);
  });

  it('switches to the same page of the other connection, filters kept, each list apart', async () => {
    const { asked, client, router } = open('/c/default/event-types?module=Consent&incident=rl-9');
    expect(await screen.findByText(/3 event types/)).toBeInTheDocument();
    const switcher = screen.getByRole('combobox', { name: 'Connection' });
    // The switcher is the badge: the connection's label, in its colour.
    expect(switcher).toHaveValue('default');
    expect(switcher).toHaveAttribute('data-colour', 'blue');
    await userEvent.selectOptions(switcher, 'uat');
    expect(
      await screen.findByText('at /c/uat/event-types?module=Consent: 2 event types'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/c/uat/event-types');
    expect(switcher).toHaveValue('uat');
    expect(switcher).toHaveAttribute('data-colour', 'green');
    expect(asked).toContain('/api/connections/uat/event-types');
    // Production's list is still production's: the two never share a cache entry.
    expect(client.getQueryData(eventTypesQueryKeys.list('default'))).toMatchObject({
      items: { length: 3 },
    });
    expect(client.getQueryData(eventTypesQueryKeys.list('uat'))).toMatchObject({
      items: { length: 2 },
    });
  });

  it('leads the old data-subjects address to the first connection’s, whose header has the switcher', async () => {
    const { router } = open('/data-subjects?operation=v4-details');
    await screen.findByText(/^at \/c\/default\/data-subjects\?operation=v4-details/);
    expect(router.state.location.pathname).toBe('/c/default/data-subjects');
    // The page names its connection: the switcher, not a note that it serves the first one.
    expect(screen.getByRole('combobox', { name: 'Connection' })).toHaveValue('default');
    expect(screen.queryByText(/^Serves /)).toBeNull();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Connection' }), 'uat');
    expect(router.state.location.pathname + router.state.location.search).toBe(
      '/c/uat/data-subjects?operation=v4-details',
    );
  });

  it('sends the old planning address to the first connection’s planning, with the switcher', async () => {
    const { router } = open('/planning?tab=migration&period=day');
    expect(
      await screen.findByText('at /c/default/planning?tab=migration&period=day: 3 event types'),
    ).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Connection' })).toHaveValue('default');
    expect(screen.queryByText('Serves Production (EU)')).toBeNull();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Connection' }), 'uat');
    expect(router.state.location.pathname).toBe('/c/uat/planning');
    expect(router.state.location.search).toBe('?tab=migration&period=day');
  });

  it('says which connection a console-wide page serves, and none on the audit trail', async () => {
    const { router } = open('/alerts');
    expect(await screen.findByText('Serves Production (EU)')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Connection' })).toBeNull();
    await router.navigate('/audit');
    await waitFor(() => expect(screen.queryByText(/Production \(EU\)/)).toBeNull());
    expect(screen.getByText('audit trail')).toBeInTheDocument();
  });
});
