// A store written by an earlier console opens and reads without loss in this one: the database in
// fixtures/written-before-areas/ was written by the build of commit 8d9f290 (before the BFF was
// split into area modules, its rows were typed and its stores split by job), in demo mode, through
// its API: three lookups, one 429 incident, an alert destination, an integration and the demo
// integrations' reports. Every store reads its rows back through the typed-row checks, and the
// audit chain still verifies.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertStore } from '../alerts/alert-store';
import { deriveAuditKey } from '../data-subjects/audit/audit-chain';
import { openAuditTrailStores } from '../data-subjects/audit/audit-trail-stores';
import { verifyAuditChain } from '../data-subjects/audit/verify-chain';
import { IntegrationStore } from '../integrations/integration-store';
import { ReportAggregates } from '../integrations/report-aggregates';
import { SqlIncidentStore } from '../rate-limits/incident-store';
import { openDatabase, type SqlDatabase } from './database';

/** The AUDIT_KEY the earlier console ran with. */
const FIXTURE_AUDIT_KEY = 'upgrade-fixture-audit-key-0123456789abcdef';
const FIXTURE = fileURLToPath(new URL('./fixtures/written-before-areas', import.meta.url));

describe('a store written by the console before its stores were typed and split', () => {
  let dataDir: string;
  let db: SqlDatabase;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'console-upgrade-'));
    cpSync(FIXTURE, dataDir, { recursive: true });
    db = await openDatabase({ dataDir });
  });
  afterAll(async () => {
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every lookup, and the audit chain verifies', async () => {
    const chainKey = deriveAuditKey(FIXTURE_AUDIT_KEY, 'chain');
    const trail = openAuditTrailStores(db, { chainKey });
    const { items } = await trail.search.list({ limit: 50 });
    expect(items.map((record) => record.outcome).sort()).toEqual(['not-found', 'ok', 'ok']);
    expect(items.every((record) => record.user === 'admin' && record.completed)).toBe(true);
    const verification = await verifyAuditChain(trail.chain, chainKey, {
      now: Date.now,
      source: 'the upgrade test',
    });
    expect(verification).toMatchObject({ ok: true, entries: 6 });
  });

  it('keeps the 429 incident, the alert destination and the integrations with their reports', async () => {
    const incidents = await new SqlIncidentStore(db, { connection: DEFAULT_CONNECTION }).list({
      limit: 50,
    });
    expect(incidents.items).toMatchObject([{ scope: 'account', hits: 1 }]);
    expect(await new AlertStore(() => Promise.resolve(db)).listDestinations()).toMatchObject([
      { name: 'Ops webhook', kind: 'webhook', enabled: true },
    ]);
    const integrations = new IntegrationStore(db);
    expect((await integrations.list()).map((integration) => integration.name)).toContain(
      'Fixture integration',
    );
    expect((await new ReportAggregates(db).minutesSince(0)).length).toBeGreaterThan(0);
  });
});
