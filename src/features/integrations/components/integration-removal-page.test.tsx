// Removing an integration on the page: offered only once it is revoked, asked in the page, and
// never left asked by the revocation that made it removable.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  jsonAnswer,
  renderRoute,
  stubApiPerTest,
} from '../../../lib/test-support/render-with-queries';
import type { Integration } from '../../../shared/integrations';
import { IntegrationsPage } from './integrations-page';

const ID = '019cae6a-0000-7000-8000-000000000001';
const REGISTRY = '/api/connections/default/integrations';
let item: Integration;
const calls: string[] = [];

stubApiPerTest((url, init) => {
  const method = init?.method ?? 'GET';
  if (method !== 'GET') calls.push(`${method} ${url}`);
  if (url === '/api/connections') {
    return jsonAnswer({
      connections: [{ name: 'default', label: 'Production (EU)', colour: 'blue', role: 'admin' }],
    });
  }
  if (url === REGISTRY && method === 'GET') return jsonAnswer({ items: [item] });
  if (url === `${REGISTRY}/${ID}/revoke`) {
    item = { ...item, status: 'revoked', keyHint: null };
    return jsonAnswer(item);
  }
  if (url === `${REGISTRY}/${ID}` && method === 'DELETE')
    return new Response(null, { status: 204 });
  return undefined;
});

describe('IntegrationsPage', () => {
  it('offers Remove only after a revocation, as a question asked in the page', async () => {
    calls.length = 0;
    item = {
      id: ID,
      name: 'Nightly sync',
      owner: null,
      connection: 'default',
      status: 'active',
      createdAt: '2026-03-10T09:00:00.000Z',
      keyIssuedAt: '2026-03-10T09:00:00.000Z',
      keyHint: 'abcd',
      lastReportAt: null,
    };
    renderRoute('/c/:connection/integrations', <IntegrationsPage />, '/c/default/integrations');
    const user = userEvent.setup();
    const row = () => screen.getByRole('row', { name: /Nightly sync/ });
    await screen.findByRole('rowheader', { name: 'Nightly sync' });
    expect(within(row()).queryByRole('button', { name: 'Remove' })).toBeNull();

    await user.click(within(row()).getByRole('button', { name: 'Revoke' }));
    await user.click(within(row()).getByRole('button', { name: 'Revoke' }));
    // Revoked: Remove is a button to press, not a question already asked.
    const remove = await within(row()).findByRole('button', { name: 'Remove' });
    expect(screen.queryByText(/from the list\?/)).toBeNull();
    expect(calls).toEqual([`POST ${REGISTRY}/${ID}/revoke`]);

    await user.click(remove);
    expect(screen.getByText(/^Remove Nightly sync from the list\?/)).toBeInTheDocument();
    const confirm = within(row()).getByRole('button', { name: 'Remove' });
    expect(confirm).toHaveFocus();
    await user.click(confirm);
    expect(calls).toEqual([`POST ${REGISTRY}/${ID}/revoke`, `DELETE ${REGISTRY}/${ID}`]);
    // Two confirmations and two refetches of the list: room on a busy machine.
  }, 20_000);
});
