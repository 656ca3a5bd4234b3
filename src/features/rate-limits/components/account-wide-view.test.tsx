// The account-wide view names each limit as every page does, puts what clients reported beside
// what the platform counted, explains its fills in a key, and gives support no burst buttons
// (they answered 403 and the page said nothing), lists the minutes it set aside, and says a block
// every limit shares once, above the limits, instead of on each.
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  jsonAnswer,
  renderWithQueries,
  stubApiPerTest,
} from '../../../lib/test-support/render-with-queries';
import type { AccountOverview } from '../../../shared/integrations';
import type { BlockState } from '../../../shared/limit-state';
import { AccountWideView } from './account-wide-view';

const now = '2026-11-25T15:49:00.000Z';
const overview: AccountOverview = {
  now,
  staleAfterSeconds: 120,
  limits: [
    {
      ruleId: 'account-minute',
      period: 'MINUTE',
      limit: 20_000,
      console: 409,
      integrations: [{ id: 'crm', name: 'CRM connector', used: 173 }],
      reported: 582,
      unreported: 19_420,
      block: null,
    },
  ],
  integrations: [
    {
      id: 'crm',
      name: 'CRM connector',
      owner: null,
      status: 'active',
      requestsLastMinute: 173,
      requestsLastHour: 900,
      throttledLastHour: 0,
      lastReportAt: now,
      stale: false,
      shares: [{ ruleId: 'account-minute', period: 'MINUTE', share: 0.00865 }],
    },
  ],
  timeline: { bucketSeconds: 60, start: now, series: [] },
  incidents: [],
  demoBursts: [{ id: 'crm', name: 'CRM connector' }],
};

let answered: AccountOverview = overview;
beforeEach(() => {
  answered = overview;
});
stubApiPerTest((url) =>
  url === '/api/connections/uat/account-usage' ? jsonAnswer(answered) : undefined,
);

describe('AccountWideView', () => {
  it('names a removed integration in the key, in the colour its share of a bar has', async () => {
    const removed = { id: 'old-sync', name: 'Old sync (removed integration)', used: 40 };
    answered = {
      ...overview,
      limits: overview.limits.map((limit) => ({
        ...limit,
        integrations: [...limit.integrations, removed],
      })),
    };
    const { container } = renderWithQueries(<AccountWideView connection="uat" canBurst={false} />);
    const key = await screen.findByLabelText('Key to the limit bars');
    const entry = within(key).getByText('Old sync (removed integration)');
    const part = container.querySelector('[title="Old sync (removed integration): 40"]');
    expect(part).not.toBeNull();
    expect(entry.dataset.slot).toBe((part as HTMLElement).dataset.slot);
    expect(within(key).getByText('CRM connector').dataset.slot).not.toBe(entry.dataset.slot);
  });

  it('names the limit once, relates reported and counted, and keys the fills', async () => {
    renderWithQueries(<AccountWideView connection="uat" canBurst={false} />);
    expect(await screen.findByText('Account minute limit')).toBeInTheDocument();
    expect(
      screen.getByText('582 reported · 20,002 counted by the platform of 20,000'),
    ).toBeInTheDocument();
    const key = screen.getByLabelText('Key to the limit bars');
    expect(key).toHaveTextContent(
      'Counted by the platform (from its last 429), reported by nobody',
    );
    expect(key).toHaveTextContent('This console');
    expect(screen.getByText(/Account minute limit 0\.9%/)).toBeInTheDocument();
    expect(screen.queryByText(/account-minute/)).toBeNull();
    expect(screen.queryByRole('button', { name: /Burst from/ })).toBeNull();
  });

  it('lists a minute set aside as implausible, saying it is counted nowhere', async () => {
    answered = {
      ...overview,
      implausible: [
        {
          id: 'crm',
          name: 'CRM connector',
          minute: now,
          reported: 20_000,
          clampedTo: 20_000,
        },
      ],
    };
    renderWithQueries(<AccountWideView connection="uat" canBurst={false} />);
    const note = await screen.findByRole('note', { name: 'Set aside as implausible (1)' });
    expect(note).toHaveTextContent(/CRM connector, .*: 20,000 requests kept/);
    expect(note).toHaveTextContent('counted in no limit, timeline or forecast');
  });

  it('says an account block once above the limits, not on every limit', async () => {
    const block: BlockState = {
      scope: 'account',
      ruleId: 'account-minute',
      ruleName: 'Account minute limit',
      cause: 'platform',
      reason: 'The platform blocked the account: the Account minute limit was used up.',
      until: '2026-11-25T15:50:00.000Z',
      incidentKey: 'incident-1',
    };
    const minute = overview.limits[0]!;
    answered = {
      ...overview,
      limits: [
        { ...minute, block },
        { ...minute, ruleId: 'account-hour', period: 'HOUR', limit: 200_000, block },
      ],
    };
    renderWithQueries(<AccountWideView connection="uat" canBurst={false} />);
    expect(
      await screen.findByText(/Blocked by the platform: Account minute limit, every limit below/),
    ).toBeInTheDocument();
    expect(screen.getAllByText(block.reason)).toHaveLength(1);
    expect(screen.getAllByText('Blocked (see above)')).toHaveLength(2);
  });
});
