// The Integrations page as an admin meets it: each registered integration with its owner, the
// hint of its current key and its last report; "None yet." before the first; and the list's
// failure said in words with a way to try again, while registering stays possible.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Integration } from '../../../shared/integrations';
import { IntegrationsPage } from './integrations-page';

const nightly: Integration = {
  id: '0194b6c2-8000-7000-8000-000000000001',
  name: 'Nightly consent sync',
  owner: 'data-platform team',
  connection: 'default',
  status: 'active',
  createdAt: '2025-01-06T09:00:00.000Z',
  keyIssuedAt: '2025-01-06T09:00:00.000Z',
  keyHint: 'x7Qa',
  lastReportAt: null,
};
const retired: Integration = {
  ...nightly,
  id: '0194b6c2-8000-7000-8000-000000000002',
  name: 'Old CRM export',
  owner: null,
  status: 'revoked',
  keyHint: null,
};

/** Answers GET /api/integrations with `answer` (a list, or a problem). */
function serve(answer: () => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) =>
      input === '/api/integrations' ? answer() : new Response(null, { status: 404 }),
    ),
  );
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <IntegrationsPage />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('IntegrationsPage', () => {
  it('lists each integration with its owner, key hint and the actions its state allows', async () => {
    serve(() => Response.json({ items: [nightly, retired] }));
    renderPage();
    const active = await screen.findByRole('row', { name: /Nightly consent sync/ });
    expect(active).toHaveTextContent('data-platform team');
    expect(active).toHaveTextContent('…x7Qa issued');
    expect(within(active).getByRole('button', { name: 'Rotate key' })).toBeInTheDocument();
    const revoked = screen.getByRole('row', { name: /Old CRM export/ });
    expect(revoked).toHaveTextContent('revoked');
    expect(
      within(revoked).getByRole('button', { name: 'Reinstate with new key' }),
    ).toBeInTheDocument();
    expect(within(revoked).queryByRole('button', { name: /Revoke/ })).toBeNull();
  });

  it('says none are registered yet', async () => {
    serve(() => Response.json({ items: [] }));
    renderPage();
    expect(await screen.findByText('None yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says the list could not be loaded, with the reason, and loads it again on request', async () => {
    let failing = true;
    serve(() =>
      failing
        ? Response.json(
            {
              type: 'https://console.example/problems/store-unavailable',
              title: 'The store is unavailable',
              status: 503,
              detail: 'The console’s database does not answer.',
            },
            { status: 503, headers: { 'Content-Type': 'application/problem+json' } },
          )
        : Response.json({ items: [nightly] }),
    );
    renderPage();
    expect(await screen.findByText('The list could not be loaded')).toBeInTheDocument();
    expect(screen.getByText(/database does not answer/)).toBeInTheDocument();
    // Registering does not depend on the list.
    expect(screen.getByRole('button', { name: 'Register and show key' })).toBeEnabled();
    failing = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('row', { name: /Nightly consent sync/ })).toBeInTheDocument();
  });
});
