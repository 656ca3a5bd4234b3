// The banner every page shows while the console itself is degraded: nothing when all is well, a
// plain-language notice when its store is away or its replicas cannot share the limits.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleHealth } from '../../../shared/console-health';
import { ConsoleHealthBanner } from './console-health-banner';

function serve(health: ConsoleHealth) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(health, { headers: { 'Content-Type': 'application/json' } })),
  );
}

function renderBanner() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <main>
        <ConsoleHealthBanner />
        <p>page</p>
      </main>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ConsoleHealthBanner', () => {
  it('shows nothing while the console is healthy', async () => {
    serve({ store: 'ok', governor: 'shared' });
    renderBanner();
    await screen.findByText('page');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says incidents are not being recorded while the store is away', async () => {
    serve({ store: 'unavailable', governor: 'shared' });
    renderBanner();
    expect(await screen.findByRole('status')).toHaveTextContent(
      /cannot reach its incident store.*still work.*not being recorded/,
    );
  });

  it('says each replica holds back to its share while they cannot share the limits', async () => {
    serve({ store: 'ok', governor: 'fallback' });
    renderBanner();
    expect(await screen.findByRole('status')).toHaveTextContent(/each holds back to its own share/);
  });
});
