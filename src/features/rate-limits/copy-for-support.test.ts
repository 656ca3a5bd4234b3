// "Copy for support": the text a vendor ticket needs, whatever the 429 carried.
import { describe, expect, it } from 'vitest';
import { supportText } from './copy-for-support';
import {
  accountOverview,
  blockOf,
  EVENT_ID,
  incident,
  RULES,
  T0,
  usage,
} from './test-support/fixtures';

describe('supportText', () => {
  it('carries the event id, the headers as received, the rule and the timeline', () => {
    const now = T0 + 120_000;
    const base = usage(now);
    const start = Date.parse(base.timeline.start);
    const at = (time: number) => Math.floor((time - start) / 10_000);
    const sent = [...base.timeline.sent];
    sent[at(T0 - 5_000)] = 40;
    const throttled = [...base.timeline.throttled];
    throttled[at(T0)] = 1;
    const text = supportText(incident({ hits: 3 }), RULES.rules, {
      ...base.timeline,
      sent,
      throttled,
    });
    expect(text).toContain(`ot-ratelimit-event-id: ${EVENT_ID}`);
    expect(text).toContain('Rule: Account minute limit (20,000 per minute)');
    expect(text).toContain('429s received: 3');
    expect(text).toContain('  ot-requests-allowed: 20000');
    expect(text).toContain('  retry-after: 60');
    expect(text).toMatch(/sent 40, held back by the console 0, upstream 429s 0/);
    expect(text).toMatch(/sent 0, held back by the console 0, upstream 429s 1/);
  });

  it('says plainly when the 429 carried no id, and explains its flags', () => {
    const text = supportText(
      incident({ key: 'unidentified-x', eventId: null, headers: {}, flags: ['missing-event-id'] }),
      RULES.rules,
      undefined,
    );
    expect(text).toContain('ot-ratelimit-event-id: (none received; console key unidentified-x)');
    expect(text).toContain('  (none)');
    expect(text).toContain('No ot-ratelimit-event-id; the console generated a key');
  });

  it('answers what a vendor’s support desk asks first: host, client id, request, time zones', () => {
    const text = supportText(incident({ operation: 'event-types' }), RULES.rules, undefined, {
      serviceHost: 'api.privacy.example',
      oauthClientId: 'console-client',
      operations: { 'event-types': 'GET /api/audit/v4/audits/event-types' },
    });
    expect(text).toContain('Service host: api.privacy.example');
    expect(text).toContain('OAuth client id: console-client');
    expect(text).toContain('Request: GET /api/audit/v4/audits/event-types');
    expect(text).not.toContain('Operation: event-types');
    expect(text).toMatch(/First 429: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC \(local: .+\)/);
    expect(text).not.toMatch(/secret/i);
  });

  it('adds the account-wide context the page shows: every reporter’s use of each limit and the blocks running', () => {
    const blocked = incident();
    const text = supportText(
      blocked,
      RULES.rules,
      undefined,
      {},
      {
        overview: accountOverview(T0),
        blocks: [blockOf(blocked)],
      },
    );
    expect(text).toContain(
      'Blocked by the platform: Account minute limit, until 2025-01-06 09:01:00 UTC.',
    );
    expect(text).toContain(
      "Account-wide use at 2025-01-06 09:00:00 UTC: requests in each limit's current window, as this console and the account's reporting integrations counted them:",
    );
    expect(text).toContain(
      '  Account minute limit: 582 of 20,000 (this console 409; CRM connector 173); the platform counted 20,002 at its last 429',
    );
    expect(text).toContain(
      '  Account hour limit: 409 of 200,000 (this console 409); requests of clients that do not report are unknown',
    );
  });

  it('says when nothing is blocked, and when the account-wide view had not loaded', () => {
    const text = supportText(incident(), RULES.rules, undefined, {}, { blocks: [] });
    expect(text).toContain('Blocks running when this was copied:\n  none');
    expect(text).toContain('Account-wide use:\n  (not loaded)');
  });
});
