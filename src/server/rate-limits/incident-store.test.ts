// The incident store on both engines (SQLite always; PostgreSQL when TEST_DATABASE_URL is set): one
// row per blocking occurrence however many 429s it had, the history's filters and paging, the
// stream's change feed, migrations, incidents surviving a restart, and on PostgreSQL several
// replicas writing at once without losing a hit or handing out a stream id out of commit order.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleObservation } from '../test-support/incident-observation';
import { STORE_ENGINES, type TestDatabase } from '../test-support/store-engines';
import { tempDirsPerTest } from '../test-support/temp-dirs';
import { migrate, openDatabase, SchemaTooNewError } from '../store/database';
import { SqlIncidentStore, type IncidentObservation } from './incident-store';
import { MIGRATIONS } from '../store/migrations';
import { openPostgresDatabase } from '../store/postgres-database';
import * as z from 'zod';
import { integer, select } from '../store/typed-rows';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const ID_A = '3f2b8c1e-9a4d-4e6b-8f7a-1c2d3e4f5a6b';
const ID_B = '7d1e2f3a-4b5c-4d6e-9f8a-0b1c2d3e4f5a';

function observation(overrides: Partial<IncidentObservation> = {}): IncidentObservation {
  return sampleObservation(overrides, T0);
}

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`the incident store on ${engine.title}`, () => {
    let db: TestDatabase;
    let store: SqlIncidentStore;

    beforeAll(async () => {
      db = await engine.open();
      store = new SqlIncidentStore(db, { connection: DEFAULT_CONNECTION });
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      await db.exec('DELETE FROM rate_limit_incidents');
    });

    describe('SqlIncidentStore', () => {
      it('keeps one incident per event id, counting hits and widening what it saw', async () => {
        const first = await store.record(observation());
        const second = await store.record(
          observation({
            at: T0 + 5_000,
            requestsMade: 20_007,
            retryAfterSeconds: 55,
            flags: ['malformed-requests-allowed'],
            headers: { 'retry-after': '55' },
          }),
        );
        expect(first).toMatchObject({ key: ID_A, hits: 1, firstSeen: new Date(T0).toISOString() });
        expect(second).toMatchObject({
          key: ID_A,
          eventId: ID_A,
          hits: 2,
          firstSeen: new Date(T0).toISOString(),
          lastSeen: new Date(T0 + 5_000).toISOString(),
          requestsMade: 20_007,
          retryAfterSeconds: 55,
          blockedUntil: new Date(T0 + 60_000).toISOString(),
          flags: ['malformed-requests-allowed'],
          headers: { 'retry-after': '55' },
        });
        expect(second.seq).toBeGreaterThan(first.seq);
        const { items } = await store.list({ limit: 10 });
        expect(items).toHaveLength(1);
      });

      it('keeps each connection’s incidents apart, even under the same event id', async () => {
        const uat = new SqlIncidentStore(db, { connection: 'uat' });
        const production = await store.record(observation({ blockedUntil: T0 + 60_000 }));
        const inUat = await uat.record(observation({ at: T0 + 1_000, blockedUntil: T0 + 120_000 }));
        await uat.record(observation({ at: T0 + 2_000, blockedUntil: T0 + 120_000 }));
        await uat.record(observation({ key: ID_B, eventId: ID_B, at: T0 + 3_000 }));

        expect(production).toMatchObject({ key: ID_A, hits: 1 });
        expect(inUat).toMatchObject({ key: ID_A, hits: 1 });
        expect((await store.list({ limit: 10 })).items).toMatchObject([{ key: ID_A, hits: 1 }]);
        expect((await uat.list({ limit: 10 })).items).toMatchObject([
          { key: ID_B, hits: 1 },
          { key: ID_A, hits: 2 },
        ]);
        // A block in UAT does not hold production: each restores its own blocks.
        expect((await store.activeBlocks(T0 + 90_000)).map((incident) => incident.key)).toEqual([]);
        expect((await uat.activeBlocks(T0 + 90_000)).map((incident) => incident.key)).toEqual([
          ID_A,
        ]);
        expect((await store.changesSince(0, 10)).map((incident) => incident.seq)).toEqual([
          production.seq,
        ]);
        expect(await store.latestSeq()).toBe(production.seq);
        expect(await uat.latestSeq()).toBeGreaterThan(production.seq);
      });

      it('lists newest first, filters by time, period and rule, and pages with a cursor', async () => {
        for (let i = 0; i < 5; i += 1) {
          await store.record(
            observation({
              key: `unidentified-${i}`,
              eventId: null,
              at: T0 + i * 60_000,
              blockedUntil: T0 + i * 60_000 + 60_000,
              period: i % 2 === 0 ? 'MINUTE' : 'HOUR',
              ruleId: i === 4 ? null : 'account-minute',
            }),
          );
        }
        const keys = async (query: Parameters<typeof store.list>[0]) =>
          (await store.list(query)).items.map((item) => item.key);
        expect(await keys({ limit: 10 })).toEqual([4, 3, 2, 1, 0].map((i) => `unidentified-${i}`));
        expect(await keys({ limit: 10, period: 'HOUR' })).toEqual([
          'unidentified-3',
          'unidentified-1',
        ]);
        expect(await keys({ limit: 10, rule: 'unmatched' })).toEqual(['unidentified-4']);
        expect(await keys({ limit: 10, since: T0 + 120_000, until: T0 + 180_000 })).toEqual([
          'unidentified-3',
          'unidentified-2',
        ]);

        const page1 = await store.list({ limit: 2 });
        expect(page1.items.map((item) => item.key)).toEqual(['unidentified-4', 'unidentified-3']);
        const page2 = await store.list({ limit: 2, cursor: page1.nextCursor ?? '' });
        const page3 = await store.list({ limit: 2, cursor: page2.nextCursor ?? '' });
        expect(page2.items.map((item) => item.key)).toEqual(['unidentified-2', 'unidentified-1']);
        expect(page3.items.map((item) => item.key)).toEqual(['unidentified-0']);
        expect(page3.nextCursor).toBeNull();
        await expect(store.list({ limit: 2, cursor: 'bm9wZQ' })).rejects.toThrow(/cursor/);
      });

      it('feeds the stream: changes after an id, in order, and the newest id', async () => {
        const a = await store.record(observation());
        const b = await store.record(observation({ key: ID_B, eventId: ID_B }));
        const a2 = await store.record(observation({ at: T0 + 1_000 }));
        expect((await store.changesSince(a.seq, 10)).map((i) => [i.key, i.seq])).toEqual([
          [ID_B, b.seq],
          [ID_A, a2.seq],
        ]);
        expect(await store.latestSeq()).toBe(a2.seq);
      });

      it('lists the blocks that have not ended', async () => {
        await store.record(observation());
        await store.record(observation({ key: ID_B, eventId: ID_B, blockedUntil: T0 + 3_600_000 }));
        const active = await store.activeBlocks(T0 + 120_000);
        expect(active.map((i) => i.key)).toEqual([ID_B]);
      });

      it('answers a ping', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });

    describe('migrations', () => {
      it('apply once, in order, and a later migration joins the list', async () => {
        const next = (MIGRATIONS.at(-1)?.version ?? 0) + 1;
        const extra = [
          ...MIGRATIONS,
          { version: next, name: 'later', sql: 'CREATE TABLE later_test (id integer)' },
        ];
        await migrate(db, extra);
        await migrate(db, extra);
        const { rows } = await select(
          db,
          z.object({ version: integer }),
          'SELECT version FROM schema_migrations ORDER BY version',
        );
        expect(rows.map((row) => row.version)).toEqual(extra.map((m) => m.version));
        await expect(migrate(db, MIGRATIONS)).rejects.toBeInstanceOf(SchemaTooNewError);
        await db.exec(
          `DROP TABLE later_test; DELETE FROM schema_migrations WHERE version = ${next}`,
        );
      });

      it('roll back a migration that fails, leaving the schema as it was', async () => {
        const next = (MIGRATIONS.at(-1)?.version ?? 0) + 1;
        const broken = [
          ...MIGRATIONS,
          {
            version: next,
            name: 'broken',
            sql: 'CREATE TABLE half_done (id integer); SELECT no_such_column FROM half_done',
          },
        ];
        await expect(migrate(db, broken)).rejects.toThrow();
        const { rows } = await select(
          db,
          z.object({ version: integer }),
          'SELECT MAX(version) AS version FROM schema_migrations',
        );
        expect(Number(rows[0]?.version)).toBe(next - 1);
        // The table of the failed migration was rolled back with it: creating it again works.
        await db.exec('CREATE TABLE half_done (id integer); DROP TABLE half_done');
      });
    });
  });
}

