// The audit page as an admin uses it, with a stubbed BFF: the trail newest first with filters in
// the URL; the lookups that asked for or showed one identifier, found by typing it (it travels in a
// request body and never reaches the URL), with how it was matched; when the chain was last
// verified; and an export saved with its signature. Each record says which platform connection it
// happened in (the label of one the person knows, else its name), and the trail filters by one.
import { cleanup, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  jsonAnswer as json,
  renderRoute,
  stubApiPerTest,
} from '../../../lib/test-support/render-with-queries';
import type { AuditRecord } from '../../../shared/audit-trail';
import { AuditTrailPage } from './audit-trail-page';

const record = (overrides: Partial<AuditRecord>): AuditRecord => ({
  id: crypto.randomUUID(),
  at: '2026-03-01T09:00:00.000Z',
  user: 'admin',
  connection: 'default',
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
    purpose: { category: 'access request', reference: 'DSAR-2291' },
  }),
  record({
    operation: 'v4-link-tokens',
    identifierHashed: false,
    continued: true,
    purpose: null,
    // A connection this person has no role in: the trail still says where it happened.
    connection: 'uat',
  }),
  record({
    operation: 'v2-datasubjects',
    outcome: 'rate-limited',
    status: 429,
    detail: 'incident 1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  }),
];

const calls: Array<{ url: string; body?: string }> = [];
let searchFindsNothing = false;
let chainBroken = false;
let linksCut = false;
/** A first visit: the only walk so far was of the empty trail. */
let emptyWalk = false;
let role: 'admin' | 'auditor' = 'admin';

beforeEach(() => {
  emptyWalk = false;
  role = 'admin';
  calls.length = 0;
  searchFindsNothing = false;
  chainBroken = false;
  linksCut = false;
});
stubApiPerTest((url, init) => {
  calls.push({ url, ...(init?.body ? { body: String(init.body) } : {}) });
  if (url === '/api/session') return json({ username: 'ada', role });
  if (url === '/api/connections') {
    return json({
      connections: [{ name: 'default', label: 'Production (EU)', colour: 'blue', role }],
    });
  }
  if (url === '/api/audit-trail/search' && searchFindsNothing) {
    return json({
      items: [],
      nextCursor: null,
      match: { rule: 'email', forms: 1 },
      links: { keys: 1, max: 64, complete: true },
    });
  }
  if (url === '/api/audit-trail/search') {
    return json({
      items: [
        { ...TRAIL[2], matchedBy: 'asked' },
        {
          ...record({ operation: 'v4-link-tokens', identifierHashed: false, continued: true }),
          matchedBy: 'linked',
          matchedKeys: ['subject-id', 'link-token'],
          matchedThroughLink: true,
          recordCount: 50,
          subjectCount: 50,
          params: [{ name: 'fromDate', value: '2026-02-01T00:00:00.000Z' }],
        },
      ],
      nextCursor: null,
      match: { rule: 'email', forms: 2 },
      links: linksCut
        ? { keys: 64, max: 64, complete: false }
        : { keys: 3, max: 64, complete: true },
    });
  }
  if (url === '/api/audit-trail/integrity') {
    return json({
      lastVerification: chainBroken
        ? {
            at: '2026-03-01T10:00:00.000Z',
            ok: false,
            entries: 174,
            brokenAt: 175,
            detail:
              'the chain ends at entry 174, but the checkpoint taken 2026-03-01T09:55:00.000Z (AUDIT_CHECKPOINT_DIR/audit-checkpoints.jsonl) signed entry 479: 305 entries are missing (the newest entries were cut off, or the trail was wiped)',
            source: 'admin on the audit page',
          }
        : {
            at: '2026-03-01T10:00:00.000Z',
            ok: true,
            entries: emptyWalk ? 0 : 12,
            brokenAt: null,
            detail: emptyWalk ? '0 entries intact' : '12 entries intact',
            source: 'the daily retention job',
          },
      retention: { days: 730, lastRun: null },
      exportMaxRecords: 100000,
      entriesSinceVerification: chainBroken ? null : 3,
      checkpoints: {
        everyMinutes: 5,
        outsideDirectory: chainBroken,
        outsideFailure: chainBroken
          ? {
              at: '2026-03-01T09:55:00.000Z',
              error:
                'the checkpoint of entry 479 could not be written to AUDIT_CHECKPOINT_DIR/audit-checkpoints.jsonl: it is a FIFO (named pipe), not a regular file',
            }
          : null,
        latest: { seq: 12, at: '2026-03-01T09:55:00.000Z', keyFingerprint: '0123456789abcdef' },
      },
    });
  }
  if (url === '/api/audit-trail/export') {
    return new Response('id,at\r\n', {
      headers: {
        'Content-Type': 'text/csv',
        'X-Export-Id': '11111111-1111-4111-8111-111111111111',
        'Content-Disposition': 'attachment; filename="audit-trail-2026-03-01-10-00-00.csv"',
      },
    });
  }
  if (url.endsWith('/signature')) {
    return json({
      version: 1,
      algorithm: 'Ed25519',
      exportId: '11111111-1111-4111-8111-111111111111',
      createdAt: '2026-03-01T10:00:00.000Z',
      format: 'csv',
      scope: 'lookups that asked for or showed one identifier',
      records: 2,
      bytes: 7,
      sha256: 'ab',
      keyFingerprint: '0123456789abcdef',
      publicKey: 'PEM',
      signature: 'c2ln',
    });
  }
  if (url.startsWith('/api/audit-trail?user=nobody')) return json({ items: [], nextCursor: null });
  if (url.startsWith('/api/audit-trail')) return json({ items: TRAIL, nextCursor: null });
  if (url === '/api/meta') {
    return json({
      mode: 'live',
      accountTier: 'production',
      demoControls: false,
      lookupPurpose: { mode: 'required', categories: ['access request', 'complaint'] },
    });
  }
  return undefined;
});

const renderPage = (path = '/audit') => renderRoute('/audit', <AuditTrailPage />, path);

describe('AuditTrailPage', () => {
  it('says loudly that the chain is broken, and where first', async () => {
    chainBroken = true;
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      /AUDIT CHAIN BROKEN at entry 175: the chain ends at entry 174, .*305 entries are missing/,
    );
    expect(screen.getByTestId('chain-last-verified')).toHaveTextContent('Broken');
    expect(screen.queryByTestId('entries-since')).toBeNull();
    expect(screen.getByTestId('checkpoints')).not.toHaveTextContent(/not set/);
    expect(screen.getByTestId('checkpoint-dir-failure')).toHaveTextContent(
      /The copy outside the database could not be written at .*the next one is written there again/,
    );
    // The setting and the system's own words are for the operator, folded away.
    expect(screen.getByTestId('operator-hints')).toHaveTextContent(
      /For operators.*the checkpoint of entry 479 .*it is a FIFO \(named pipe\), not a regular file/,
    );
  });

  it('says the chain is not verified yet when the only walk was of an empty trail', async () => {
    emptyWalk = true;
    renderPage();
    const verified = await screen.findByTestId('chain-last-verified');
    expect(verified).toHaveTextContent(/^Not yet/);
    expect(verified).not.toHaveTextContent('0 entries intact');
  });

  it('keeps setting names and commands from auditors, and folds them for admins', async () => {
    role = 'auditor';
    renderPage();
    const checkpoints = await screen.findByTestId('checkpoints');
    expect(checkpoints).toHaveTextContent(/No copy is kept outside the database/);
    expect(document.body).not.toHaveTextContent(/AUDIT_CHECKPOINT_DIR|npm run/);
    cleanup();
    role = 'admin';
    renderPage();
    const hints = await screen.findByTestId('operator-hints');
    expect(hints).not.toHaveAttribute('open');
    expect(within(hints).getByText('For operators')).toBeInTheDocument();
    expect(hints).toHaveTextContent('Set AUDIT_CHECKPOINT_DIR');
  });

  it('lists the trail with readable outcomes and puts filters in the URL', async () => {
    const { user, router } = renderPage();
    const table = await screen.findByRole('table', { name: 'Audit trail' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(rows[1]).toHaveTextContent('v4 · Basic details');
    expect(rows[1]).toHaveTextContent('Not found');
    expect(rows[1]).toHaveTextContent('data subject not found');
    expect(rows[2]).toHaveTextContent('no identifier asked · load-more page');
    expect(rows[1]).toHaveTextContent('Purpose: DSAR-2291 · access request');
    expect(rows[2]).toHaveTextContent('No purpose recorded');
    expect(screen.getByTestId('chain-last-verified')).toHaveTextContent(
      /Intact.*12 entries intact \(by the daily retention job\)/,
    );
    // What was written since the walk is not covered by it, and the page says so.
    expect(screen.getByTestId('entries-since')).toHaveTextContent(
      '3 entries (lookups and changes) written since: not verified yet',
    );
    expect(screen.getByTestId('checkpoints')).toHaveTextContent(
      /Latest: entry 12, .*key 0123456789abcdef.*every 5 minutes/,
    );
    expect(screen.getByTestId('checkpoints')).toHaveTextContent(
      /No copy is kept outside the database/,
    );
    expect(rows[3]).toHaveTextContent('Rate limited');

    await user.selectOptions(screen.getByLabelText('Outcome'), 'rate-limited');
    expect(router.state.location.search).toBe('?outcome=rate-limited');
    expect(calls.at(-1)?.url).toBe('/api/audit-trail?outcome=rate-limited');

    await user.type(screen.getByLabelText('Reference'), 'DSAR-2291');
    expect(router.state.location.search).toBe('?outcome=rate-limited&reference=DSAR-2291');
    expect(calls.at(-1)?.url).toBe('/api/audit-trail?outcome=rate-limited&reference=DSAR-2291');
  });

  it('says where each lookup happened: a known connection’s label, else its name', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Audit trail' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]!).getByRole('columnheader', { name: 'Connection' })).toBeVisible();
    const connectionOf = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .find((cell) => cell.dataset.label === 'Connection');
    await within(table).findAllByText('Production (EU)');
    // The label, and the name the exports and the filter hold beside it.
    expect(connectionOf(rows[1]!)).toHaveTextContent(/^Production \(EU\)default$/);
    expect(connectionOf(rows[2]!)).toHaveTextContent(/^uat$/);
  });

  it('filters by connection, in the URL and in the export of the filtered trail', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const { user, router } = renderPage();
    await screen.findByRole('table', { name: 'Audit trail' });
    await screen.findByRole('option', { name: 'Production (EU)' });
    await user.selectOptions(screen.getByLabelText('Connection'), 'default');
    expect(router.state.location.search).toBe('?connection=default');
    expect(calls.at(-1)?.url).toBe('/api/audit-trail?connection=default');
    const group = await screen.findByRole('group', { name: 'Export the filtered trail' });
    await user.click(within(group).getByRole('button', { name: 'Export CSV' }));
    await screen.findByText(/Saved audit-trail-2026-03-01-10-00-00\.csv/);
    const exported = calls.find((call) => call.url === '/api/audit-trail/export');
    expect(JSON.parse(exported?.body ?? '{}')).toEqual({
      format: 'csv',
      filters: { connection: 'default' },
    });
  });

  it('keeps a shared link’s connection the person has no role in, and drops a malformed one', async () => {
    renderPage('/audit?connection=uat');
    await screen.findByRole('table', { name: 'Audit trail' });
    expect(calls.map((call) => call.url)).toContain('/api/audit-trail?connection=uat');
    expect(screen.getByLabelText('Connection')).toHaveValue('uat');
    cleanup();
    calls.length = 0;
    renderPage('/audit?connection=UAT%2F..');
    await screen.findByRole('table', { name: 'Audit trail' });
    expect(calls.map((call) => call.url)).toContain('/api/audit-trail');
    expect(calls.some((call) => call.url.includes('connection='))).toBe(false);
  });

  it('keeps a reversed period on screen and in the URL, and names it instead of listing', async () => {
    const { router } = renderPage('/audit?since=2026-03-02&until=2026-03-01');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The period ends before it starts' + 'From 2026-03-02 is after To 2026-03-01',
    );
    expect(screen.getByLabelText('From')).toHaveValue('2026-03-02');
    expect(screen.getByLabelText('To')).toHaveValue('2026-03-01');
    expect(router.state.location.search).toBe('?since=2026-03-02&until=2026-03-01');
    expect(calls.filter((call) => call.url.startsWith('/api/audit-trail?'))).toEqual([]);
  });

  it('says that no lookup matches the filters, not that none was recorded', async () => {
    renderPage('/audit?user=nobody');
    expect(await screen.findByText('No lookup matches these filters')).toBeInTheDocument();
    expect(screen.queryByText('No lookups recorded')).toBeNull();
  });

  it('filters by a purpose category of the configured list, kept in the URL', async () => {
    // A shared link may name a category configured no longer: it stays chosen, and offered.
    const { user, router } = renderPage('/audit?category=legal+hold');
    await screen.findByRole('table', { name: 'Audit trail' });
    expect(calls.map((call) => call.url)).toContain('/api/audit-trail?category=legal+hold');
    const category = screen.getByLabelText('Category');
    expect(category).toHaveValue('legal hold');
    await screen.findByRole('option', { name: 'complaint' });
    await user.selectOptions(category, 'complaint');
    expect(router.state.location.search).toBe('?category=complaint');
    expect(calls.at(-1)?.url).toBe('/api/audit-trail?category=complaint');
  });

  it('finds the lookups of a typed identifier, sending it in the body only', async () => {
    const { user, router } = renderPage();
    await user.type(await screen.findByLabelText('Identifier'), 'Ada.Lovelace@example.com');
    await user.click(screen.getByRole('button', { name: 'Find lookups' }));
    const found = await screen.findByRole('table', { name: 'Lookups of the identifier' });
    const rows = within(found).getAllByRole('row');
    expect(rows).toHaveLength(3);
    // Every sight, in whichever connection, says which.
    expect(rows[1]).toHaveTextContent('Production (EU)');
    expect(within(rows[0]!).getByRole('columnheader', { name: 'Connection' })).toBeVisible();
    expect(
      screen.getByText(
        '2 lookups found: 1 asked for this identifier, 0 showed it in a listing or another data subject’s answer, 1 only under another key of the person.',
      ),
    ).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('Linked: another key of the person');
    expect(rows[2]).not.toHaveTextContent(/Asked for|Shown in the answer/);
    expect(rows[2]).toHaveTextContent(
      'Matched by data-subject id and link token, shown with the searched key in another lookup',
    );
    expect(rows[2]).toHaveTextContent('50 records · showed 50 data subjects · load-more page');
    expect(rows[2]).toHaveTextContent('fromDate: 2026-02-01T00:00:00.000Z');
    expect(screen.getByText(/as an e-mail address, without regard to case/)).toBeInTheDocument();
    const search = calls.find((call) => call.url === '/api/audit-trail/search');
    expect(JSON.parse(search?.body ?? '{}')).toEqual({ identifier: 'Ada.Lovelace@example.com' });
    expect(calls.filter((call) => call.url.toLowerCase().includes('lovelace'))).toEqual([]);
    expect(JSON.stringify(router.state.location).toLowerCase()).not.toContain('lovelace');
    // It says exactly what it matched: the normalised form, and the typed one for older records.
    expect(screen.getByText('ada.lovelace@example.com')).toBeInTheDocument();
    expect(screen.getByText(/also as typed \(Ada\.Lovelace@example\.com\)/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(screen.getByLabelText('Identifier')).toHaveValue('');
    expect(
      screen.queryByRole('table', { name: 'Lookups of the identifier' }),
    ).not.toBeInTheDocument();
  });

  it('says when a search stopped at its bound of linked keys', async () => {
    const { user } = renderPage();
    await user.type(await screen.findByLabelText('Identifier'), 'ada.lovelace@example.com');
    await user.click(screen.getByRole('button', { name: 'Find lookups' }));
    await screen.findByRole('table', { name: 'Lookups of the identifier' });
    expect(screen.queryByText(/stopped at/)).not.toBeInTheDocument();

    linksCut = true;
    await user.click(screen.getByRole('button', { name: 'Find lookups' }));
    expect(
      await screen.findByRole('heading', { name: 'The search stopped at 64 linked keys' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/Lookups that showed them only under a key beyond the bound are not listed/),
    ).toBeInTheDocument();
  });

  it('refuses an empty search without sending it', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Find lookups' }));
    expect(screen.getByText('Type the identifier to look for.')).toBeInTheDocument();
    expect(calls.filter((call) => call.url === '/api/audit-trail/search')).toEqual([]);
  });

  it('drops the answer of a search once its box is emptied by hand', async () => {
    searchFindsNothing = true;
    const { user } = renderPage();
    const box = await screen.findByLabelText('Identifier');
    await user.type(box, 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Find lookups' }));
    const nothing = 'No lookup asked for this identifier, and no recorded answer showed it.';
    expect(await screen.findByText(nothing)).toBeInTheDocument();
    await user.clear(box);
    expect(screen.queryByText(nothing)).not.toBeInTheDocument();
    expect(screen.queryByText(/nobody@example\.com/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear search' })).not.toBeInTheDocument();
  });

  it('exports the search with its signature and says how to check it', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const { user } = renderPage();
    await user.type(await screen.findByLabelText('Identifier'), 'ada.lovelace@example.com');
    await user.click(screen.getByRole('button', { name: 'Find lookups' }));
    const group = await screen.findByRole('group', { name: 'Export the search results' });
    await user.click(within(group).getByRole('button', { name: 'Export CSV' }));
    expect(
      await screen.findByText(/Saved audit-trail-2026-03-01-10-00-00\.csv \(2 records\)/),
    ).toHaveTextContent(
      'its Ed25519 signature audit-trail-2026-03-01-10-00-00.csv.sig.json (key 0123456789abcdef)',
    );
    const exported = calls.find((call) => call.url === '/api/audit-trail/export');
    expect(JSON.parse(exported?.body ?? '{}')).toEqual({
      format: 'csv',
      identifier: 'ada.lovelace@example.com',
    });
    expect(calls.some((call) => call.url.endsWith('/signature'))).toBe(true);
  });
});
