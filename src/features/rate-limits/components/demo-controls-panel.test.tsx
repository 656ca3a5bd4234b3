// The demo controls as a keyboard user meets them: pressing a control keeps focus on it while the
// call runs (the control says it is unavailable instead of disabling itself), a second press
// sends nothing, and the outcome is announced when it comes.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DemoControlsPanel } from './demo-controls-panel';

let answer: (response: Response) => void = () => undefined;
const posted: string[] = [];

beforeEach(() => {
  posted.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      posted.push(String(input));
      return new Promise<Response>((resolve) => {
        answer = resolve;
      });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('DemoControlsPanel', () => {
  it('keeps keyboard focus on a control while its call runs, and ignores a second press', async () => {
    const queryClient = new QueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <DemoControlsPanel connection="uat" />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    const control = screen.getByRole('button', { name: 'Account minute block' });
    control.focus();
    await user.keyboard('{Enter}');

    expect(await screen.findByText('Working…')).toBeInTheDocument();
    expect(control).toHaveFocus();
    expect(control).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'End all blocks' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await user.keyboard('{Enter}');
    expect(control).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'End all blocks' }));
    expect(posted).toEqual(['/api/connections/uat/demo-controls']);

    answer(
      new Response(
        JSON.stringify({
          scenario: 'account-minute',
          probe: { outcome: 'answered', status: 429, durationMs: 12, incidentKey: 'rl-1' },
        }),
        { headers: { 'Content-Type': 'application/json' } },
      ),
    );
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(/answered 429 in 12 ms/),
    );
    expect(control).not.toHaveAttribute('aria-disabled');
  });

  it('says when ending the blocks failed, instead of keeping the previous action’s text', async () => {
    const queryClient = new QueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <DemoControlsPanel connection="uat" />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Account minute block' }));
    answer(
      new Response(
        JSON.stringify({
          scenario: 'account-minute',
          probe: { outcome: 'answered', status: 429, durationMs: 12, incidentKey: 'rl-1' },
        }),
        { headers: { 'Content-Type': 'application/json' } },
      ),
    );
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/answered 429/));
    await user.click(screen.getByRole('button', { name: 'End all blocks' }));
    expect(screen.getByRole('status')).toHaveTextContent('Ending every block…');
    answer(
      new Response(
        JSON.stringify({ type: '/problems/forbidden', title: 'Not allowed', status: 403 }),
        { status: 403, headers: { 'Content-Type': 'application/problem+json' } },
      ),
    );
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(/^Ending the blocks failed: /),
    );
    expect(screen.getByRole('status')).not.toHaveTextContent(/answered 429/);
  });
});
