// GET /api/health as the banner on every page reads it: whether incidents are being recorded and
// how the governor counts, for any signed-in user, with no internal detail.
import { describe, expect, it } from 'vitest';
import { failingDatabase } from '../test-support/failing-database';
import { harnessPerTest } from '../test-support/harness-per-test';

const start = harnessPerTest();

describe('GET /api/health', () => {
  it('says all is well, to any signed-in role only', async () => {
    const harness = await start();
    const response = await harness.request('/api/health', {}, { as: 'support' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ store: 'ok', audit: 'ok', governor: 'single' });
    expect((await harness.request('/api/health', {}, { as: null })).status).toBe(401);
  });

  it('says the store is unavailable, without the error, when it fails', async () => {
    const failing = failingDatabase('connect ECONNREFUSED 10.0.0.5:5432');
    const harness = await start({ database: failing });
    const response = await harness.request('/api/health');
    // The audit's write probe goes to the same store, so lookups are said to be refused too.
    expect(await response.json()).toEqual({
      store: 'unavailable',
      audit: 'failing',
      governor: 'single',
    });
  });

  it('says when this replica keeps its own share of the limits', async () => {
    const harness = await start({ env: { REPLICAS: '3' } });
    expect(await (await harness.request('/api/health')).json()).toEqual({
      store: 'ok',
      audit: 'ok',
      governor: 'fallback',
    });
  });

  it('names the cause when the console cannot sign in to the platform, as /readyz does', async () => {
    const harness = await start({ env: { OAUTH_CLIENT_SECRET: 'not-the-secret' } });
    await harness.request('/api/event-types');
    const health = await (await harness.request('/api/health', {}, { as: 'support' })).json();
    expect(health.platformSignIn).toMatchObject({
      cause: 'credentials-refused',
      title: 'The platform’s token endpoint refused the console’s client credentials',
    });
  });

  it('leaves a token request the governor holds back to the rate-limit notices', async () => {
    const harness = await start();
    harness.mock.injectFault({ operation: 'token', status: 429, retryAfterSeconds: 120 });
    expect((await harness.request('/api/event-types')).status).toBe(429);
    const health = await (await harness.request('/api/health')).json();
    expect(health.platformSignIn).toBeUndefined();
  });
});
