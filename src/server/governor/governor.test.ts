// The governor as the upstream client uses it: every applicable limit is taken from, a refusal
// takes nothing, blocks from upstream 429s are honoured to the second for their scope only.
import { describe, expect, it } from 'vitest';
import type { RateLimitRule } from '../../shared/rate-limits';
import { Governor } from './governor';
import { refusalHeaders, refusalProblem } from './rate-limit-answer';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);

const QUOTA: RateLimitRule = {
  id: 'test-quota',
  name: 'quota',
  area: 'Test',
  scope: 'module',
  method: 'GET',
  path: '/quota/*',
  kind: 'hard',
  limits: [
    { period: 'MINUTE', limit: 5, blockSeconds: 60, blockDocumented: false },
    { period: 'HOUR', limit: 8, blockSeconds: 3_600, blockDocumented: false },
  ],
  blocks: 'rule',
  violation: '429',
};
const SOFT: RateLimitRule = {
  ...QUOTA,
  id: 'test-soft',
  path: '/soft',
  kind: 'soft',
  limits: [{ period: 'MINUTE', limit: 2, blockSeconds: 0, blockDocumented: true }],
  blocks: 'none',
};

const quotaCall = { id: 'quota', method: 'GET', path: '/quota/items' };
const softCall = { id: 'soft', method: 'GET', path: '/soft' };
const plainCall = { id: 'event-types', method: 'GET', path: '/api/audit/v4/audits/event-types' };

function governor(options: { keepSoftLimits?: boolean; tier?: 'production' | 'sandbox' } = {}) {
  const clock = { now: T0 };
  const g = new Governor({
    tier: options.tier ?? 'production',
    moduleRules: [QUOTA, SOFT],
    now: () => clock.now,
    ...(options.keepSoftLimits === undefined ? {} : { keepSoftLimits: options.keepSoftLimits }),
  });
  const used = async (ruleId: string, period = 'MINUTE') =>
    (await g.usage()).find((u) => u.ruleId === ruleId && u.period === period)?.used;
  return { clock, g, used };
}

describe('Governor', () => {
  it('takes from the account limits and the operation’s module rule', async () => {
    const { g, used } = governor();
    expect(await g.acquire(quotaCall)).toBeUndefined();
    expect(await g.acquire(plainCall)).toBeUndefined();
    expect(await used('account-minute')).toBe(2);
    expect(await used('account-hour', 'HOUR')).toBe(2);
    expect(await used('test-quota')).toBe(1);
    expect(await used('test-quota', 'HOUR')).toBe(1);
  });

  it('refuses over a limit, takes nothing then, and names the limit in the answer', async () => {
    const { clock, g, used } = governor();
    for (let i = 0; i < 5; i += 1) expect(await g.acquire(quotaCall)).toBeUndefined();
    const refusal = await g.acquire(quotaCall);
    expect(refusal).toMatchObject({ reason: 'limit', retryAfterSeconds: 61 });
    expect(refusal?.refusing?.policyId).toBe('test-quota-minute');
    expect(await used('account-minute')).toBe(5);
    // Other operations are not held back by the module's quota.
    expect(await g.acquire(plainCall)).toBeUndefined();

    const headers = refusalHeaders(refusal!);
    expect(headers).toEqual({
      'Retry-After': '61',
      'RateLimit-Policy':
        '"account-minute";q=20000;w=60, "account-hour";q=200000;w=3600, "test-quota-minute";q=5;w=60, "test-quota-hour";q=8;w=3600',
      RateLimit: '"test-quota-minute";r=0;t=61',
    });
    expect(refusalProblem(refusal!).problem).toMatchObject({
      type: '/problems/rate-limited',
      status: 429,
      retryAfterSeconds: 61,
      ruleId: 'test-quota',
      limitedBy: 'console',
    });

    // The hour limit (8) refuses once the minute has room again.
    clock.now += 61_000;
    for (let i = 0; i < 3; i += 1) expect(await g.acquire(quotaCall)).toBeUndefined();
    const hourly = await g.acquire(quotaCall);
    expect(hourly?.refusing?.policyId).toBe('test-quota-hour');
    expect(await used('test-quota')).toBe(3);
  });

  it('honours an account block for every operation, to the second', async () => {
    const { clock, g } = governor();
    g.block({
      scope: 'account',
      ruleId: 'account-minute',
      period: 'MINUTE',
      until: T0 + 42_000,
      incidentKey: 'abc',
    });
    const refusal = await g.acquire(plainCall);
    expect(refusal).toMatchObject({ reason: 'blocked', retryAfterSeconds: 42 });
    expect(refusalHeaders(refusal!)).toMatchObject({ RateLimit: '"account-minute";r=0;t=42' });
    expect(refusalProblem(refusal!).problem).toMatchObject({
      incidentId: 'abc',
      limitedBy: 'upstream-block',
    });
    clock.now = T0 + 41_001;
    expect(await g.acquire(quotaCall)).toMatchObject({ retryAfterSeconds: 1 });
    clock.now = T0 + 42_000;
    expect(await g.acquire(plainCall)).toBeUndefined();
  });

  it('honours a module block only for that module, and never shortens a running block', async () => {
    const { g } = governor();
    g.block({
      scope: 'rule',
      ruleId: 'test-quota',
      period: 'MINUTE',
      until: T0 + 60_000,
      incidentKey: null,
    });
    g.block({
      scope: 'rule',
      ruleId: 'test-quota',
      period: 'MINUTE',
      until: T0 + 10_000,
      incidentKey: null,
    });
    expect(await g.acquire(quotaCall)).toMatchObject({ reason: 'blocked', retryAfterSeconds: 60 });
    expect(await g.acquire(plainCall)).toBeUndefined();
    const usage = await g.usage();
    expect(usage.find((u) => u.ruleId === 'test-quota')?.blockedUntil).toBe(T0 + 60_000);
    expect(usage.find((u) => u.ruleId === 'account-minute')?.blockedUntil).toBeNull();
  });

  it('keeps soft limits by default, and only counts them when told to ignore them', async () => {
    const kept = governor();
    await kept.g.acquire(softCall);
    await kept.g.acquire(softCall);
    expect(await kept.g.acquire(softCall)).toMatchObject({ reason: 'limit' });

    const ignored = governor({ keepSoftLimits: false });
    for (let i = 0; i < 4; i += 1) expect(await ignored.g.acquire(softCall)).toBeUndefined();
    expect(await ignored.used('test-soft')).toBe(4);
    expect(ignored.g.rules().find((rule) => rule.id === 'test-soft')?.enforced).toBe(false);
  });

  it('check() says whether a call would be refused without taking anything', async () => {
    const { g, used } = governor();
    for (let i = 0; i < 5; i += 1) await g.acquire(quotaCall);
    expect(await g.check(quotaCall)).toMatchObject({ reason: 'limit' });
    expect(await g.check(plainCall)).toBeUndefined();
    expect(await used('account-minute')).toBe(5);
  });

  it('uses the sandbox account limits for the sandbox tier', async () => {
    const { g } = governor({ tier: 'sandbox' });
    const limits = (await g.usage()).filter((u) => u.ruleId.startsWith('account'));
    expect(limits.map((u) => [u.ruleId, u.limit])).toEqual([
      ['account-minute', 5_000],
      ['account-hour', 50_000],
    ]);
  });

  it('keeps a vendor-granted account override instead of the tier’s limit', async () => {
    const g = new Governor({ tier: 'production', accountOverride: { MINUTE: 2 }, now: () => T0 });
    expect(await g.acquire(plainCall)).toBeUndefined();
    expect(await g.acquire(plainCall)).toBeUndefined();
    expect(await g.acquire(plainCall)).toMatchObject({ reason: 'limit' });
    const minute = g.rules().find((rule) => rule.id === 'account-minute');
    expect(minute?.limits[0]).toMatchObject({ limit: 2, overridden: true });
    expect(g.rules().find((rule) => rule.id === 'account-hour')?.limits[0]?.limit).toBe(200_000);
  });

  it('counts sent, refused and throttled calls on the timeline', async () => {
    const { g } = governor();
    for (let i = 0; i < 6; i += 1) await g.acquire(quotaCall);
    g.noteThrottled();
    const timeline = g.timeline.snapshot();
    expect(timeline.sent.at(-1)).toBe(5);
    expect(timeline.refused.at(-1)).toBe(1);
    expect(timeline.throttled.at(-1)).toBe(1);
    expect(timeline.sent).toHaveLength(360);
  });
});

