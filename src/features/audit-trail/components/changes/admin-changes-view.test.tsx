// The audit page's administrative changes as an auditor reads them, with a stubbed BFF: a tab of
// its own whose filters are in the URL, each change as a sentence with who (a token beside its
// owner), when and from where, and its before and after behind a disclosure, fingerprints marked.
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  jsonAnswer as json,
  renderRoute,
  stubApiPerTest,
} from '../../../../lib/test-support/render-with-queries';
import type { AdminChange } from '../../../../shared/admin-changes';
import { AuditTrailPage } from '../audit-trail-page';

const CHANGES: AdminChange[] = [
  {
    id: 'c2',
    at: '2026-03-01T10:00:00.000Z',
    user: 'ada',
    token: { id: 't1', name: 'deploy' },
    address: '203.0.113.7',
    action: 'threshold.changed',
    target: 'account-minute:MINUTE',
    before: { percent: 80 },
    after: { percent: 55 },
    connection: 'default',
  },
  {
    id: 'c1',
    at: '2026-03-01T09:00:00.000Z',
    user: 'admin',
    token: null,
    address: '198.51.100.23',
    action: 'alert-destination.created',
    target: '0190c0de',
    before: null,
    after: { name: 'SIEM', secret: 'sha256:0123456789abcdef' },
    connection: 'uat',
  },
];

const asked: string[] = [];
const exports: string[] = [];
stubApiPerTest((url, init) => {
  if (url === '/api/audit-trail/changes/export') {
    exports.push(String(init?.body));
    return new Response('id,at\r\n', {
      headers: {
        'Content-Type': 'text/csv',
        'X-Export-Id': '22222222-2222-4222-8222-222222222222',
        'Content-Disposition': 'attachment; filename="audit-changes-2026-03-01-10-00-00.csv"',
      },
    });
  }
  if (url === '/api/audit-trail/exports/22222222-2222-4222-8222-222222222222/signature') {
    return json({
      version: 2,
      algorithm: 'Ed25519',
      exportId: '22222222-2222-4222-8222-222222222222',
      createdAt: '2026-03-01T10:00:00.000Z',
      format: 'csv',
      scope: 'administrative changes, filters: kind threshold',
      records: 1,
      bytes: 7,
      sha256: 'ab',
      keyFingerprint: '0123456789abcdef',
      publicKey: 'PEM',
      signature: 'c2ln',
    });
  }
  if (url.startsWith('/api/audit-trail/changes')) {
    asked.push(url);
    const kind = new URL(url, 'http://console.test').searchParams.get('kind');
    return json({
      items: kind === 'token' ? [] : CHANGES,
      nextCursor: null,
    });
  }
  if (url === '/api/audit-trail/integrity') return json({});
  if (url === '/api/connections') {
    return json({
      connections: [
        { name: 'default', label: 'Production (EU)', colour: 'blue', role: 'auditor' },
        { name: 'uat', label: 'UAT', colour: 'green', role: 'auditor' },
      ],
    });
  }
  if (url.startsWith('/api/audit-trail')) return json({ items: [], nextCursor: null });
  return undefined;
});

const renderPage = (path: string) => renderRoute('/audit', <AuditTrailPage />, path);

describe('the administrative changes view', () => {
  it('is a tab of its own, kept in the URL, reached with the keyboard', async () => {
    const { user, router } = renderPage('/audit');
    const lookups = screen.getByRole('tab', { name: 'Lookups' });
    expect(lookups).toHaveAttribute('aria-selected', 'true');
    lookups.focus();
    await user.keyboard('{ArrowRight}');
    const tab = screen.getByRole('tab', { name: 'Administrative changes' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    expect(tab).toHaveFocus();
    expect(router.state.location.search).toBe('?view=changes');
    expect(await screen.findByRole('table', { name: 'Administrative changes' })).toBeVisible();
  });

  it('says what changed, who with which token, when, from where, and before and after', async () => {
    const { user } = renderPage('/audit?view=changes');
    const table = await screen.findByRole('table', { name: 'Administrative changes' });
    const [, threshold, destination] = within(table).getAllByRole('row');
    expect(threshold).toHaveTextContent('Changed the alert threshold of “account-minute:MINUTE”');
    expect(threshold).toHaveTextContent('ada');
    expect(threshold).toHaveTextContent('with the token “deploy”');
    expect(threshold).toHaveTextContent('203.0.113.7');
    expect(within(threshold!).getByText(/2026-03-01 \d\d:00:00 (GMT|UTC)/)).toBeVisible();
    await user.click(within(threshold!).getByText('Before and after'));
    expect(within(threshold!).getByText('percent: 80')).toBeVisible();
    expect(within(threshold!).getByText('percent: 55')).toBeVisible();
    expect(destination).toHaveTextContent('Added the alert destination “SIEM”');
    expect(destination).toHaveTextContent('secret: fingerprint sha256:0123456789abcdef');
    expect(destination).toHaveTextContent('did not exist');
    // Where each was made.
    expect(within(table).getByRole('columnheader', { name: 'Connection' })).toBeVisible();
    expect(await within(threshold!).findByText('Production (EU)')).toBeVisible();
    expect(within(destination!).getByText('UAT')).toBeVisible();
  });

  it('filters by connection through the URL, and exports what it shows', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    exports.length = 0;
    const { user, router } = renderPage('/audit?view=changes');
    await screen.findByRole('table', { name: 'Administrative changes' });
    await screen.findByRole('option', { name: 'UAT' });
    await user.selectOptions(screen.getByLabelText('Connection'), 'uat');
    expect(router.state.location.search).toBe('?view=changes&connection=uat');
    expect(asked.at(-1)).toBe('/api/audit-trail/changes?connection=uat');
    const group = await screen.findByRole('group', { name: 'Export the filtered changes' });
    await user.click(within(group).getByRole('button', { name: 'Export CSV' }));
    await screen.findByText(/Saved audit-changes-2026-03-01-10-00-00\.csv/);
    expect(exports.map((body) => JSON.parse(body) as unknown)).toEqual([
      { format: 'csv', filters: { connection: 'uat' } },
    ]);
  });

  it('filters by kind through the URL, and says when nothing matches', async () => {
    const { user, router } = renderPage('/audit?view=changes');
    await screen.findByRole('table', { name: 'Administrative changes' });
    await user.selectOptions(screen.getByLabelText('Kind'), 'token');
    expect(router.state.location.search).toBe('?view=changes&kind=token');
    expect(await screen.findByText('No change matches these filters.')).toBeVisible();
    expect(asked.at(-1)).toBe('/api/audit-trail/changes?kind=token');
  });

  it('exports the changes its filters show, with their signature', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    exports.length = 0;
    const { user } = renderPage('/audit?view=changes&kind=threshold&user=ada');
    const group = await screen.findByRole('group', { name: 'Export the filtered changes' });
    await user.click(within(group).getByRole('button', { name: 'Export CSV' }));
    expect(
      await screen.findByText(/Saved audit-changes-2026-03-01-10-00-00\.csv \(1 change\)/),
    ).toHaveTextContent('audit-changes-2026-03-01-10-00-00.csv.sig.json (key 0123456789abcdef)');
    expect(exports.map((body) => JSON.parse(body) as unknown)).toEqual([
      { format: 'csv', filters: { user: 'ada', kind: 'threshold' } },
    ]);
  });
});
