// The console-wide block notice says who refused what: the platform's own account block after an
// account limit, or the console's precaution after a 429 under a limit it does not know, which
// support engineers had escalated as "the vendor blocked our account".
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Incident } from '../../../shared/incident';
import {
  jsonAnswer,
  renderRoute,
  stubApiPerTest,
} from '../../../lib/test-support/render-with-queries';
import { blockOf, FakeEventSource, incident, RULES, usage } from '../test-support/fixtures';
import { AccountBlockBanner } from './account-block-banner';

let current: Incident;

// The banner listens to the live stream; jsdom has no EventSource.
beforeEach(() => vi.stubGlobal('EventSource', FakeEventSource));

stubApiPerTest((url) => {
  const now = Date.now();
  if (url.startsWith('/api/connections/default/rate-limits/rules')) return jsonAnswer(RULES);
  if (url.startsWith('/api/connections/default/rate-limits/usage')) {
    return jsonAnswer(
      usage(now, {
        blocks: [
          blockOf(
            { ...current, blockedUntil: new Date(now + 45_000).toISOString() },
            'GET /api/audit/v4/audits/event-types',
          ),
        ],
      }),
    );
  }
  if (url.startsWith('/api/connections/default/rate-limits/incidents')) {
    return jsonAnswer({ items: [current], nextCursor: null });
  }
  if (url.startsWith('/api/meta')) {
    return jsonAnswer({
      mode: 'demo',
      accountTier: 'production',
      demoControls: true,
      operations: { 'event-types': 'GET /api/audit/v4/audits/event-types' },
    });
  }
  return undefined;
});

describe('AccountBlockBanner', () => {
  it('says the console paused the account itself after a 429 under a limit it does not know', async () => {
    current = incident({
      ruleId: null,
      requestsAllowed: 1_000,
      requestsMade: 1_001,
      flags: ['unmatched-rule'],
    });
    renderRoute('/', <AccountBlockBanner />, '/');
    const banner = await screen.findByRole('status');
    expect(banner).toHaveTextContent(
      'Paused by the console after a 429: Unknown limit (1,000 per minute, as the platform stated).',
    );
    expect(banner).toHaveTextContent(
      'The platform refused one call (GET /api/audit/v4/audits/event-types) with a 429 under a limit this console does not know (1,000 per minute); it has not blocked the account, but the console paused every request of the account as a precaution.',
    );
    expect(banner).not.toHaveTextContent('The platform blocked the account');
  });

  it('says a 429 came without headers when it did', async () => {
    current = incident({
      ruleId: null,
      period: null,
      requestsAllowed: null,
      requestsMade: null,
      headers: {},
    });
    renderRoute('/', <AccountBlockBanner />, '/');
    expect(await screen.findByRole('status')).toHaveTextContent(
      /under a limit this console does not know \(the 429 had no usable rate-limit headers\)/,
    );
  });

  it('names the platform and the limit when an account limit blocked the account', async () => {
    current = incident();
    renderRoute('/', <AccountBlockBanner />, '/');
    const banner = await screen.findByRole('status');
    expect(banner).toHaveTextContent(
      'Blocked by the platform: Account minute limit. The platform blocked the account: the Account minute limit was used up, and every request of the account is refused until the block ends.',
    );
  });
});