describe('limits the platform states in a 429', () => {
  it('keeps a stricter reported limit for that endpoint only, until an admin forgets it', async () => {
    const { g } = governor();
    const state = g.noteReportedLimit(plainCall, 'MINUTE', 3, 'incident-1');
    expect(state).toMatchObject({ reported: 3, configured: 20_000, kept: 3 });
    for (let call = 0; call < 3; call += 1) expect(await g.acquire(plainCall)).toBeUndefined();
    const refusal = await g.acquire(plainCall);
    expect(refusal?.reason).toBe('limit');
    expect(refusal?.refusing?.limit.limit).toBe(3);
    // Other endpoints keep the configured limits.
    expect(await g.acquire(quotaCall)).toBeUndefined();
    expect(g.forgetReportedLimits()).toBe(1);
    expect(await g.acquire(plainCall)).toBeUndefined();
  });

  it('keeps the configured limit when it is the stricter one, and says so', async () => {
    const { g } = governor();
    const state = g.noteReportedLimit(quotaCall, 'MINUTE', 50, 'incident-2');
    expect(state).toMatchObject({ reported: 50, configured: 5, kept: 5, governed: undefined });
    expect(g.reportedLimits()).toHaveLength(1);
  });
});

describe('the per-endpoint policy', () => {
  it('counts and blocks each endpoint on its own', async () => {
    const clock = { now: T0 };
    const g = new Governor({
      tier: 'production',
      policy: 'per-endpoint',
      endpointMinuteLimit: 2,
      now: () => clock.now,
    });
    const other = { id: 'other', method: 'GET', path: '/other' };
    expect(await g.acquire(plainCall)).toBeUndefined();
    expect(await g.acquire(plainCall)).toBeUndefined();
    expect((await g.acquire(plainCall))?.refusing?.rule.id).toBe('endpoint-minute');
    expect(await g.acquire(other)).toBeUndefined();
    g.block({
      scope: 'rule',
      ruleId: 'endpoint-minute',
      period: 'MINUTE',
      until: T0 + 60_000,
      incidentKey: 'k',
      endpoint: 'GET /other',
    });
    expect((await g.acquire(other))?.reason).toBe('blocked');
    clock.now += 61_000;
    expect(await g.acquire(plainCall)).toBeUndefined();
    const usage = await g.usage();
    expect(usage.filter((u) => u.ruleId === 'endpoint-minute').map((u) => u.endpoint)).toEqual([
      'GET /api/audit/v4/audits/event-types',
      'GET /other',
    ]);
  });
});
