// The administrative changes as an auditor reads them through the API: newest first, filtered by
// kind, person and period, paged, with before and after as values; support users get 403.
import { describe, expect, it } from 'vitest';
import { AdminChangePageSchema } from '../../../shared/admin-changes';
import type { BffHarness } from '../../test-support/bff-harness';
import { expectProblem } from '../../test-support/expect-problem';
import { harnessPerTest } from '../../test-support/harness-per-test';

const start = harnessPerTest();
const T0 = Date.UTC(2026, 10, 3, 9, 0, 0);

async function changes(h: BffHarness, query = '') {
  const response = await h.request(`/api/audit-trail/changes${query}`, {}, { as: 'auditor' });
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return AdminChangePageSchema.parse(await response.json());
}

describe('GET /api/audit-trail/changes', () => {
  it('shows an auditor a threshold changed by an admin, by kind, person and period', async () => {
    let now = T0;
    const h = await start({ now: () => now });
    // Both sign in first, at T0; the threshold is changed a minute later.
    await changes(h);
    expect((await h.request('/api/tokens')).status).toBe(200);
    now += 60_000;
    const set = await h.request('/api/alerts/thresholds/account-minute/MINUTE', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ percent: 55 }),
    });
    expect(set.status).toBe(204);

    const { items } = await changes(h, '?kind=threshold');
    expect(items).toEqual([
      expect.objectContaining({
        at: new Date(T0 + 60_000).toISOString(),
        user: 'admin',
        token: null,
        action: 'threshold.changed',
        target: 'account-minute:MINUTE',
        before: { percent: null },
        after: { percent: 55 },
      }),
    ]);
    expect((await changes(h, '?kind=sign-in&user=AUD')).items.map((i) => i.user)).toEqual([
      'auditor',
    ]);
    const since = encodeURIComponent(new Date(T0 + 1).toISOString());
    expect((await changes(h, `?since=${since}`)).items.map((i) => i.action)).toEqual([
      'threshold.changed',
    ]);
    const first = await changes(h, '?limit=1');
    expect(first.items.map((i) => i.action)).toEqual(['threshold.changed']);
    const rest = await changes(h, `?limit=5&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(rest.items.map((i) => i.action)).toEqual(['sign-in.succeeded', 'sign-in.succeeded']);
    expect(rest.nextCursor).toBeNull();
  });

  it('refuses an unknown kind, a bad period or cursor with a 400, and support users with 403', async () => {
    const h = await start();
    await expectProblem(await h.request('/api/audit-trail/changes?kind=password'), 400, {
      parameter: 'kind',
    });
    await expectProblem(await h.request('/api/audit-trail/changes?since=yesterday'), 400, {
      parameter: 'since',
    });
    await expectProblem(await h.request('/api/audit-trail/changes?cursor=forged'), 400, {
      parameter: 'cursor',
    });
    const support = await h.request('/api/audit-trail/changes', {}, { as: 'support' });
    expect(support.status).toBe(403);
  });
});
