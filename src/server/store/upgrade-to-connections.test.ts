// A database as the release before connections wrote it upgrades in place, on both engines: the
// one in fixtures/written-before-connections/ was written by the stores of commit 454786d (schema
// version 17): three chained lookups (one with a purpose, one made with a token, one an intent
// completed later), an administrative change, a 429 incident, an integration with a report, the
// console's own minutes, an alert destination and a queued alert. On PostgreSQL its rows are
// copied into a database migrated to the same version first. After migration 18 every record is
// `default`'s, the chain verifies as before, and entries written afterwards continue it.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { AlertStore } from '../alerts/alert-store';
import { deriveAuditKey } from '../data-subjects/audit/audit-chain';
import {
  openAuditTrailStores,
  type AuditTrailStores,
} from '../data-subjects/audit/audit-trail-stores';
import { verifyAuditChain } from '../data-subjects/audit/verify-chain';
import { IntegrationStore } from '../integrations/integration-store';
import { ReportAggregates } from '../integrations/report-aggregates';
import { ReportedMinutesReader } from '../integrations/reported-minutes-reader';
import { TrafficStore } from '../planning/traffic-store';
import { SqlIncidentStore } from '../rate-limits/incident-store';
import { sampleAuditEntry } from '../test-support/audit-entry';
import { STORE_ENGINES, type StoreEngine } from '../test-support/store-engines';
import { migrate, openDatabase, openReadOnlyDatabase, type SqlDatabase } from './database';
import { MIGRATIONS } from './migrations';
import { select } from './typed-rows';

/** The AUDIT_KEY the fixture was written with. */
const FIXTURE_AUDIT_KEY = 'connections-upgrade-fixture-audit-key-0123';
const CHAIN_KEY = deriveAuditKey(FIXTURE_AUDIT_KEY, 'chain');
const FIXTURE = fileURLToPath(new URL('./fixtures/written-before-connections', import.meta.url));
/** The minute the fixture's traffic was recorded in. */
const T0 = Date.UTC(2026, 10, 2, 9, 0, 0);

/** The tables of records that gained a connection. */
const RECORD_TABLES = [
  'rate_limit_incidents',
  'lookup_audit',
  'admin_changes',
  'alert_deliveries',
  'integrations',
  'integration_minutes',
  'integration_throttles',
  'console_minutes',
  'account_minutes',
  'source_minutes',
];

const BEFORE_CONNECTIONS = MIGRATIONS.filter((migration) => migration.version <= 17);

/** Copies every row of the fixture into `target`, a database at the same schema version. */
async function copyFixtureInto(fixtureDir: string, target: SqlDatabase): Promise<void> {
  const source = openReadOnlyDatabase(fixtureDir);
  try {
    const { rows: tables } = await select(
      source,
      z.object({ name: z.string() }),
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'schema_migrations'`,
    );
    await target.transaction(async (tx) => {
      for (const { name } of tables) {
        // Migrations seed some rows (the chain's head, the counters): the fixture's replace them.
        await tx.exec(`DELETE FROM ${name}`);
        const { rows } = await source.query(`SELECT * FROM ${name}`);
        for (const row of rows as Record<string, unknown>[]) {
          const columns = Object.keys(row);
          await tx.query(
            `INSERT INTO ${name} (${columns.join(', ')})
             VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')})`,
            Object.values(row),
          );
        }
      }
    });
  } finally {
    await source.close();
  }
}