describe.skipIf(!STORE_ENGINES[1]?.available)(
  `several replicas on one ${STORE_ENGINES[1]?.title}`,
  () => {
    const engine = STORE_ENGINES[1]!;
    let db: TestDatabase;
    beforeAll(async () => {
      db = await engine.open();
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      await db.exec('DELETE FROM rate_limit_incidents');
    });

    it('count every hit of one incident written by two replicas at once', async () => {
      const replicaB = await openPostgresDatabase({ url: db.url! });
      try {
        const stores = [
          new SqlIncidentStore(db, { connection: DEFAULT_CONNECTION }),
          new SqlIncidentStore(replicaB, { connection: DEFAULT_CONNECTION }),
        ];
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            stores[i % 2]!.record(observation({ at: T0 + i * 10 })),
          ),
        );
        const [incident] = (await stores[0]!.list({ limit: 10 })).items;
        expect(incident?.hits).toBe(40);
        expect(new Set(results.map((r) => r.seq)).size).toBe(40);
      } finally {
        await replicaB.close();
      }
    });

    it('hand out stream ids in commit order, so a reader following changes skips none', async () => {
      const replicaB = await openPostgresDatabase({ url: db.url! });
      try {
        const stores = [
          new SqlIncidentStore(db, { connection: DEFAULT_CONNECTION }),
          new SqlIncidentStore(replicaB, { connection: DEFAULT_CONNECTION }),
        ];
        // The counter, not the newest row: earlier tests' rows were deleted, their ids are spent.
        const { rows } = await select(
          db,
          z.object({ value: integer }),
          "SELECT value FROM store_counters WHERE name = 'incident_seq'",
        );
        const start = Number(rows[0]?.value);
        const seen: number[] = [];
        let writing = true;
        // A replica's live stream: follows changesSince(last) while both replicas write.
        const follow = (async () => {
          let last = start;
          while (writing || last < start + 60) {
            for (const incident of await stores[1]!.changesSince(last, 500)) {
              seen.push(incident.seq);
              last = incident.seq;
            }
          }
        })();
        await Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            stores[i % 2]!.record(observation({ key: `k-${i}`, eventId: null })),
          ),
        );
        writing = false;
        await follow;
        expect(seen).toEqual(Array.from({ length: 60 }, (_, i) => start + i + 1));
      } finally {
        await replicaB.close();
      }
    });

    it('apply migrations once when two replicas start together, and keep incidents', async () => {
      const [a, b] = await Promise.all([
        openPostgresDatabase({ url: db.url! }),
        openPostgresDatabase({ url: db.url! }),
      ]);
      try {
        const { rows } = await select(
          a,
          z.object({ version: integer, n: integer }),
          'SELECT version, COUNT(*) AS n FROM schema_migrations GROUP BY version ORDER BY version',
        );
        expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, n: 1 })));
        await new SqlIncidentStore(a, { connection: DEFAULT_CONNECTION }).record(observation());
      } finally {
        await a.close();
        await b.close();
      }
      // A restart: a new pool finds the incident, and stream ids keep growing.
      const restarted = await openPostgresDatabase({ url: db.url! });
      try {
        const store = new SqlIncidentStore(restarted, { connection: DEFAULT_CONNECTION });
        expect((await store.list({ limit: 10 })).items).toEqual([
          expect.objectContaining({ key: ID_A, hits: 1 }),
        ]);
        const next = await store.record(observation({ at: T0 + 1_000 }));
        expect(next.hits).toBe(2);
      } finally {
        await restarted.close();
      }
    });

    it('tells other replicas of each committed change, in commit order', async () => {
      const replicaB = await openPostgresDatabase({ url: db.url! });
      const heard: string[] = [];
      const stop = await replicaB.listen!('console_incidents', {
        notification: (payload) => heard.push(payload),
      });
      try {
        const store = new SqlIncidentStore(db, { connection: DEFAULT_CONNECTION });
        const written = [];
        for (let i = 0; i < 3; i += 1)
          written.push(await store.record(observation({ at: T0 + i })));
        await expect.poll(() => heard.length).toBe(3);
        expect(heard).toEqual(written.map((incident) => String(incident.seq)));
      } finally {
        await stop();
        await replicaB.close();
      }
    });
  },
);

