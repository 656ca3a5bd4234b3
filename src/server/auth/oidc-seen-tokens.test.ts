// Seen logout tokens in the console's database (SQLite and PostgreSQL): a jti is accepted once
// until its token expires, also by a second replica on the same database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_ENGINES, type TestDatabase } from '../test-support/store-engines';
import { MemorySeenLogoutTokens, SqlSeenLogoutTokens } from './oidc-seen-tokens';

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`SqlSeenLogoutTokens on ${engine.title}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await engine.open();
    });
    afterAll(() => db?.close());

    it('accepts a jti once on every replica, and again once its token has expired', async () => {
      let now = 1_000_000;
      const replicaA = new SqlSeenLogoutTokens(
        async () => db,
        () => now,
      );
      const replicaB = new SqlSeenLogoutTokens(
        async () => db,
        () => now,
      );
      expect(await replicaA.firstSeen('jti-1', now + 60_000)).toBe(true);
      expect(await replicaB.firstSeen('jti-1', now + 60_000)).toBe(false);
      expect(await replicaB.firstSeen('jti-2', now + 60_000)).toBe(true);
      now += 60_000;
      expect(await replicaA.firstSeen('jti-1', now + 60_000)).toBe(true);
    });
  });
}

describe('MemorySeenLogoutTokens', () => {
  it('accepts a jti once until its token expires', async () => {
    let now = 0;
    const seen = new MemorySeenLogoutTokens(() => now);
    expect(await seen.firstSeen('jti', 10)).toBe(true);
    expect(await seen.firstSeen('jti', 10)).toBe(false);
    now = 10;
    expect(await seen.firstSeen('jti', 20)).toBe(true);
  });
});
