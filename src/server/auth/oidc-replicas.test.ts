// Back-channel logout on two replicas of one console sharing Redis (scripts/start-test-services.sh):
// the provider tells one replica, the session ends on both, and a replayed logout token is
// refused by the other.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../observability/logger';
import { closeRedis, connectRedis } from '../redis/redis-connection';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';
import {
  providerEnv,
  signInTrip,
  startTestProvider,
  TEST_CLIENT,
} from '../test-support/oidc-sign-in-flow';
import { NEEDS_SERVICES, TEST_REDIS_URL } from '../test-support/store-engines';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const title = TEST_REDIS_URL
  ? 'back-channel logout on two replicas sharing Redis'
  : `back-channel logout on two replicas sharing Redis (skipped: TEST_REDIS_URL is not set; ${NEEDS_SERVICES})`;

describe.skipIf(!TEST_REDIS_URL)(title, () => {
  it('ends the session on both replicas, and the other replica refuses the token replayed', async () => {
    const replicas: { a?: BffHarness; b?: BffHarness } = {};
    // The provider's back-channel logout reaches replica B only.
    const provider = await startTestProvider(() => replicas.b!.app);
    cleanups.push(() => provider.close());
    const env = {
      ...providerEnv(provider),
      // Every replica of one console has the same secrets.
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      AUDIT_KEY: randomBytes(32).toString('base64url'),
    };
    const start = async (upstream?: BffHarness['upstream']) => {
      const redis = await connectRedis({ url: TEST_REDIS_URL!, logger: createLogger('silent') });
      const harness = await startBffHarness({ env, redis, ...(upstream ? { upstream } : {}) });
      cleanups.push(async () => {
        await harness.close();
        await closeRedis(redis);
      });
      return harness;
    };
    replicas.a = await start();
    replicas.b = await start(replicas.a.upstream);
    cleanups.push(() => replicas.a!.upstream.close());
    const { a, b } = replicas as { a: BffHarness; b: BffHarness };

    const trip = await signInTrip(a.app, 'ada');
    const session = async (replica: BffHarness) =>
      (
        await replica.app.request('/api/session', {
          headers: { 'X-CSRF': '1', Cookie: trip.sessionCookie! },
        })
      ).status;
    expect([await session(a), await session(b)]).toEqual([200, 200]);

    const [record] = await a.auth.sessions.list({ username: 'ada' });
    await provider.backchannelLogout(TEST_CLIENT.clientId, 'ada', record!.provider!.sid!);
    expect(provider.logouts.map((logout) => logout.status)).toEqual([200]);
    expect([await session(a), await session(b)]).toEqual([204, 204]);

    const again = await signInTrip(a.app, 'ada');
    const replay = await a.app.request('/auth/backchannel-logout', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: provider.logouts[0]!.token }),
    });
    expect(replay.status).toBe(400);
    const live = await a.app.request('/api/session', {
      headers: { 'X-CSRF': '1', Cookie: again.sessionCookie! },
    });
    expect(live.status).toBe(200);
  });
});
