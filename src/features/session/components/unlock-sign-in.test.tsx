// An admin unlocks a locked-out user's sign-in: the request the console gets, and what the admin
// reads afterwards, for a known and an unknown name.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UnlockSignIn } from './unlock-sign-in';

afterEach(() => vi.unstubAllGlobals());

function stubBff() {
  const calls: Array<{ url: string; method: string | undefined }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), method: init?.method });
      if (String(input).endsWith('/alice')) {
        return Response.json({ username: 'alice', unlocked: true, wasLocked: true });
      }
      if (String(input).endsWith('/bob')) {
        return Response.json({ username: 'bob', unlocked: true, wasLocked: false });
      }
      return new Response(
        JSON.stringify({
          type: '/problems/not-found',
          title: 'No such console user',
          status: 404,
          detail:
            'No console user has this name. Check its spelling, as the user signs in with it.',
        }),
        { status: 404, headers: { 'Content-Type': 'application/problem+json' } },
      );
    }),
  );
  return calls;
}

describe('UnlockSignIn', () => {
  it('unlocks the named user and says so, or says why not', async () => {
    const calls = stubBff();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <UnlockSignIn />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Console user'), 'alice');
    await user.click(screen.getByRole('button', { name: 'Unlock sign-in' }));
    expect(await screen.findByText('alice can sign in again now.')).toBeInTheDocument();
    expect(calls).toEqual([{ url: '/api/sign-in-locks/alice', method: 'DELETE' }]);
    await user.clear(screen.getByLabelText('Console user'));
    await user.type(screen.getByLabelText('Console user'), 'nobody');
    await user.click(screen.getByRole('button', { name: 'Unlock sign-in' }));
    expect(await screen.findByText(/No console user has this name/)).toBeInTheDocument();
  });

  it('says a user who was not locked was not, instead of "can sign in again now"', async () => {
    stubBff();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <UnlockSignIn />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Console user'), 'bob');
    await user.click(screen.getByRole('button', { name: 'Unlock sign-in' }));
    expect(await screen.findByText(/^bob was not locked: nothing to unlock/)).toBeInTheDocument();
    expect(screen.queryByText(/can sign in again now/)).toBeNull();
  });
});
