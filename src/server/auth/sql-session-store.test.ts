// Sessions in the console's database, on both engines (SQLite always; PostgreSQL when
// TEST_DATABASE_URL is set): the session-store contract, a session surviving a restart of the
// process on the same DATA_DIR, expired rows pruned, and sign-in kept working while the database
// cannot be used.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpProblem } from '../http/problem';
import { migrate, openDatabase, type SqlDatabase } from '../store/database';
import { MIGRATIONS } from '../store/migrations';
import { failingDatabase } from '../test-support/failing-database';
import {
  CONTRACT_IDLE_MS,
  CONTRACT_MAX_AGE_MS,
  sessionStoreContract,
} from '../test-support/session-store-contract';
import { STORE_ENGINES, type TestDatabase } from '../test-support/store-engines';
import { tempDirsPerTest } from '../test-support/temp-dirs';
import { userOfSession } from './require-session';
import { sessionIdHash } from './session-store';
import { SqlSessionStore } from './sql-session-store';
import * as z from 'zod';
import { integer, select } from '../store/typed-rows';

const user = { username: 'admin', role: 'admin' as const };
const password = { method: 'password' as const };

/** A store on `database`, as one process of the console builds it. */
function sessionsOn(database: () => Promise<SqlDatabase>, clock: { now: number }) {
  return new SqlSessionStore({
    database,
    idleMs: CONTRACT_IDLE_MS,
    maxAgeMs: CONTRACT_MAX_AGE_MS,
    now: () => clock.now,
  });
}

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`SqlSessionStore on ${engine.title}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await engine.open();
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      await db.exec('DELETE FROM console_sessions');
    });

    sessionStoreContract(
      async (clock) => ({
        a: sessionsOn(async () => db, clock),
        b: sessionsOn(async () => db, clock),
        dump: async () => JSON.stringify((await db.query('SELECT * FROM console_sessions')).rows),
      }),
      { outlivesProcess: true },
    );

    it('keeps the sessions of a database from before sessions said how they began, as password sessions', async () => {
      const earlier = await engine.open({ migrations: MIGRATIONS.filter((m) => m.version < 12) });
      try {
        const clock = { now: Date.now() };
        const id = randomBytes(32).toString('base64url');
        const at = new Date(clock.now).toISOString();
        await earlier.query(
          `INSERT INTO console_sessions (id_hash, username, created_at, last_seen_at, expires_at)
           VALUES ($1, 'admin', $2, $2, $3)`,
          [sessionIdHash(id), at, new Date(clock.now + CONTRACT_IDLE_MS).toISOString()],
        );
        await migrate(earlier);
        expect(await sessionsOn(async () => earlier, clock).touch(id)).toMatchObject({
          id,
          username: 'admin',
          method: 'password',
        });
      } finally {
        await earlier.close();
      }
    });

    it('keeps a provider session of a database from before roles per connection, its role everywhere', async () => {
      const earlier = await engine.open({ migrations: MIGRATIONS.filter((m) => m.version < 19) });
      try {
        const clock = { now: Date.now() };
        const id = randomBytes(32).toString('base64url');
        const at = new Date(clock.now).toISOString();
        await earlier.query(
          `INSERT INTO console_sessions (id_hash, username, created_at, last_seen_at, expires_at,
             method, role, provider_issuer, provider_sub)
           VALUES ($1, 'zoe', $2, $2, $3, 'provider', 'auditor', 'https://idp.example', 's1')`,
          [sessionIdHash(id), at, new Date(clock.now + CONTRACT_IDLE_MS).toISOString()],
        );
        await migrate(earlier);
        const session = await sessionsOn(async () => earlier, clock).touch(id);
        expect(session).toMatchObject({ username: 'zoe', method: 'provider', role: 'auditor' });
        expect(session?.connectionRoles).toBeUndefined();
        // No grants: the role applies in every configured connection.
        const users = {
          find: () => undefined,
          authenticate: async () => undefined,
          list: () => [],
        };
        expect(userOfSession({ users, connections: ['default', 'uat'] }, session!)?.roles).toEqual({
          default: 'auditor',
          uat: 'auditor',
        });
      } finally {
        await earlier.close();
      }
    });

    it('drops rows past their expiry when someone signs in', async () => {
      const clock = { now: Date.now() };
      const sessions = sessionsOn(async () => db, clock);
      for (let i = 0; i < 3; i += 1) await sessions.create(user, password);
      clock.now += CONTRACT_IDLE_MS + 1;
      await sessions.create(user, password);
      const { rows } = await select(
        db,
        z.object({ n: integer }),
        'SELECT COUNT(*) AS n FROM console_sessions',
      );
      expect(Number(rows[0]?.n)).toBe(1);
    });
  });
}

describe('SqlSessionStore across a restart and an unusable database', () => {
  const tempDir = tempDirsPerTest('console-sessions-');

  it('keeps a session across a restart of the process on the same DATA_DIR', async () => {
    const dataDir = tempDir();
    const clock = { now: Date.now() };
    const before = await openDatabase({ dataDir });
    const { id } = await sessionsOn(async () => before, clock).create(user, password);
    await before.close();

    const after = await openDatabase({ dataDir });
    try {
      clock.now += 60_000;
      expect(await sessionsOn(async () => after, clock).touch(id)).toMatchObject({
        id,
        username: 'admin',
      });
    } finally {
      await after.close();
    }
  });

  it('signs in while the database is away and saves the session once it is back', async () => {
    const clock = { now: Date.now() };
    const real = await openDatabase();
    const broken = failingDatabase('disk I/O error');
    let current: SqlDatabase = broken;
    const sessions = sessionsOn(async () => current, clock);
    try {
      const alice = await sessions.create(user, password);
      const bob = await sessions.create({ username: 'support' }, password);
      expect(await sessions.touch(alice.id)).toMatchObject({ username: 'admin' });
      await sessions.delete(bob.id);

      current = real;
      expect(await sessions.touch(alice.id)).toBeDefined();
      expect(await sessions.touch(bob.id)).toBeUndefined();
      // Saved: another process on the database sees it.
      expect(await sessionsOn(async () => real, clock).touch(alice.id)).toBeDefined();
    } finally {
      await real.close();
    }
  });

  it('answers 503 for a session it has not seen while the database is away, not a sign-out', async () => {
    const clock = { now: Date.now() };
    const real = await openDatabase();
    try {
      const { id } = await sessionsOn(async () => real, clock).create(user, password);
      const other = sessionsOn(async () => failingDatabase('connection refused'), clock);
      const refused = await other.touch(id).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(HttpProblem);
      expect((refused as HttpProblem).problem).toMatchObject({ status: 503 });
    } finally {
      await real.close();
    }
  });
});
