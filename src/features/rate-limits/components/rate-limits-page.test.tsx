// The rate-limits page as a support engineer meets it, with a stubbed BFF and a fake live stream:
// incidents appear and update without a reload, one row per event id, with a countdown; the
// stream's state is shown; "Copy for support" fills the clipboard.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '../../../shared/session';
import type { Incident } from '../../../shared/incident';
import type { ConnectionSummary } from '../../../shared/connections';
import { AccountBlockBanner } from './account-block-banner';
import { RateLimitsPage } from './rate-limits-page';
import {
  blockOf,
  EVENT_ID,
  FakeEventSource,
  incident,
  RULES,
  accountOverview,
  usage,
} from '../test-support/fixtures';

// The canvas chart has nothing to draw on in jsdom.
vi.mock('./request-timeline-chart', () => ({ default: () => <div data-testid="chart" /> }));

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

let incidents: Incident[] = [];
let now = Date.now();
/** When set, the history has an older page, answered only when the test says so. */
let olderIncidents: Promise<Incident[]> | null;
/** Who is signed in. */
let viewer: Role = 'admin';
/** The person's connections; null: the list is not answered. */
let connectionList: ConnectionSummary[] | null;

const PRODUCTION: ConnectionSummary = {
  name: 'default',
  label: 'Production (EU)',
  colour: 'blue',
  role: 'admin',
};
const UAT: ConnectionSummary = { name: 'uat', label: 'UAT', colour: 'green', role: 'admin' };

beforeEach(() => {
  now = Date.now();
  incidents = [];
  olderIncidents = null;
  viewer = 'admin';
  connectionList = null;
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url === '/api/connections' && connectionList) {
        return json({ connections: connectionList });
      }
      if (url.startsWith('/api/rate-limit-overview') && connectionList) {
        return json({
          now: new Date(now).toISOString(),
          connections: connectionList.map(({ name, label, colour }) => ({
            name,
            label,
            colour,
            tier: 'production',
            platform: { state: 'answering' },
            governor: 'single',
            limits: [],
            blocks: [],
          })),
        });
      }
      if (url.startsWith('/api/connections/uat/rate-limits/rules')) return json(RULES);
      if (url.startsWith('/api/connections/uat/rate-limits/usage')) {
        const blocks = incidents
          .filter((i) => i.scope === 'account' && Date.parse(i.blockedUntil) > now)
          .map((i) => blockOf(i));
        return json(usage(now, { blocks }));
      }
      if (url.startsWith('/api/connections/uat/rate-limits/incidents') && olderIncidents) {
        if (!url.includes('cursor=')) return json({ items: incidents, nextCursor: 'older' });
        return json({ items: await olderIncidents, nextCursor: null });
      }
      if (url.startsWith('/api/connections/uat/rate-limits/incidents'))
        return json({ items: incidents, nextCursor: null });
      if (url.startsWith('/api/connections/uat/account-usage')) return json(accountOverview(now));
      if (url === '/api/connections') {
        // UAT after production: the page is not the first connection's.
        return json({
          connections: [
            { name: 'default', label: 'Production (EU)', colour: 'blue', role: 'admin' },
            { name: 'uat', label: 'UAT', colour: 'green', role: 'admin' },
          ],
        });
      }
      if (url.startsWith('/api/meta'))
        return json({ mode: 'demo', accountTier: 'production', demoControls: true });
      if (url.startsWith('/api/session')) return json({ username: viewer, role: viewer });
      return json({ type: '/problems/not-found', title: 'nope', status: 404 }, 404);
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/c/uat/rate-limits',
        element: (
          <>
            <AccountBlockBanner />
            <RateLimitsPage />
          </>
        ),
      },
    ],
    { initialEntries: ['/c/uat/rate-limits'] },
  );
  return render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const table = () => screen.getByRole('table', { name: '429 incidents' });

