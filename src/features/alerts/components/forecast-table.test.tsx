// The forecast table during a block: the block every limit shares is said once, above the rows,
// while a block of one limit stays on its own row.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LimitForecast } from '../../../shared/alerts';
import type { BlockState } from '../../../shared/limit-state';
import { ForecastTable } from './forecast-table';

const ACCOUNT_BLOCK: BlockState = {
  scope: 'account',
  ruleId: 'account-minute',
  ruleName: 'Account minute limit',
  cause: 'platform',
  reason: 'The platform answered 429 for the account minute limit: every request waits.',
  until: '2025-01-06T09:05:00.000Z',
  incidentKey: 'incident-1',
};

function forecast(ruleId: string, period: 'MINUTE' | 'HOUR', block: BlockState | null) {
  return {
    key: `${ruleId}:${period}`,
    ruleId,
    period,
    limit: 20_000,
    windowSeconds: period === 'MINUTE' ? 60 : 3_600,
    used: 12,
    ratePerMinute: 12,
    percentUsed: 0.1,
    thresholdPercent: 80,
    secondsToExhaustion: null,
    exhaustsAt: null,
    level: block ? 'blocked' : 'ok',
    source: 'console',
    block,
    setAside: 0,
  } satisfies LimitForecast;
}

function renderTable(limits: LimitForecast[]) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ForecastTable limits={limits} canEdit={false} />
    </QueryClientProvider>,
  );
  return screen.getByRole('table');
}

describe('ForecastTable', () => {
  it('says a block every limit shares once, above the rows', () => {
    const table = renderTable([
      forecast('account-minute', 'MINUTE', ACCOUNT_BLOCK),
      forecast('account-hour', 'HOUR', ACCOUNT_BLOCK),
      forecast('v2-datasubjects', 'HOUR', ACCOUNT_BLOCK),
    ]);
    expect(table).toHaveAccessibleName(/Blocked by the platform: Account minute limit/);
    expect(table.textContent!.split(ACCOUNT_BLOCK.reason)).toHaveLength(2);
    const rows = within(table).getAllByRole('row').slice(1);
    for (const row of rows) expect(row).toHaveTextContent('Blocked (see above)');
  });

  it('keeps a block of one limit on its own row', () => {
    const table = renderTable([
      forecast('account-minute', 'MINUTE', null),
      forecast('v2-datasubjects', 'HOUR', { ...ACCOUNT_BLOCK, scope: 'rule' }),
    ]);
    expect(table).not.toHaveAccessibleName();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[1]).toHaveTextContent(ACCOUNT_BLOCK.reason);
    expect(rows[1]).toHaveTextContent(/Blocked until \d{2}:\d{2}:\d{2} \S+/);
  });
});
