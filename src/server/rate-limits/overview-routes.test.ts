// The overview of every connection as a person gets it: a block in UAT shows on UAT's card only,
// a person sees only the connections they have a role in, and UAT's platform failing marks UAT's
// card while production's answers as usual; nothing is sent upstream to answer it.
import { describe, expect, it } from 'vitest';
import type { RateLimitOverview } from '../../shared/connection-overview';
import { harnessPerTest } from '../test-support/harness-per-test';
import type { BffHarness } from '../test-support/bff-harness';

const start = harnessPerTest();

const twoConnections = () =>
  start({
    otherConnections: [{ name: 'uat', label: 'UAT', tier: 'sandbox', mock: { eventTypeCount: 7 } }],
  });

async function overviewOf(h: BffHarness, cookie?: string): Promise<RateLimitOverview> {
  const response = cookie
    ? await h.request('/api/rate-limit-overview', { headers: { Cookie: cookie } }, { as: null })
    : await h.request('/api/rate-limit-overview');
  expect(response.status).toBe(200);
  return (await response.json()) as RateLimitOverview;
}

const card = (overview: RateLimitOverview, name: string) =>
  overview.connections.find((connection) => connection.name === name)!;

const accountMinute = (overview: RateLimitOverview, name: string) =>
  card(overview, name).limits?.find(
    (limit) => limit.ruleId === 'account-minute' && limit.period === 'MINUTE',
  );

describe('GET /api/rate-limit-overview', () => {
  it("lists every connection in order with its own tier and limits, and a block in UAT on UAT's card only", async () => {
    const h = await twoConnections();
    const uat = h.others.get('uat')!;
    uat.server.state.injectFault({ operation: 'event-types', status: 429, retryAfterSeconds: 60 });
    await h.request('/api/connections/uat/event-types');

    const sentBefore = h.sent.length;
    const overview = await overviewOf(h);
    expect(h.sent.length).toBe(sentBefore);
    expect(overview.connections.map((connection) => [connection.name, connection.tier])).toEqual([
      ['default', 'production'],
      ['uat', 'sandbox'],
    ]);
    // Each tier's own figures: production's account minute limit is not the sandbox's.
    expect(accountMinute(overview, 'default')?.limit).not.toBe(
      accountMinute(overview, 'uat')?.limit,
    );
    expect(card(overview, 'default').blocks).toEqual([]);
    const [block] = card(overview, 'uat').blocks;
    expect(block).toMatchObject({ scope: expect.any(String), ruleName: expect.any(String) });
    // It ends when the 429 said: a minute after it, as the governor keeps it.
    const uatStack = h.connections.find((stack) => stack.connection.name === 'uat')!;
    const [held] = uatStack.rateLimiting.governor.activeBlocks();
    expect(Date.parse(block!.until)).toBe(held!.until);
    expect(card(overview, 'uat').platform).toEqual({ state: 'answering' });
    expect(card(overview, 'default').governor).toBe('single');
  });

  it('shows a person only the connections they have a role in', async () => {
    const h = await twoConnections();
    const cookie = await h.signIn('connection-user');
    const overview = await overviewOf(h, cookie);
    expect(overview.connections.map((connection) => connection.name)).toEqual(['default']);
    expect(JSON.stringify(overview)).not.toContain('UAT');
  });

  it("says UAT's platform is unreachable on UAT's card while production's answers", async () => {
    const h = await twoConnections();
    h.others.get('uat')!.server.state.injectFault({ operation: 'token', status: 500, count: 5 });
    expect((await h.request('/api/connections/uat/event-types')).status).toBeGreaterThanOrEqual(
      500,
    );
    expect((await h.request('/api/event-types')).status).toBe(200);

    const overview = await overviewOf(h);
    expect(card(overview, 'uat').platform).toMatchObject({
      state: 'unreachable',
      title: expect.stringContaining('token endpoint'),
    });
    expect(card(overview, 'uat').limits).not.toBeNull();
    expect(card(overview, 'default').platform).toEqual({ state: 'answering' });
    expect(accountMinute(overview, 'default')?.used).toBeGreaterThan(0);
  });

  it("says UAT's credential is refused on UAT's card", async () => {
    const h = await twoConnections();
    h.others.get('uat')!.server.state.injectFault({ operation: 'token', status: 401, count: 5 });
    await h.request('/api/connections/uat/event-types');

    const overview = await overviewOf(h);
    expect(card(overview, 'uat').platform.state).toBe('credential-refused');
    expect(card(overview, 'default').platform.state).toBe('answering');
  });
});