describe('the embedded store under DATA_DIR', () => {
  const newDataDir = tempDirsPerTest('console-store-');

  it('keeps incidents across a restart', async () => {
    const dataDir = newDataDir();
    const before = await openDatabase({ dataDir });
    await new SqlIncidentStore(before, { connection: DEFAULT_CONNECTION }).record(observation());
    await before.close();

    const after = await openDatabase({ dataDir });
    try {
      const restarted = new SqlIncidentStore(after, { connection: DEFAULT_CONNECTION });
      expect((await restarted.list({ limit: 10 })).items).toEqual([
        expect.objectContaining({ key: ID_A, hits: 1, ruleId: 'account-minute' }),
      ]);
      // Stream ids keep growing after the restart: a browser's Last-Event-ID stays meaningful.
      const next = await restarted.record(observation({ at: T0 + 1_000 }));
      expect(next.hits).toBe(2);
    } finally {
      await after.close();
    }
  }, 30_000);

  it('lets a second process open the same DATA_DIR and see the same incidents', async () => {
    const dataDir = newDataDir();
    // SQLite locks the file itself: two consoles on one DATA_DIR share incidents safely.
    const first = await openDatabase({ dataDir });
    const second = await openDatabase({ dataDir });
    try {
      await new SqlIncidentStore(first, { connection: DEFAULT_CONNECTION }).record(
        observation({ key: ID_B, eventId: ID_B }),
      );
      const seen = await new SqlIncidentStore(second, { connection: DEFAULT_CONNECTION }).list({
        limit: 10,
      });
      expect(seen.items.map((item) => item.key)).toContain(ID_B);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
