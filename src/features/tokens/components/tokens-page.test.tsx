// The Tokens page: roles offered up to one's own, the token shown once with a warning and a copy
// button, and revoking asked in the row (no browser dialog) before anything is sent.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiToken, CreatedApiToken } from '../../../shared/api-tokens';
import type { Role } from '../../../shared/session';
import { TokensPage } from './tokens-page';

const listed: ApiToken = {
  id: 'tok1',
  name: 'Nightly export',
  owner: 'alice',
  role: 'auditor',
  createdAt: '2030-01-01T09:00:00.000Z',
  expiresAt: '2099-01-01T09:00:00.000Z',
  lastUsedAt: null,
};
const TOKEN = `pac_${'x'.repeat(43)}`;

function serve(role: Role) {
  const sent: Array<{ url: string; method: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      sent.push({ url: input, method, body: init?.body ? JSON.parse(String(init.body)) : null });
      if (input === '/api/session') return Response.json({ username: 'alice', role });
      if (input === '/api/tokens' && method === 'GET') return Response.json({ items: [listed] });
      if (input === '/api/tokens' && method === 'POST') {
        const created: CreatedApiToken = { ...listed, id: 'tok2', name: 'CI', token: TOKEN };
        return Response.json(created, { status: 201 });
      }
      if (input === '/api/tokens/tok1' && method === 'DELETE') return Response.json(listed);
      return new Response(null, { status: 404 });
    }),
  );
  return sent;
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <TokensPage />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('TokensPage', () => {
  it('offers an admin every role, and anyone else only their own', async () => {
    serve('admin');
    const { unmount } = renderPage();
    const roles = await screen.findByLabelText('Role');
    await screen.findByRole('option', { name: 'auditor' });
    expect(
      within(roles)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['admin', 'auditor', 'support']);
    unmount();
    vi.unstubAllGlobals();
    serve('auditor');
    renderPage();
    await screen.findByRole('option', { name: 'auditor' });
    expect(
      within(screen.getByLabelText('Role'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['auditor']);
  });

  it('shows the new token once, with the warning and a copy button', async () => {
    const sent = serve('auditor');
    renderPage();
    const user = userEvent.setup();
    await screen.findByRole('option', { name: 'auditor' });
    await user.type(screen.getByLabelText('Name'), 'CI');
    await user.selectOptions(screen.getByLabelText('Expires after'), '30 days');
    await user.click(screen.getByRole('button', { name: 'Make the token' }));
    expect(await screen.findByTestId('created-token')).toHaveTextContent(TOKEN);
    expect(screen.getByRole('alert')).toHaveTextContent(/shown this once/);
    expect(screen.getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    expect(sent.find((request) => request.method === 'POST')?.body).toEqual({
      name: 'CI',
      role: 'auditor',
      expiresInDays: 30,
    });
    await user.click(screen.getByRole('button', { name: 'I have stored it' }));
    expect(screen.queryByTestId('created-token')).not.toBeInTheDocument();
  });

  it('asks in the row before revoking, without a browser dialog, and can be kept', async () => {
    const sent = serve('support');
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    renderPage();
    const user = userEvent.setup();
    const row = await screen.findByRole('row', { name: /Nightly export/ });
    expect(row).toHaveTextContent('never');
    await user.click(within(row).getByRole('button', { name: 'Revoke' }));
    await user.click(within(row).getByRole('button', { name: 'Keep it' }));
    expect(sent.some((request) => request.method === 'DELETE')).toBe(false);
    await user.click(within(row).getByRole('button', { name: 'Revoke' }));
    await user.click(within(row).getByRole('button', { name: 'Revoke “Nightly export”' }));
    await waitFor(() =>
      expect(sent.some((r) => r.method === 'DELETE' && r.url === '/api/tokens/tok1')).toBe(true),
    );
    expect(confirm).not.toHaveBeenCalled();
  });
});
