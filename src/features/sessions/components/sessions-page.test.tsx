// The Sessions page as people use it: their sessions with this browser marked, ending one after
// an in-page confirmation (by mouse or keyboard), signing out everywhere, an admin's view grouped
// by person, and the loading, empty and error states.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleSession, ConsoleSessionList } from '../../../shared/console-sessions';
import { jsonAnswer, renderWithQueries } from '../../../lib/test-support/render-with-queries';
import { SessionsPage } from './sessions-page';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function session(overrides: Partial<ConsoleSession>): ConsoleSession {
  return {
    id: 'h'.repeat(43),
    username: 'support',
    role: 'support',
    method: 'password',
    startedAt: '2026-12-01T09:00:00.000Z',
    lastActiveAt: '2026-12-01T10:00:00.000Z',
    browser: 'Firefox on Windows',
    current: false,
    ...overrides,
  };
}

const MINE: ConsoleSessionList = {
  everyone: false,
  sessions: [
    session({ id: 'a'.repeat(43), browser: 'Chromium on Linux', current: true }),
    session({ id: 'b'.repeat(43), browser: 'Safari on iOS' }),
  ],
};

/** Stubs the BFF: GET /api/sessions answers `list` (or `failWith`); DELETEs answer as the BFF. */
function stubBff(list: ConsoleSessionList | { failWith: number }) {
  const calls: string[] = [];
  const confirm = vi.spyOn(window, 'confirm');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push(`${method} ${String(input)}`);
      if (method === 'GET') {
        return 'failWith' in list
          ? jsonAnswer(
              {
                type: '/problems/store-unavailable',
                title: 'x',
                status: 503,
                detail: 'The session store cannot be reached.',
              },
              503,
            )
          : jsonAnswer(list);
      }
      if (String(input) === '/api/sessions') return jsonAnswer({ ended: 2 });
      return new Response(null, { status: 204 });
    }),
  );
  return { calls, confirm };
}

function renderPage(signOutHere = vi.fn(async () => undefined)) {
  renderWithQueries(<SessionsPage signOutHere={signOutHere} />);
  return { signOutHere, user: userEvent.setup() };
}

describe('SessionsPage', () => {
  it('lists one’s sessions with this browser marked', async () => {
    stubBff(MINE);
    renderPage();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Chromium on Linux')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('This browser')).toBeInTheDocument();
    expect(within(rows[1]!).queryByText('This browser')).toBeNull();
    expect(within(rows[1]!).getByText('Password')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your sessions' })).toBeInTheDocument();
  });

  it('ends a session only after the in-page confirmation, never the browser’s dialog', async () => {
    const { calls, confirm } = stubBff(MINE);
    const { user, signOutHere } = renderPage();
    await user.click(
      await screen.findByRole('button', { name: 'End the session of support on Safari on iOS' }),
    );
    expect(screen.getByText('End this session?')).toBeInTheDocument();
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'End session' }));
    await waitFor(() => expect(calls).toContain(`DELETE /api/sessions/${'b'.repeat(43)}`));
    expect(confirm).not.toHaveBeenCalled();
    expect(signOutHere).not.toHaveBeenCalled();
  });

  it('works from the keyboard: Escape keeps the session and gives focus back', async () => {
    const { calls } = stubBff(MINE);
    const { user } = renderPage();
    const end = await screen.findByRole('button', {
      name: 'End the session of support on Safari on iOS',
    });
    end.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'End session' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(
      screen.getByRole('button', { name: 'End the session of support on Safari on iOS' }),
    ).toHaveFocus();
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual([]);
  });

  it('signs this browser out after ending its own session', async () => {
    stubBff(MINE);
    const { user, signOutHere } = renderPage();
    await user.click(
      await screen.findByRole('button', {
        name: 'End the session of support on Chromium on Linux',
      }),
    );
    expect(screen.getByText('Sign this browser out?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'End session' }));
    await waitFor(() => expect(signOutHere).toHaveBeenCalledOnce());
  });

  it('signs out everywhere after confirming, then signs this browser out', async () => {
    const { calls } = stubBff(MINE);
    const { user, signOutHere } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    expect(screen.getByText('End all your sessions, this one included?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(signOutHere).toHaveBeenCalledOnce());
    expect(calls).toContain('DELETE /api/sessions');
  });

  it('shows an admin everyone’s sessions, grouped by person', async () => {
    stubBff({
      everyone: true,
      sessions: [
        session({
          id: 'c'.repeat(43),
          username: 'zoe',
          name: 'Zoe Ng',
          email: 'zoe@example.com',
          method: 'provider',
        }),
        session({ id: 'a'.repeat(43), username: 'admin', role: 'admin', current: true }),
        session({
          id: 'd'.repeat(43),
          username: 'zoe',
          browser: 'Safari on iOS',
          method: 'provider',
        }),
      ],
    });
    renderPage();
    const groups = await screen.findAllByRole('rowgroup');
    // The header, then admin's group, then Zoe's.
    expect(groups.map((group) => within(group).getAllByRole('row')[0]?.textContent)).toEqual([
      expect.stringContaining('Browser'),
      'admin · 1 session',
      'Zoe Ng (zoe)zoe@example.com · 2 sessions',
    ]);
    expect(screen.getAllByText('Single sign-on')).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'All sessions' })).toBeInTheDocument();
  });

  it('says so when no session is open', async () => {
    stubBff({ everyone: false, sessions: [] });
    renderPage();
    expect(await screen.findByText('No sessions are open.')).toBeInTheDocument();
  });

  it('says why the list could not be loaded, with a way to try again', async () => {
    stubBff({ failWith: 503 });
    renderPage();
    expect(await screen.findByText('The sessions could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('The session store cannot be reached.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
