// The accountability page as an auditor uses it, with a stubbed BFF: the figures of the last 30
// days, the lookups without a purpose said plainly, the changes and the evidence; another period
// asks the BFF for its bounds, and custom days that make no period say why and ask nothing.
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  jsonAnswer as json,
  renderRoute,
  stubApiPerTest,
} from '../../../lib/test-support/render-with-queries';
import type { AccountabilityReport } from '../../../shared/accountability';
import { AccountabilityPage } from './accountability-page';

const REPORT: AccountabilityReport = {
  period: { since: '2026-11-01T00:00:00.000Z', until: '2026-12-01T00:00:00.000Z' },
  generatedAt: '2026-12-01T00:00:00.000Z',
  lookups: { total: 7, people: 2, withoutPerson: 1 },
  actors: [
    { user: 'alice', token: null, lookups: 5, people: 2 },
    { user: 'bob', token: 'nightly', lookups: 2, people: 2 },
  ],
  purposes: [{ category: 'access request', lookups: 4, references: 2, people: 2 }],
  withoutPurpose: { lookups: 3, people: 1 },
  changes: {
    total: 1,
    byAction: [{ action: 'alert-destination.created', count: 1 }],
    items: [
      {
        at: '2026-11-08T00:00:00.000Z',
        user: 'alice',
        token: null,
        address: '203.0.113.7',
        action: 'alert-destination.created',
        target: 'SIEM',
      },
    ],
  },
  evidence: {
    verification: null,
    coversPeriod: false,
    latestCheckpoint: null,
    summary:
      'The chain has not been verified yet (run “verify now” on the audit page); no signed checkpoint has been taken yet.',
  },
};

const asked: string[] = [];
let answer: AccountabilityReport = REPORT;
beforeEach(() => {
  asked.length = 0;
  answer = REPORT;
});
stubApiPerTest((url) => {
  if (url.startsWith('/api/accountability')) {
    asked.push(url);
    return json(answer);
  }
  return undefined;
});

const open = (path = '/accountability') =>
  renderRoute('/accountability', <AccountabilityPage />, path);

describe('the accountability page', () => {
  it('shows the last 30 days’ figures, by whom, purposes, changes and evidence', async () => {
    open();
    expect(await screen.findByTestId('people-looked-up')).toHaveTextContent('2');
    expect(asked).toEqual(['/api/accountability']);
    expect(screen.getByTestId('lookups-total')).toHaveTextContent('7');
    expect(screen.getByTestId('without-purpose-sentence')).toHaveTextContent(
      '3 lookups (of 1 person) had no purpose recorded: made before the console kept purposes, or while stating one was optional.',
    );
    const byWhom = screen.getByRole('table', { name: 'Lookups by person or token' });
    expect(within(byWhom).getByRole('row', { name: /bob token “nightly” 2 2/ })).toBeVisible();
    const purposes = screen.getByRole('table', { name: 'Lookups by purpose' });
    expect(within(purposes).getByRole('row', { name: 'No purpose recorded 3 — 1' })).toBeVisible();
    const changes = screen.getByRole('table', { name: 'Administrative changes' });
    expect(within(changes).getByText('alert-destination.created')).toBeVisible();
    expect(screen.getByTestId('evidence-summary')).toHaveTextContent(
      /^The chain has not been verified yet/,
    );
  });

  it('says a period without lookups had none, not that every one had a purpose', async () => {
    answer = {
      ...REPORT,
      lookups: { total: 0, people: 0, withoutPerson: 0 },
      actors: [],
      purposes: [],
      withoutPurpose: { lookups: 0, people: 0 },
    };
    open();
    expect(await screen.findByTestId('without-purpose-sentence')).toHaveTextContent(
      'No lookup was made in this period.',
    );
    expect(screen.queryByRole('table', { name: 'Lookups by purpose' })).toBeNull();
    expect(screen.getByText('No one looked anyone up.')).toBeInTheDocument();
  });

  it('asks for last month’s bounds, and for nothing while custom days make no period', async () => {
    const { user, router } = open();
    await screen.findByTestId('people-looked-up');
    await user.selectOptions(screen.getByLabelText('Period'), 'last-month');
    expect(router.state.location.search).toBe('?period=last-month');
    await screen.findByTestId('people-looked-up');
    expect(asked.at(-1)).toMatch(
      /^\/api\/accountability\?since=\d{4}-\d{2}-01T00%3A00%3A00\.000Z&until=\d{4}-\d{2}-01T00%3A00%3A00\.000Z$/,
    );

    await user.selectOptions(screen.getByLabelText('Period'), 'custom');
    const count = asked.length;
    expect(
      await screen.findByText('Choose the first and the last day of the period.'),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Export JSON' })).toBeNull();
    expect(asked).toHaveLength(count);
  });
});
