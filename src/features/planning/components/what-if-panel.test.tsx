// The what-if form when the console refuses one replay too many (429): the page says so in its
// own words, with the wait the console gave, and keeps the policy that was entered.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { policies } from '../test-support/policies';
import { WhatIfPanel } from './what-if-panel';

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(() =>
      Promise.resolve(
        new Response(
          JSON.stringify({
            type: '/problems/replay-busy',
            title: 'A replay is already running',
            status: 429,
            detail: 'A replay is already running; this console runs at most a few at once.',
            retryAfterSeconds: 7,
          }),
          {
            status: 429,
            headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '7' },
          },
        ),
      ),
    ),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('WhatIfPanel', () => {
  it('says a replay is already running, with the wait, and keeps the policy entered', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <WhatIfPanel policies={policies} period="week" onPeriod={() => undefined} />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /Numbers of your own/ }));
    const minute = screen.getByRole('textbox', { name: /Account, per minute/ });
    await user.clear(minute);
    await user.type(minute, '1500');
    await user.click(screen.getByRole('button', { name: 'Replay' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A replay is already running; try again in 7 s.',
    );
    expect(screen.queryByText('The replay failed')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Account, per minute/ })).toHaveValue('1500');
  });
});
