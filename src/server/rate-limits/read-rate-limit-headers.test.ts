// Reading a 429 the way support needs it: faithful when the headers are right, flagged and bounded
// when they are garbage, and never a crash or a block longer than an hour.
import { describe, expect, it } from 'vitest';
import { rulesForPolicy } from '../../shared/rate-limits';
import { readRateLimitHeaders } from './read-rate-limit-headers';

const NOW = Date.UTC(2025, 0, 6, 9, 0, 0);
const ID = '3f2b8c1e-9a4d-4e6b-8f7a-1c2d3e4f5a6b';
const eventTypes = { method: 'GET', path: '/api/audit/v4/audits/event-types' };

function read(headers: Record<string, string>, operation = eventTypes) {
  return readRateLimitHeaders(headers, { now: NOW, tier: 'production', operation });
}

const good = {
  'retry-after': '60',
  'ot-ratelimit-event-id': ID,
  'ot-requests-allowed': '20000',
  'ot-period': 'MINUTE',
  'ot-request-made': '20001',
};

describe('readRateLimitHeaders', () => {
  it('reads a well-formed 429 and matches the account minute limit', () => {
    expect(read(good)).toEqual({
      eventId: ID,
      period: 'MINUTE',
      requestsAllowed: 20_000,
      requestsMade: 20_001,
      retryAfterSeconds: 60,
      blockSeconds: 60,
      rule: expect.objectContaining({ id: 'account-minute' }),
      scope: 'account',
      flags: [],
      headers: good,
    });
  });

  it('matches the hour limit and the call’s own module quota', () => {
    expect(read({ ...good, 'ot-period': 'HOUR', 'ot-requests-allowed': '200000' }).rule?.id).toBe(
      'account-hour',
    );
    const quota = read(
      { ...good, 'ot-requests-allowed': '300' },
      { method: 'GET', path: '/api/consentmanager/v2/datasubjects' },
    );
    expect(quota.rule?.id).toBe('v2-datasubjects-quota');
    expect(quota.scope).toBe('rule');
  });

  it('matches by the call’s path first: another operation’s quota is never named', () => {
    // 1,000 a minute is the v3 quota's figure, but the v3 quota does not count event types.
    const eventTypes429 = read({ ...good, 'ot-requests-allowed': '1000' });
    expect(eventTypes429).toMatchObject({ rule: null, requestsAllowed: 1_000, scope: 'account' });
    expect(eventTypes429.flags).toContain('unmatched-rule');
    // The same figures on the v3 call are its own quota …
    const v3 = { method: 'GET', path: '/rest/api/preferences/v3/datasubjects/profile' };
    expect(read({ ...good, 'ot-requests-allowed': '1000' }, v3).rule?.id).toBe(
      'v3-datasubjects-quota',
    );
    // … and the account's figures on it are the account's limit.
    expect(read(good, v3).rule?.id).toBe('account-minute');
    // 300 a minute is the v1 and v2 quotas' figure: not a rule of the v4 basic-details call.
    const v4 = { method: 'GET', path: '/rest/api/consent/v4/datasubjects/basic-details' };
    expect(read({ ...good, 'ot-requests-allowed': '300' }, v4).rule).toBeNull();
  });

  it('names the per-endpoint default when that policy is in force', () => {
    const reading = readRateLimitHeaders(
      { ...good, 'ot-requests-allowed': '1000' },
      {
        now: NOW,
        tier: 'production',
        operation: eventTypes,
        rules: rulesForPolicy('per-endpoint', 'production'),
      },
    );
    expect(reading.rule?.id).toBe('endpoint-minute');
    expect(reading.scope).toBe('rule');
  });

  it('understands Retry-After as an HTTP date', () => {
    const date = new Date(NOW + 90_000).toUTCString();
    expect(read({ ...good, 'retry-after': date })).toMatchObject({
      retryAfterSeconds: 90,
      blockSeconds: 90,
      flags: [],
    });
  });

  it.each([
    ['a negative Retry-After', { 'retry-after': '-5' }, ['malformed-retry-after'], 60],
    ['a fractional Retry-After', { 'retry-after': '1.5' }, ['malformed-retry-after'], 60],
    ['a huge Retry-After', { 'retry-after': '999999999' }, ['retry-after-capped'], 3_600],
    ['an absurd Retry-After', { 'retry-after': '9'.repeat(400) }, ['retry-after-capped'], 3_600],
    ['a Retry-After of 0', { 'retry-after': '0' }, [], 1],
    ['no Retry-After', { 'retry-after': '' }, ['missing-retry-after'], 60],
    ['a non-UUID id', { 'ot-ratelimit-event-id': '<script>' }, ['malformed-event-id'], 60],
    ['an unknown period', { 'ot-period': 'DAY' }, ['unknown-period', 'unmatched-rule'], 60],
    [
      'garbage counts',
      { 'ot-requests-allowed': 'lots', 'ot-request-made': '-1' },
      ['malformed-requests-allowed', 'malformed-requests-made'],
      60,
    ],
    ['an allowed count no rule has', { 'ot-requests-allowed': '7' }, ['unmatched-rule'], 60],
  ])('flags %s, and blocks %s seconds at most an hour', (_, changes, flags, seconds) => {
    const headers = Object.fromEntries(
      Object.entries({ ...good, ...changes }).filter(([, value]) => value !== ''),
    );
    const reading = read(headers);
    expect(reading.flags).toEqual(flags);
    expect(reading.blockSeconds).toBe(seconds);
    expect(reading.blockSeconds).toBeLessThanOrEqual(3_600);
  });

  it('records a 429 with none of the headers, blocking the whole account for a minute', () => {
    expect(read({})).toMatchObject({
      eventId: null,
      period: null,
      rule: null,
      scope: 'account',
      blockSeconds: 60,
      headers: {},
      flags: [
        'missing-event-id',
        'missing-period',
        'missing-requests-allowed',
        'missing-requests-made',
        'unmatched-rule',
        'missing-retry-after',
      ],
    });
  });

  it('uses the documented block of the matched rule when Retry-After is missing', () => {
    const { 'retry-after': _, ...rest } = good;
    expect(
      read({ ...rest, 'ot-period': 'HOUR', 'ot-requests-allowed': '200000' }).blockSeconds,
    ).toBe(3_600);
  });

  it('keeps at most 200 characters of a header for support', () => {
    const reading = read({ ...good, 'ot-ratelimit-event-id': 'x'.repeat(5_000) });
    expect(reading.headers['ot-ratelimit-event-id']).toHaveLength(200);
  });

  it('takes the first of repeated headers', () => {
    expect(read({ ...good, 'retry-after': ['30', '90'] as unknown as string }).blockSeconds).toBe(
      30,
    );
  });
});
