// The token store on SQLite and PostgreSQL alike: made, found by the token only, listed per owner
// or for everyone, revoked only where allowed, and never stored in clear.
import { afterEach, describe, expect, it } from 'vitest';
import { STORE_ENGINES, type TestDatabase } from '../test-support/store-engines';
import { ApiTokens, apiTokenHash } from './api-tokens';

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`tokens for scripts on ${engine.title}`, () => {
    const opened: TestDatabase[] = [];
    afterEach(async () => {
      for (const db of opened.splice(0)) await db.close();
    });
    const clock = { now: Date.parse('2030-01-01T09:00:00Z') };
    async function store() {
      const db = await engine.open();
      opened.push(db);
      return {
        db,
        tokens: new ApiTokens({ database: () => Promise.resolve(db), now: () => clock.now }),
      };
    }
    const alice = { username: 'alice', role: 'admin' as const };
    const bob = { username: 'bob', role: 'support' as const };

    it('finds a token by itself only, lists per owner, and keeps only the hash', async () => {
      const { db, tokens } = await store();
      const a = await tokens.create(alice, { name: 'export', role: 'auditor', expiresInDays: 2 });
      const b = await tokens.create(bob, { name: 'sync', role: 'support', expiresInDays: 2 });
      expect((await tokens.verify(a.token))?.id).toBe(a.record.id);
      expect(await tokens.verify(`${a.token.slice(0, -1)}x`)).toBeUndefined();
      expect((await tokens.list('bob')).map((t) => t.id)).toEqual([b.record.id]);
      expect(await tokens.list()).toHaveLength(2);
      const { rows } = await db.query('SELECT token_hash FROM api_tokens ORDER BY owner');
      expect(rows).toEqual([
        { token_hash: apiTokenHash(a.token) },
        { token_hash: apiTokenHash(b.token) },
      ]);
      clock.now += 2 * 86_400_000;
      expect(await tokens.verify(a.token)).toBeUndefined();
    });

    it('revokes only what the caller may', async () => {
      const { tokens } = await store();
      const b = await tokens.create(bob, { name: 'sync', role: 'support', expiresInDays: 2 });
      expect(await tokens.revoke(b.record.id, () => false)).toBeUndefined();
      expect(await tokens.verify(b.token)).toBeDefined();
      expect((await tokens.revoke(b.record.id, () => true))?.name).toBe('sync');
      expect(await tokens.verify(b.token)).toBeUndefined();
    });
  });
}
