// The limits table of docs/rate-limit-model.md and the path matching that decides which rule counts a
// request: the mock, the governor and the panel all read these.
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_RULES,
  MODULE_RULES,
  describeLimits,
  matchModuleRule,
  matchesRulePath,
  rulesApplyingTo,
  rulesForPolicy,
  rulesForTier,
} from './rate-limits';

describe('the limits table', () => {
  it('has the account limits and block durations of both tiers', () => {
    const summary = (tier: 'production' | 'sandbox') =>
      ACCOUNT_RULES[tier].map((rule) => [
        rule.id,
        rule.limits[0]?.period,
        rule.limits[0]?.limit,
        rule.limits[0]?.blockSeconds,
      ]);
    expect(summary('production')).toEqual([
      ['account-minute', 'MINUTE', 20_000, 60],
      ['account-hour', 'HOUR', 200_000, 3_600],
    ]);
    expect(summary('sandbox')).toEqual([
      ['account-minute', 'MINUTE', 5_000, 60],
      ['account-hour', 'HOUR', 50_000, 120],
    ]);
  });

  it('has every published module rule with its kind, limits and what a violation blocks', () => {
    expect(
      MODULE_RULES.map((rule) => [
        rule.method,
        rule.path,
        describeLimits(rule),
        rule.kind,
        rule.blocks,
      ]),
    ).toEqual([
      ['*', '/integrationmanager/api/v1/webhook/*', '3,000 per minute', 'hard', 'account'],
      ['POST', '/request/v1/consentreceipts', '2,000 per minute', 'soft', 'none'],
      ['GET', '/v1/preferences', '3,000 per minute', 'soft', 'none'],
      [
        'GET',
        '/rest/api/consent/v4/datasubjects/basic-details',
        '1,000 per minute',
        'soft',
        'none',
      ],
      ['GET', '/rest/api/consent/v4/datasubjects/details', '1,000 per minute', 'soft', 'none'],
      ['GET', '/rest/api/consent/v4/datasubjects/ds-profiles', '1,000 per minute', 'soft', 'none'],
      [
        'GET',
        '/rest/api/consent/v4/datasubjects/profiles/{purposeGuid}',
        '1,000 per minute',
        'soft',
        'none',
      ],
      ['POST', '/v1/consentreceipts/bulk', '3,000 per minute', 'soft', 'none'],
      [
        'GET',
        '/api/consentmanager/v1/datasubjects/profiles',
        '300 per minute and 18,000 per hour',
        'hard',
        'rule',
      ],
      [
        'GET',
        '/api/consentmanager/v2/datasubjects',
        '300 per minute and 18,000 per hour',
        'hard',
        'rule',
      ],
      [
        'GET',
        '/rest/api/preferences/v3/datasubjects/profile',
        '1,000 per minute and 60,000 per hour',
        'hard',
        'rule',
      ],
      ['*', '/api/scim/*', '2,000 per minute and 20,000 per hour', 'hard', 'rule'],
    ]);
  });

  it('gives every rule of a tier a distinct id', () => {
    for (const tier of ['production', 'sandbox'] as const) {
      const ids = rulesForTier(tier).map((rule) => rule.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });
});

describe('matchesRulePath', () => {
  it.each([
    ['/v4/datasubjects/basic-details', '/v4/datasubjects/basic-details', true],
    ['/v4/datasubjects/basic-details', '/tenant/v4/datasubjects/basic-details', true],
    ['/v4/datasubjects/basic-details', '/v4/datasubjects/details', false],
    ['/v4/datasubjects/profiles/{purposeGuid}', '/v4/datasubjects/profiles/0b5c-41', true],
    ['/v4/datasubjects/profiles/{purposeGuid}', '/v4/datasubjects/profiles/{purposeGuid}', true],
    ['/v4/datasubjects/profiles/{purposeGuid}', '/v4/datasubjects/profiles', false],
    ['/api/consentmanager/v2/datasubjects', '/api/consentmanager/v2/datasubjects', true],
    ['/api/consentmanager/v2/datasubjects', '/api/consentmanager/v2/linkedidentitygroups', false],
    // A full documented path no longer matches a shortened one, nor another version's.
    ['/rest/api/consent/v4/datasubjects/details', '/v4/datasubjects/details', false],
    [
      '/rest/api/preferences/v3/datasubjects/profile',
      '/rest/api/preferences/v3/datasubject-profiles',
      false,
    ],
    ['/api/scim/*', '/api/scim/v2/Users/42', true],
    ['/api/scim/*', '/api/scim', false],
    ['/integrationmanager/api/v1/webhook/*', '/integrationmanager/api/v1/webhook/abc', true],
    ['/v1/preferences', '/v1/preferences?x=1', true],
  ])('%s against %s: %s', (pattern, path, expected) => {
    expect(matchesRulePath(pattern, path)).toBe(expected);
  });
});

describe('matchModuleRule', () => {
  it('picks the rule of the method and path, or none', () => {
    expect(matchModuleRule('GET', '/rest/api/consent/v4/datasubjects/details')?.id).toBe(
      'v4-details-minute',
    );
    expect(matchModuleRule('POST', '/rest/api/consent/v4/datasubjects/details')).toBeUndefined();
    expect(matchModuleRule('GET', '/rest/api/preferences/v3/datasubjects/profile')?.id).toBe(
      'v3-datasubjects-quota',
    );
    expect(matchModuleRule('DELETE', '/api/scim/v2/Users/1')?.id).toBe('scim-quota');
    expect(matchModuleRule('POST', '/v1/consentreceipts/bulk')?.id).toBe(
      'consent-ingestion-minute',
    );
    expect(matchModuleRule('GET', '/api/audit/v4/audits/event-types')).toBeUndefined();
    expect(matchModuleRule('POST', '/api/access/v1/oauth/token')).toBeUndefined();
  });

  it('prefers the most specific rule when several match', () => {
    const rules = [
      { ...MODULE_RULES[0]!, id: 'wide', method: '*' as const, path: '/api/*' },
      { ...MODULE_RULES[0]!, id: 'narrow', method: '*' as const, path: '/api/scim/*' },
    ];
    expect(matchModuleRule('GET', '/api/scim/Users', rules)?.id).toBe('narrow');
    expect(matchModuleRule('GET', '/api/other', rules)?.id).toBe('wide');
  });
});

describe('rulesForPolicy', () => {
  it('keeps the account-and-module page by default: the tier’s account rules and docs/rate-limit-model.md’s modules', () => {
    expect(rulesForPolicy('account-and-module', 'production').map((rule) => rule.id)).toEqual(
      rulesForTier('production').map((rule) => rule.id),
    );
  });

  it('has the newer page as a setting: 200,000 an hour and 1,000 a minute per endpoint', () => {
    const rules = rulesForPolicy('per-endpoint', 'production');
    expect(rules.map((rule) => [rule.id, rule.scope, describeLimits(rule)])).toEqual([
      ['account-hour', 'account', '200,000 per hour'],
      ['endpoint-minute', 'endpoint', '1,000 per minute'],
    ]);
  });

  it('still lets each limit be overridden', () => {
    const rules = rulesForPolicy('per-endpoint', 'production', {
      account: { HOUR: 400_000 },
      endpointMinute: 2_500,
    });
    expect(rules.map((rule) => [describeLimits(rule), rule.limits[0]?.overridden])).toEqual([
      ['400,000 per hour', true],
      ['2,500 per minute', true],
    ]);
  });
});

describe('rulesApplyingTo', () => {
  it('keeps the account rules and only the module rule of the call’s own path', () => {
    const rules = rulesForTier('production');
    expect(
      rulesApplyingTo('GET', '/api/audit/v4/audits/event-types', rules).map((rule) => rule.id),
    ).toEqual(['account-minute', 'account-hour']);
    expect(
      rulesApplyingTo('GET', '/rest/api/preferences/v3/datasubjects/profile', rules).map(
        (rule) => rule.id,
      ),
    ).toEqual(['account-minute', 'account-hour', 'v3-datasubjects-quota']);
  });
});
