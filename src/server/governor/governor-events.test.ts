// What the governor tells its listeners (metrics, the replicas' shared blocks): each call it
// admits or refuses, with the rule and the reason; each block that starts, from where; each
// upstream 429 it is told of. A listener that fails never changes a decision.
import { describe, expect, it } from 'vitest';
import type { RateLimitRule } from '../../shared/rate-limits';
import { createConsoleMetrics } from '../observability/console-metrics';
import { countRejections } from '../observability/upstream-metrics';
import { Governor } from './governor';
import type { GovernorEventMap } from './governor-events';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const QUOTA: RateLimitRule = {
  id: 'test-quota',
  name: 'quota',
  area: 'Test',
  scope: 'module',
  method: 'GET',
  path: '/quota/*',
  kind: 'hard',
  limits: [{ period: 'MINUTE', limit: 2, blockSeconds: 60, blockDocumented: false }],
  blocks: 'rule',
  violation: '429',
};
const quotaCall = { id: 'quota', method: 'GET', path: '/quota/items' };
const plainCall = { id: 'event-types', method: 'GET', path: '/api/audit/v4/audits/event-types' };

function governor() {
  const g = new Governor({ tier: 'production', moduleRules: [QUOTA], now: () => T0 });
  const seen: Array<[string, unknown]> = [];
  for (const name of ['admitted', 'refused', 'block-started', 'upstream-429'] as const) {
    g.events.on(name, (event) => seen.push([name, event]));
  }
  return { g, seen };
}

describe('the governor’s events', () => {
  it('tells of every call admitted and refused, with the refusing rule and the wait', async () => {
    const { g, seen } = governor();
    await g.acquire(quotaCall);
    await g.acquire(quotaCall);
    const refusal = await g.acquire(quotaCall);
    expect(refusal?.retryAfterSeconds).toBeGreaterThanOrEqual(60);
    expect(seen).toEqual([
      ['admitted', { operation: quotaCall }],
      ['admitted', { operation: quotaCall }],
      [
        'refused',
        {
          operation: quotaCall,
          reason: 'limit',
          ruleId: 'test-quota',
          retryAfterSeconds: refusal?.retryAfterSeconds,
        },
      ],
    ]);
  });

  it('tells of a block once, with its origin, and of the refusals it causes', async () => {
    const { g, seen } = governor();
    const block = {
      scope: 'account' as const,
      ruleId: null,
      period: null,
      until: T0 + 30_000,
      incidentKey: 'incident-1',
    };
    g.block(block);
    // Shorter than the running one: nothing starts.
    g.block({ ...block, until: T0 + 10_000 }, 'shared');
    await g.acquire(plainCall);
    expect(seen).toEqual([
      ['block-started', { block, origin: 'local' }],
      ['refused', { operation: plainCall, reason: 'blocked', ruleId: null, retryAfterSeconds: 30 }],
    ]);
  });

  it('passes on what the guard read from an upstream 429', () => {
    const { g, seen } = governor();
    const answer: GovernorEventMap['upstream-429'] = {
      operation: quotaCall,
      scope: 'rule',
      ruleId: 'test-quota',
      period: 'MINUTE',
      retryAfterSeconds: 60,
    };
    g.noteThrottled(answer);
    expect(seen).toEqual([['upstream-429', answer]]);
  });

  it('decides the same when a listener throws', async () => {
    const { g } = governor();
    g.events.on('admitted', () => {
      throw new Error('a broken listener');
    });
    expect(await g.acquire(quotaCall)).toBeUndefined();
  });

  it('feeds the rejection metric by connection, rule and reason, the account when no rule refused', async () => {
    const { g } = governor();
    const metrics = createConsoleMetrics();
    const stop = countRejections(g.events, metrics, 'uat');
    for (let call = 0; call < 3; call += 1) await g.acquire(quotaCall);
    g.block({ scope: 'account', ruleId: null, period: null, until: T0 + 5_000, incidentKey: null });
    await g.acquire(plainCall);
    stop();
    await g.acquire(plainCall);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(
      /governor_rejections_total\{connection="uat",rule="test-quota",reason="limit"\} 1\n/,
    );
    expect(text).toMatch(
      /governor_rejections_total\{connection="uat",rule="account",reason="blocked"\} 1\n/,
    );
  });
});
