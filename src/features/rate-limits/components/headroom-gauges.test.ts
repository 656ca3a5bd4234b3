// The account gauge shows the platform's own count when a 429 says the account is far busier than
// this console's share of it.
import { describe, expect, it } from 'vitest';
import type { RuleUsage } from '../../../shared/incident';
import { incident, T0 } from '../test-support/fixtures';
import { platformCount } from './headroom-gauges';

const minute: RuleUsage = {
  ruleId: 'account-minute',
  period: 'MINUTE',
  limit: 20_000,
  windowSeconds: 60,
  used: 2,
  remaining: 19_998,
  resetsAt: null,
  blockedUntil: null,
  blockedBy: null,
  incidentKey: null,
  enforced: true,
  block: null,
};

describe('platformCount', () => {
  const seen = new Date(T0).toISOString();
  const hit = incident({ requestsMade: 20_001, lastSeen: seen, firstSeen: seen });

  it('takes the platform’s figure when the console’s own is far below it', () => {
    expect(platformCount(minute, [hit], T0 + 10_000)).toEqual({ made: 20_001, at: T0 });
  });

  it('keeps the console’s count when it is close, or the 429 left the window', () => {
    expect(platformCount({ ...minute, used: 15_000 }, [hit], T0 + 10_000)).toBeUndefined();
    expect(platformCount(minute, [hit], T0 + 61_000)).toBeUndefined();
    expect(platformCount({ ...minute, ruleId: 'account-hour' }, [hit], T0)).toBeUndefined();
  });
});
