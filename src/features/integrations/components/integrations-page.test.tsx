// One connection's Integrations page as an admin meets it at `/c/uat/integrations`: UAT's
// registered integrations with their owner, the hint of their current key and their last report;
// "None yet." before the first; the list's failure said in words with a way to try again, while
// registering stays possible; and a registration made in UAT, its key said to be UAT's.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Integration } from '../../../shared/integrations';
import { jsonAnswer, renderRoute } from '../../../lib/test-support/render-with-queries';
import { IntegrationsPage } from './integrations-page';

const CONNECTIONS = [
  { name: 'default', label: 'Production (EU)', colour: 'blue', role: 'admin' },
  { name: 'uat', label: 'UAT', colour: 'green', role: 'admin' },
];
const UAT_REGISTRY = '/api/connections/uat/integrations';

const nightly: Integration = {
  id: '0194b6c2-8000-7000-8000-000000000001',
  name: 'Nightly consent sync',
  owner: 'data-platform team',
  connection: 'uat',
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

/**
 * Answers GET of UAT's registry with `answer` (a list, or a problem), a registration there with
 * `registered`, and the person's connections; returns the requests other than GETs.
 */
function serve(answer: () => Response, registered?: () => Response) {
  const changes: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (method !== 'GET') changes.push(`${method} ${input}`);
      if (input === '/api/connections') return jsonAnswer({ connections: CONNECTIONS });
      if (input === UAT_REGISTRY && method === 'GET') return answer();
      if (input === UAT_REGISTRY && registered) return registered();
      return new Response(null, { status: 404 });
    }),
  );
  return changes;
}

const renderPage = () =>
  renderRoute('/c/:connection/integrations', <IntegrationsPage />, '/c/uat/integrations');

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

  it('registers in the connection of its address and says the key is that connection’s', async () => {
    const changes = serve(
      () => Response.json({ items: [] }),
      () => Response.json({ integration: nightly, key: 'pacr_uatKeyShownOnce' }, { status: 201 }),
    );
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'Register an integration of UAT' }),
    ).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Nightly consent sync');
    await user.click(screen.getByRole('button', { name: 'Register and show key' }));
    const key = await screen.findByTestId('issued-key');
    expect(changes).toEqual([`POST ${UAT_REGISTRY}`]);
    const panel = key.closest('.one-time-secret')!;
    expect(panel).toHaveTextContent('The key belongs to UAT');
    expect(panel).toHaveTextContent(/reports to \/api\/integrations\/reports on this console/);
  });
});
