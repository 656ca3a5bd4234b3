// The early warning every page shows: nothing while limits are calm, one plain sentence per limit
// that is past its threshold or will run out at the current rate, and a way to the forecast.
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  queryAnswered,
  renderWithQueries,
  serveJson,
} from '../../../lib/test-support/render-with-queries';
import type { ForecastResponse, LimitForecast } from '../../../shared/alerts';
import { forecastQueryOptions } from '../api/alerts-api';
import { EarlyWarningBanner } from './early-warning-banner';

const limit = (overrides: Partial<LimitForecast>): LimitForecast => ({
  key: 'account-minute:MINUTE',
  ruleId: 'account-minute',
  period: 'MINUTE',
  limit: 20_000,
  windowSeconds: 60,
  used: 100,
  ratePerMinute: 100,
  percentUsed: 0.5,
  thresholdPercent: 80,
  secondsToExhaustion: null,
  exhaustsAt: null,
  level: 'ok',
  block: null,
  source: 'console',
  ...overrides,
});

function serve(limits: LimitForecast[]) {
  const body: ForecastResponse = { now: '2025-01-06T09:00:00.000Z', limits };
  return serveJson(body);
}

function renderBanner() {
  return renderWithQueries(
    <MemoryRouter>
      <EarlyWarningBanner />
      <p>page</p>
    </MemoryRouter>,
    { answeredKey: forecastQueryOptions().queryKey },
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('EarlyWarningBanner', () => {
  it('shows nothing while every limit is calm', async () => {
    const fetchMock = serve([
      limit({}),
      limit({ key: 'account-hour:HOUR', period: 'HOUR', ruleId: 'account-hour' }),
    ]);
    renderBanner();
    await queryAnswered();
    expect(fetchMock).toHaveBeenCalledWith('/api/alerts/forecast', expect.anything());
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says when a limit runs out at the current rate and when one is past its threshold', async () => {
    serve([
      limit({ level: 'forecast', secondsToExhaustion: 42, ratePerMinute: 30_000, used: 5_000 }),
      limit({
        key: 'v4-details-minute:MINUTE',
        ruleId: 'v4-details-minute',
        limit: 1_000,
        used: 850,
        percentUsed: 85,
        level: 'near',
      }),
    ]);
    renderBanner();
    const banner = await screen.findByRole('status');
    expect(banner).toHaveTextContent(
      'Account minute limit runs out in about 42 s at the current rate (30,000 a minute).',
    );
    expect(banner).toHaveTextContent(
      'v4 details minute limit is at 85% of its limit, past the 80% warning.',
    );
    expect(screen.getByRole('link', { name: /forecast and alert settings/ })).toHaveAttribute(
      'href',
      '/alerts',
    );
  });

  it('states the cause when reported use is over a limit, without claiming requests are held back', async () => {
    // 200 lookups, all answered: the console's own 27 plus an integration's reported 173.
    serve([
      limit({
        key: 'v4-details-minute:MINUTE',
        ruleId: 'v4-details-minute',
        limit: 200,
        used: 200,
        percentUsed: 100,
        level: 'exhausted',
        source: 'account',
      }),
    ]);
    renderBanner();
    const banner = await screen.findByRole('status');
    expect(banner).toHaveTextContent(
      'v4 details minute limit: reported use is over the limit (200 of 200, this console and the reporting integrations together); the platform may refuse calls.',
    );
    expect(banner).not.toHaveTextContent('held back');
  });
});