/** The fixture's database upgraded on `engine`; `close` removes what it made. */
async function upgradedFixture(engine: StoreEngine) {
  const dataDir = mkdtempSync(join(tmpdir(), 'console-upgrade-connections-'));
  cpSync(FIXTURE, dataDir, { recursive: true });
  if (engine.name === 'SQLite') {
    const db = await openDatabase({ dataDir });
    return {
      db,
      close: async () => {
        await db.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const db = await engine.open({ migrations: BEFORE_CONNECTIONS });
  await copyFixtureInto(dataDir, db);
  rmSync(dataDir, { recursive: true, force: true });
  await migrate(db);
  return { db, close: () => db.close() };
}

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(
    `a database of the release before connections, upgraded on ${engine.title}`,
    () => {
      let db: SqlDatabase;
      let close: () => Promise<void>;
      let trail: AuditTrailStores;
      beforeAll(async () => {
        ({ db, close } = await upgradedFixture(engine));
        trail = openAuditTrailStores(db, { chainKey: CHAIN_KEY });
      });
      afterAll(() => close?.());
      const verify = () =>
        verifyAuditChain(trail.chain, CHAIN_KEY, { now: Date.now, source: 'the upgrade test' });

      it('makes every stored record default’s', async () => {
        for (const table of RECORD_TABLES) {
          const { rows } = await select(
            db,
            z.object({ connection: z.string() }),
            `SELECT DISTINCT connection FROM ${table}`,
          );
          expect({ table, connections: rows.map((row) => row.connection) }).toEqual({
            table,
            connections: [DEFAULT_CONNECTION],
          });
        }
      });

      it('reads every record back through the stores as default’s, and nothing as another’s', async () => {
        const { items } = await trail.search.list({ limit: 10 });
        expect(items.map((record) => [record.outcome, record.connection])).toEqual([
          ['ok', 'default'],
          ['not-found', 'default'],
          ['ok', 'default'],
        ]);
        expect(items[1]).toMatchObject({ token: 'nightly', purpose: { reference: 'SUP-1' } });
        const changes = await trail.search.listChanges({ limit: 10 });
        expect(changes.items).toMatchObject([
          { action: 'threshold.changed', connection: DEFAULT_CONNECTION },
        ]);

        const incidents = new SqlIncidentStore(db, { connection: DEFAULT_CONNECTION });
        expect((await incidents.list({ limit: 10 })).items).toMatchObject([
          { ruleId: 'account-minute', hits: 1 },
        ]);
        const uatIncidents = new SqlIncidentStore(db, { connection: 'uat' });
        expect((await uatIncidents.list({ limit: 10 })).items).toEqual([]);

        expect(await new IntegrationStore(db).list()).toMatchObject([
          { name: 'Fixture sync', connection: DEFAULT_CONNECTION },
        ]);
        expect(await new ReportAggregates(db).minutesSince(0)).toMatchObject([
          { requests: 40, connection: DEFAULT_CONNECTION },
        ]);
        const traffic = (connection: string) =>
          new TrafficStore(
            () => Promise.resolve(db),
            new ReportedMinutesReader(db, { connection }),
            { connection },
          );
        // The integration's 40 requests and the console's 2, as the account's minute.
        expect(await traffic(DEFAULT_CONNECTION).minuteTotals(T0, T0, [])).toMatchObject([
          { minute: T0, total: 42 },
        ]);
        expect(await traffic('uat').minuteTotals(T0, T0, [])).toEqual([]);
        expect(
          await new AlertStore(() => Promise.resolve(db)).listDeliveries('dest-1', 10),
        ).toMatchObject([{ id: 'delivery-1', connection: DEFAULT_CONNECTION }]);
      });

      it('verifies the chain as before, and continues it with entries written after', async () => {
        expect(await verify()).toMatchObject({ ok: true, entries: 7, brokenAt: null });
        await trail.records.record(sampleAuditEntry(Date.now(), { connection: 'uat' }));
        await trail.records.recordChange({
          at: Date.now(),
          connection: 'uat',
          actor: { user: 'admin', token: null },
          address: '203.0.113.7',
          action: 'threshold.changed',
          target: 'account-minute:MINUTE',
          before: { percent: 55 },
          after: { percent: 60 },
          requestId: null,
        });
        expect(await verify()).toMatchObject({ ok: true, entries: 10, brokenAt: null });
      });

      it('fails the walk at an entry written before the upgrade whose record is moved to another connection', async () => {
        const [oldest] = (await trail.search.list({ limit: 10, connection: 'default' })).items
          .slice()
          .reverse();
        await db.query('UPDATE lookup_audit SET connection = $1 WHERE id = $2', [
          'uat',
          oldest!.id,
        ]);
        const broken = await verify();
        expect(broken).toMatchObject({ ok: false, brokenAt: 1 });
        expect(broken.detail).toContain(`record ${oldest!.id} was moved to connection uat`);
        await db.query('UPDATE lookup_audit SET connection = $1 WHERE id = $2', [
          DEFAULT_CONNECTION,
          oldest!.id,
        ]);
        await db.query(`UPDATE admin_changes SET connection = 'uat' WHERE request_id = 'req-2'`);
        const movedChange = await verify();
        expect(movedChange).toMatchObject({ ok: false, brokenAt: 7 });
        expect(movedChange.detail).toContain('was moved to connection uat');
      });
    },
  );
}
