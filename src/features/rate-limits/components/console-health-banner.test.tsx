// The banner every page shows while the console itself is degraded: nothing when all is well, a
// plain-language notice when its store is away or its replicas cannot share the limits.
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  queryAnswered,
  renderWithQueries,
  serveJson,
} from '../../../lib/test-support/render-with-queries';
import type { ConsoleHealth } from '../../../shared/console-health';
import { consoleHealthQueryOptions } from '../api/console-health-api';
import { ConsoleHealthBanner } from './console-health-banner';

const serve = (health: ConsoleHealth) => serveJson(health);

const renderBanner = () =>
  renderWithQueries(<ConsoleHealthBanner />, { answeredKey: consoleHealthQueryOptions().queryKey });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ConsoleHealthBanner', () => {
  it('shows nothing while the console is healthy', async () => {
    const fetchMock = serve({ store: 'ok', governor: 'shared' });
    renderBanner();
    await queryAnswered();
    expect(fetchMock).toHaveBeenCalledWith('/api/health', expect.anything());
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

  it('says the console cannot sign in to the platform, with the diagnosed cause and what to check', async () => {
    serve({
      store: 'ok',
      governor: 'single',
      platformSignIn: {
        cause: 'tls',
        title: 'The TLS connection to the platform’s token endpoint failed',
        detail: 'The TLS handshake with platform.example failed (CERT_HAS_EXPIRED).',
      },
    });
    renderBanner();
    expect(await screen.findByRole('status')).toHaveTextContent(
      'The console cannot sign in to the privacy platform: The TLS connection to the platform’s token endpoint failed. The TLS handshake with platform.example failed (CERT_HAS_EXPIRED).',
    );
  });
});
