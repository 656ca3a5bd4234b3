// Every page names a block's limit and reason with these words, so what they say must be right
// for each kind of block: the platform's account block, a rule's, and the console's precaution.
import { describe, expect, it } from 'vitest';
import { accountBlock, blockOfLimit, describeBlock, incidentLimitName } from './limit-state';

const UNTIL = Date.parse('2026-12-01T18:00:00.000Z');

describe('a running block, described', () => {
  it('names the account limit the platform blocked the account for', () => {
    const block = describeBlock({
      scope: 'account',
      ruleId: 'account-minute',
      period: 'MINUTE',
      until: UNTIL,
      incidentKey: 'k1',
    });
    expect(block).toMatchObject({ ruleName: 'Account minute limit', cause: 'platform' });
    expect(block.reason).toMatch(/^The platform blocked the account: the Account minute limit/);
  });

  it('says the console paused the account itself after a 429 under a limit it does not know', () => {
    const block = describeBlock({
      scope: 'account',
      ruleId: null,
      period: 'MINUTE',
      until: UNTIL,
      incidentKey: 'k2',
      stated: { requestsAllowed: 1_000, request: 'GET /api/audit/v4/audits/event-types' },
    });
    // The incident list, the account-wide card and the banner use this one name.
    expect(block.ruleName).toBe(
      incidentLimitName({ ruleId: null, period: 'MINUTE', requestsAllowed: 1_000 }),
    );
    expect(block.ruleName).toBe('Unknown limit (1,000 per minute, as the platform stated)');
    expect(block.cause).toBe('precaution');
    expect(block.reason).toContain('it has not blocked the account');
    expect(block.reason).toContain('(GET /api/audit/v4/audits/event-types)');
    expect(block.reason).not.toContain('The platform blocked the account');
  });

  it('says when the 429 had no usable figures', () => {
    expect(incidentLimitName({ ruleId: null, period: null, requestsAllowed: null })).toBe(
      'Unknown limit (the 429 had no usable rate-limit headers)',
    );
  });
});

describe('which limits a block stops', () => {
  const account = describeBlock({
    scope: 'account',
    ruleId: null,
    period: 'MINUTE',
    until: UNTIL,
    incidentKey: 'a',
  });
  const quota = describeBlock({
    scope: 'rule',
    ruleId: 'v2-datasubjects-quota',
    period: 'MINUTE',
    until: UNTIL + 60_000,
    incidentKey: 'q',
  });

  it('stops every limit for an account block, and only its rule for a rule block', () => {
    expect(blockOfLimit({ ruleId: 'account-hour' }, [account])).toBe(account);
    expect(blockOfLimit({ ruleId: 'account-hour' }, [quota])).toBeNull();
    expect(blockOfLimit({ ruleId: 'v2-datasubjects-quota' }, [account, quota])).toBe(quota);
  });

  it('gives the banner the account block only', () => {
    expect(accountBlock([quota])).toBeNull();
    expect(accountBlock([quota, account])).toBe(account);
  });
});
