// "All connections" as a person meets it: a card per connection, each a link to its page with its
// tightest limit and every limit, the current one marked; a block in UAT counting down on UAT's
// card only; a failing connection's card saying so while the other's figures stand; and the
// cards' places held while the overview loads or when it cannot be had.
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionOverview, RateLimitOverview } from '../../../shared/connection-overview';
import type { ConnectionSummary } from '../../../shared/connections';
import { describeBlock } from '../../../shared/limit-state';
import {
  jsonAnswer,
  renderRoute,
  stubApiPerTest,
} from '../../../lib/test-support/render-with-queries';
import { ConnectionsOverview, tightestLimit } from './connections-overview';

const SUMMARIES: ConnectionSummary[] = [
  { name: 'default', label: 'Production (EU)', colour: 'blue', role: 'admin' },
  { name: 'uat', label: 'UAT', colour: 'green', role: 'admin' },
];

const limit = (ruleId: string, period: 'MINUTE' | 'HOUR', used: number, max: number) => ({
  ruleId,
  period,
  limit: max,
  windowSeconds: period === 'MINUTE' ? 60 : 3_600,
  used,
  remaining: max - used,
  resetsAt: null,
  enforced: true,
});

let now = 0;
let answer: () => Response | Promise<Response>;

function card(overrides: Partial<ConnectionOverview> & Pick<ConnectionOverview, 'name'>) {
  const summary = SUMMARIES.find((known) => known.name === overrides.name)!;
  return {
    label: summary.label,
    colour: summary.colour,
    tier: 'production' as const,
    platform: { state: 'answering' as const },
    governor: 'single' as const,
    limits: [
      limit('account-minute', 'MINUTE', 120, 20_000),
      limit('account-hour', 'HOUR', 900, 200_000),
    ],
    blocks: [],
    ...overrides,
  };
}

const overview = (connections: ConnectionOverview[]): RateLimitOverview => ({
  now: new Date(now).toISOString(),
  connections,
});

/** Answers production's card as usual and UAT's with `uat`, at `now`. */
function serveCards(uat: Partial<ConnectionOverview>) {
  answer = () => jsonAnswer(overview([card({ name: 'default' }), card({ ...uat, name: 'uat' })]));
}

stubApiPerTest((url) => (url.startsWith('/api/rate-limit-overview') ? answer() : undefined));
afterEach(() => {
  vi.useRealTimers();
});

function renderOverview(current = 'default') {
  return renderRoute(
    '/c/:connection/rate-limits',
    <ConnectionsOverview current={current} connections={SUMMARIES} />,
    `/c/${current}/rate-limits`,
  );
}

const cardOf = (label: string) =>
  screen.getByRole('link', { name: new RegExp(`^${label} rate limits`) });

describe('ConnectionsOverview', () => {
  it("shows each connection's card as a link to its page, the current one marked", async () => {
    now = Date.now();
    serveCards({
      tier: 'sandbox',
      limits: [
        limit('account-minute', 'MINUTE', 90, 100),
        limit('account-hour', 'HOUR', 90, 1_000),
      ],
    });
    renderOverview();
    expect(await screen.findAllByText('Account minute limit')).toHaveLength(2);
    const production = cardOf('Production \\(EU\\)');
    expect(production).toHaveAttribute('href', '/c/default/rate-limits');
    expect(production).toHaveAttribute('aria-current', 'page');
    expect(production).toHaveAccessibleName('Production (EU) rate limits (this page)');
    const uat = cardOf('UAT');
    expect(uat).toHaveAttribute('href', '/c/uat/rate-limits');
    expect(uat).not.toHaveAttribute('aria-current');
    expect(uat).toHaveTextContent('sandbox');
    // UAT's tightest is its minute limit at 90 %: the meter says so and reads as nearly full.
    const meter = within(uat).getByRole('meter');
    expect(meter).toHaveAccessibleName(/90 of 100 per minute/);
    expect(meter).toHaveAttribute('data-level', 'high');
    // Every limit is listed, compactly, with its figures for screen readers.
    const every = within(uat).getByRole('list', { name: 'Every limit' });
    expect(within(every).getAllByRole('listitem')).toHaveLength(2);
    expect(every).toHaveTextContent('90 of 1,000 per hour');
    expect(within(production).getByText('No blocks running')).toBeInTheDocument();
  });

  it("counts a block in UAT down on UAT's card only", async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    now = Date.now();
    const block = describeBlock({
      scope: 'account',
      ruleId: 'account-minute',
      period: 'MINUTE',
      until: now + 42_000,
      incidentKey: 'a1',
    });
    serveCards({ blocks: [block] });
    renderOverview();
    await screen.findAllByText(/Tightest/);
    const uat = cardOf('UAT');
    expect(uat).toHaveTextContent('Blocked by the platform: Account minute limit · 0:42 left');
    act(() => vi.advanceTimersByTime(10_000));
    expect(uat).toHaveTextContent('0:32 left');
    expect(cardOf('Production \\(EU\\)')).toHaveTextContent('No blocks running');
    expect(cardOf('Production \\(EU\\)')).not.toHaveTextContent('Blocked');
  });

  it("says a failing connection's platform and limits could not be had, and keeps the other's figures", async () => {
    now = Date.now();
    serveCards({
      platform: {
        state: 'unreachable',
        title: 'The platform’s token endpoint could not be reached',
      },
      limits: null,
      problem:
        'The limits of this connection could not be read just now; its own page may say more.',
    });
    renderOverview();
    await screen.findAllByText(/Platform/);
    const uat = cardOf('UAT');
    expect(uat).toHaveTextContent(
      'Platform unreachable: The platform’s token endpoint could not be reached',
    );
    expect(uat).toHaveTextContent('could not be read just now');
    expect(within(uat).queryByRole('meter')).toBeNull();
    expect(within(cardOf('Production \\(EU\\)')).getByRole('meter')).toHaveAccessibleName(
      /120 of 20,000 per minute/,
    );
  });

  it('says a refused credential on that card', async () => {
    now = Date.now();
    serveCards({ platform: { state: 'credential-refused' } });
    renderOverview('uat');
    expect(await screen.findByText(/Credential refused/)).toBeInTheDocument();
    expect(cardOf('UAT')).toHaveAttribute('aria-current', 'page');
    expect(cardOf('Production \\(EU\\)')).toHaveTextContent('Platform answering');
  });

  it("holds every card's place while loading, and says when the overview could not be had", async () => {
    let fail: (response: Response) => void = () => {};
    answer = () => new Promise<Response>((resolve) => (fail = resolve));
    renderOverview();
    expect(cardOf('UAT')).toHaveTextContent('Loading…');
    expect(cardOf('Production \\(EU\\)')).toHaveTextContent('Loading…');
    await act(async () =>
      fail(
        jsonAnswer(
          {
            type: '/problems/internal',
            title: 'Something went wrong in the console server',
            status: 500,
          },
          500,
        ),
      ),
    );
    expect(await screen.findAllByText(/Not loaded: Something went wrong/)).toHaveLength(2);
  });
});

describe('tightestLimit', () => {
  it('picks the limit with the least headroom left, ignoring those not kept', () => {
    const soft = { ...limit('soft-rule', 'MINUTE', 99, 100), enforced: false };
    const tight = limit('account-hour', 'HOUR', 600, 1_000);
    expect(tightestLimit([limit('account-minute', 'MINUTE', 10, 100), tight, soft])).toBe(tight);
    expect(tightestLimit([])).toBeUndefined();
  });
});
