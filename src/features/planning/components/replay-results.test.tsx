// A replay's breaches name the operation that went over its per-endpoint limit, as the rest of the
// console names it, and keep the endpoint itself as a secondary detail.
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Breach, ReplayOutcome, WhatIfResult } from '../../../shared/planning';
import { policies } from '../test-support/policies';
import { ReplayResults } from './replay-results';

// The chart draws on a canvas jsdom does not have; the table is what this file reads.
vi.mock('./replay-chart', () => ({ default: () => null }));

const MINUTE = '2026-11-25T16:02:00.000Z';
const ENDPOINT = 'GET /rest/api/consent/v4/datasubjects/details';

const breach: Breach = {
  minute: MINUTE,
  ruleId: 'endpoint-minute',
  name: 'Per-endpoint minute limit',
  endpoint: ENDPOINT,
  period: 'MINUTE',
  limit: 100,
  requests: 140,
  refused: 40,
  kind: 'hard',
};

const outcome = (breaches: Breach[]): ReplayOutcome => ({
  policy: policies.other,
  refused: breaches.reduce((sum, item) => sum + item.refused, 0),
  refusedWhileBlocked: 0,
  minutesOver: breaches.length,
  minutesSlowed: 0,
  firstBreach: breaches[0] ?? null,
  breaches,
  breachesTotal: breaches.length,
  bySource: [],
  headroom: null,
});

const result: WhatIfResult = {
  runId: 'run-1',
  connection: { name: 'default', label: 'Production (EU)' },
  period: 'hour',
  from: '2026-11-25T15:02:00.000Z',
  to: '2026-11-25T16:02:00.000Z',
  bucketMinutes: 1,
  requests: 140,
  activeMinutes: 1,
  busiestMinute: { minute: MINUTE, requests: 140 },
  inForce: { ...outcome([]), policy: policies.inForce },
  chosen: outcome([breach]),
  buckets: [],
  setAside: [],
  recorded429s: { total: 0, byEndpoint: [] },
  generatedAt: '2026-11-25T16:03:00.000Z',
};

describe('ReplayResults', () => {
  it('names the operation of a per-endpoint breach, with its endpoint beside', () => {
    render(<ReplayResults result={result} />);
    const table = within(screen.getByRole('region', { name: 'Breaches, scrollable' })).getByRole(
      'table',
    );
    const [header, row] = within(table).getAllByRole('row');
    expect(header).toHaveTextContent('Operation');
    const cell = within(row!).getAllByRole('cell')[2]!;
    expect(cell).toHaveTextContent(/^v4 · Details with purposes/);
    expect(within(cell).getByText(ENDPOINT)).toBeInTheDocument();
    expect(screen.getByRole('region', { name: /Under the policy chosen/ })).toHaveTextContent(
      `Per-endpoint minute limit, v4 · Details with purposes (${ENDPOINT})`,
    );
  });
});
