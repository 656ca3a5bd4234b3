// The audit page as an admin uses it, with a stubbed BFF: the trail newest first with filters in
// the URL, and the lookups of one identifier found by typing it, which travels in a request body
// and never reaches the URL.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditRecord } from '../../../shared/audit-trail';
import { AuditTrailPage } from './audit-trail-page';

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

const record = (overrides: Partial<AuditRecord>): AuditRecord => ({
  id: crypto.randomUUID(),
  at: '2026-03-01T09:00:00.000Z',
  user: 'admin',
  operation: 'v4-details',
  outcome: 'ok',
  status: 200,
  detail: null,
  identifierHashed: true,
  continued: false,
  ...overrides,
});

const TRAIL = [
  record({
    operation: 'v4-basic-details',
    outcome: 'not-found',
    status: 404,
    detail: '/problems/data-subject-not-found',
  }),
  record({ operation: 'v4-link-tokens', identifierHashed: false, continued: true }),
  record({
    operation: 'v2-datasubjects',
    outcome: 'rate-limited',
    status: 429,
    detail: 'incident 1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  }),
];

const calls: Array<{ url: string; body?: string }> = [];

beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, ...(init?.body ? { body: String(init.body) } : {}) });
      if (url === '/api/audit-trail/search') {
        return json({ items: [TRAIL[2]], nextCursor: null });
      }
      if (url.startsWith('/api/audit-trail')) return json({ items: TRAIL, nextCursor: null });
      return json({ type: '/problems/not-found', title: 'nope', status: 404 }, 404);
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderPage(path = '/audit') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/audit', element: <AuditTrailPage /> }], {
    initialEntries: [path],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, user: userEvent.setup() };
}

describe('AuditTrailPage', () => {
  it('lists the trail with readable outcomes and puts filters in the URL', async () => {
    const { user, router } = renderPage();
    const table = await screen.findByRole('table', { name: 'Audit trail' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(rows[1]).toHaveTextContent('v4 · Basic details');
    expect(rows[1]).toHaveTextContent('Not found');
    expect(rows[1]).toHaveTextContent('data subject not found');
    expect(rows[2]).toHaveTextContent('no identifier · next page of a listing');
    expect(rows[3]).toHaveTextContent('Rate limited');

    await user.selectOptions(screen.getByLabelText('Outcome'), 'rate-limited');
    expect(router.state.location.search).toBe('?outcome=rate-limited');
    expect(calls.at(-1)?.url).toBe('/api/audit-trail?outcome=rate-limited');
  });

  it('finds the lookups of a typed identifier, sending it in the body only', async () => {
    const { user, router } = renderPage();
    await user.type(await screen.findByLabelText('Identifier'), 'ada.lovelace@example.com');
    await user.click(screen.getByRole('button', { name: 'Find lookups' }));
    const found = await screen.findByRole('table', { name: 'Lookups of the identifier' });
    expect(within(found).getAllByRole('row')).toHaveLength(2);
    expect(screen.getByText('1 lookup of this identifier.')).toBeInTheDocument();
    const search = calls.find((call) => call.url === '/api/audit-trail/search');
    expect(JSON.parse(search?.body ?? '{}')).toEqual({ identifier: 'ada.lovelace@example.com' });
    expect(calls.filter((call) => call.url.includes('lovelace'))).toEqual([]);
    expect(JSON.stringify(router.state.location)).not.toContain('lovelace');

    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(screen.getByLabelText('Identifier')).toHaveValue('');
    expect(
      screen.queryByRole('table', { name: 'Lookups of the identifier' }),
    ).not.toBeInTheDocument();
  });
});