describe('RateLimitsPage', () => {
  it('shows UAT’s own account-wide view on UAT’s page, not a note that it is elsewhere', async () => {
    renderPage();
    const card = (
      await screen.findByRole('heading', { name: 'Account-wide: every reporting client' })
    ).closest('section')!;
    expect(within(card).getAllByText('CRM connector').length).toBeGreaterThan(0);
    expect(screen.queryByText(/covers Production \(EU\)/)).toBeNull();
  });

  it('shows a new incident live, then counts further 429s of it in the same row', async () => {
    renderPage();
    expect(await screen.findByText('No 429s so far')).toBeInTheDocument();
    const source = FakeEventSource.current();
    act(() => source.emit('ready', { seq: 0 }, '0'));
    expect(await screen.findByText('Live')).toBeInTheDocument();

    const blockedUntil = new Date(now + 42_000).toISOString();
    const first = incident({
      seq: 1,
      firstSeen: new Date(now).toISOString(),
      lastSeen: new Date(now).toISOString(),
      blockedUntil,
    });
    incidents = [first];
    act(() => source.emit('incident', first, '1'));
    const row = await within(
      await screen.findByRole('table', { name: '429 incidents' }),
    ).findByText(EVENT_ID);
    expect(row).toBeInTheDocument();
    const cells = within(row.closest('tr')!).getAllByRole('cell');
    expect(cells[2]).toHaveTextContent('1');
    // The block's countdown from 42 s: by the real clock, so a busy machine may have used seconds.
    expect(cells[4]).toHaveTextContent(/0:[0-4]\d/);
    expect(cells[1]).toHaveTextContent('Account minute limit (20,000 per minute)');

    const again = { ...first, seq: 2, hits: 3 };
    incidents = [again];
    act(() => source.emit('incident', again, '2'));
    await waitFor(() => expect(within(table()).getAllByRole('row')).toHaveLength(2));
    expect(
      within(within(table()).getAllByRole('row')[1]!).getAllByRole('cell')[2],
    ).toHaveTextContent('3');

    // The account block shows in the banner too.
    expect(await screen.findAllByText(/The platform blocked the account/)).not.toHaveLength(0);
  });

  it('says when the live connection dropped and is coming back', async () => {
    renderPage();
    const source = FakeEventSource.current();
    act(() => source.emit('ready', {}, '0'));
    expect(await screen.findByText('Live')).toBeInTheDocument();
    act(() => source.fail(0));
    expect(await screen.findByText('Reconnecting…')).toBeInTheDocument();
    act(() => source.emit('ready', {}, '0'));
    expect(await screen.findByText('Live')).toBeInTheDocument();
  });

  it('puts the incident, its headers and the timeline on the clipboard for support', async () => {
    incidents = [
      incident({
        firstSeen: new Date(now).toISOString(),
        lastSeen: new Date(now).toISOString(),
        blockedUntil: new Date(now + 60_000).toISOString(),
      }),
    ];
    renderPage();
    // The account-wide card has its figures (copied with the incident below).
    await screen.findByRole('img', { name: /^Account minute limit: This console 409/ });
    // user-event puts a clipboard double on navigator.clipboard.
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: `Copy for support: incident ${EVENT_ID}` }),
    );
    const text = await navigator.clipboard.readText();
    expect(text).toContain(`ot-ratelimit-event-id: ${EVENT_ID}`);
    expect(text).toContain('ot-request-made: 20001');
    expect(text).toContain('Console requests per minute around the incident:');
    // The account-wide card's figures and the running block, as the page shows them.
    expect(text).toContain('Blocked by the platform: Account minute limit, until');
    expect(text).toContain(
      '  Account minute limit: 582 of 20,000 (this console 409; CRM connector 173)',
    );
    // Its accessible name starts with its visible label, before and after.
    expect(
      await screen.findByRole('button', { name: `Copied: incident ${EVENT_ID}` }),
    ).toHaveTextContent('Copied');
  });

  it('links to the incident list from the top at any time, with its count, and back', async () => {
    incidents = [incident({ blockedUntil: new Date(now - 1_000).toISOString() })];
    olderIncidents = new Promise<Incident[]>(() => undefined);
    renderPage();
    const jump = await screen.findByRole('link', { name: 'Jump to incidents (1+)' });
    expect(jump).toHaveAttribute('href', '#incidents');
    expect(screen.getByRole('navigation', { name: 'On this page' })).toContainElement(jump);
    const list = document.getElementById('incidents');
    expect(list).toHaveAttribute('tabindex', '-1');
    expect(list).toContainElement(screen.getByRole('table', { name: '429 incidents' }));
    expect(screen.getByRole('link', { name: 'Back to the top' })).toHaveAttribute(
      'href',
      `#${jump.id}`,
    );
    expect(screen.getByRole('group', { name: 'Export the incidents' })).toBeInTheDocument();

    // Followed, focus goes with it, so the next Tab starts in the list; and back again.
    const user = userEvent.setup();
    await user.click(jump);
    expect(list).toHaveFocus();
    await user.click(screen.getByRole('link', { name: 'Back to the top' }));
    expect(jump).toHaveFocus();
  });

  it('keeps keyboard focus on "Load older incidents" while the older page loads', async () => {
    let answer: (items: Incident[]) => void = () => undefined;
    olderIncidents = new Promise<Incident[]>((resolve) => {
      answer = resolve;
    });
    incidents = [incident()];
    renderPage();
    const user = userEvent.setup();
    const older = await screen.findByRole('button', { name: 'Load older incidents' });
    older.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('button', { name: 'Loading…' })).toBe(older);
    expect(older).toHaveFocus();
    expect(older).toHaveAttribute('aria-disabled', 'true');

    act(() => answer([incident({ key: 'older-1', eventId: 'older-1', seq: 2 })]));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Loading…' })).not.toBeInTheDocument(),
    );
    expect(within(table()).getAllByRole('row').length).toBeGreaterThan(2);
  });

  it('shows every connection side by side to a person with more than one, this one marked', async () => {
    connectionList = [PRODUCTION, UAT];
    renderPage();
    const overview = await screen.findByRole('region', { name: 'All connections' });
    const here = await within(overview).findByRole('link', { name: 'UAT rate limits (this page)' });
    expect(here).toHaveAttribute('aria-current', 'page');
    expect(
      within(overview).getByRole('link', { name: /^Production \(EU\) rate limits/ }),
    ).toHaveAttribute('href', '/c/default/rate-limits');
  });

  it('leaves the overview out for a person with one connection: it would repeat the page', async () => {
    connectionList = [UAT];
    renderPage();
    expect(await screen.findByText('No 429s so far')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'All connections' })).toBeNull();
  });

  it('offers the demo controls to an admin in demo mode', async () => {
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Demo controls' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Account minute block' })).toBeEnabled();
  });

  it('shows an auditor the page without the demo controls, which would only answer 403', async () => {
    viewer = 'auditor';
    renderPage();
    expect(await screen.findByRole('heading', { name: '429 incidents' })).toBeInTheDocument();
    // Both answers the panel depends on have arrived and been rendered.
    const asked = (path: string) =>
      vi.mocked(fetch).mock.calls.some(([input]) => String(input).startsWith(path));
    await waitFor(() => expect(asked('/api/session') && asked('/api/meta')).toBe(true));
    await act(async () => {});
    expect(screen.queryByRole('heading', { name: 'Demo controls' })).not.toBeInTheDocument();
  });
});
