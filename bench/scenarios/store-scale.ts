// Scenario 9, the store at scale: 100,000 incidents and 100,000 lookup audit records in the
// embedded store, and the time of the incident panel's query (newest page, and a filtered page)
// and of an audit search by identifier (hashing included, as the route does it) — median of
// repeated runs.
import { deriveAuditKey } from '../../src/server/data-subjects/audit/audit-chain';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIdentifierHasher } from '../../src/server/data-subjects/audit/identifier-hash';
import { DEFAULT_CONNECTION } from '../../src/shared/connections';
import type { AuditEntry } from '../../src/server/data-subjects/audit/audit-record-store';
import { AuditSearch } from '../../src/server/data-subjects/audit/audit-search';
import { openAuditTrailStores } from '../../src/server/data-subjects/audit/audit-trail-stores';
import { openDatabase, type SqlDatabase } from '../../src/server/store/database';
import {
  SqlIncidentStore,
  type IncidentObservation,
} from '../../src/server/rate-limits/incident-store';
import { median } from '../lib/load';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

// The audit trail's hash-chain key: any fixed key will do for measuring.
const BENCH_CHAIN_KEY = deriveAuditKey('bench-audit-key-'.repeat(4), 'chain');

const T0 = Date.UTC(2026, 0, 1);

function observation(i: number): IncidentObservation {
  const key = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const minute = i % 3 !== 0;
  return {
    key,
    eventId: key,
    at: T0 + i * 1_000,
    period: minute ? 'MINUTE' : 'HOUR',
    requestsAllowed: minute ? 20_000 : 200_000,
    requestsMade: minute ? 20_001 : 200_001,
    retryAfterSeconds: minute ? 60 : 3_600,
    blockedUntil: T0 + i * 1_000 + (minute ? 60_000 : 3_600_000),
    ruleId: minute ? 'account-minute' : 'account-hour',
    scope: 'account',
    operation: 'event-types',
    flags: [],
    headers: { 'retry-after': minute ? '60' : '3600', 'ot-ratelimit-event-id': key },
  };
}

const hasher = createIdentifierHasher('bench-audit-key-0123456789abcdef0123456789abcdef');
// A realistic spread: 5,000 data subjects looked up about 20 times each by 12 admins.
const SUBJECTS = 5_000;
const identifierOf = (i: number) => `subject-${i % SUBJECTS}@example.com`;
const hashes = Array.from({ length: SUBJECTS }, (_, i) => hasher.hash(identifierOf(i)));
const OPERATIONS = ['v4-basic-details', 'v4-details', 'v4-purposes', 'v4-link-tokens'];

function auditEntry(i: number): AuditEntry {
  return {
    at: T0 + i * 1_000,
    connection: DEFAULT_CONNECTION,
    user: `admin-${i % 12}`,
    operation: OPERATIONS[i % OPERATIONS.length]!,
    outcome: i % 10 === 0 ? 'not-found' : 'ok',
    status: 200,
    detail: null,
    identifierHash: hashes[i % SUBJECTS]!,
    keyId: hasher.keyId,
    continued: false,
    requestId: null,
  };
}

/** `count` rows written by `write(store, i)` in transactions of 1,000. */
async function load<Store>(
  db: SqlDatabase,
  count: number,
  storeOver: (db: SqlDatabase) => Store,
  write: (store: Store, i: number) => Promise<unknown>,
): Promise<number> {
  const started = performance.now();
  // How a long-running console's history accumulates is not what is measured here, the queries
  // over it are.
  for (let start = 0; start < count; start += 1_000) {
    await db.transaction(async (tx) => {
      const batch = storeOver({ ...db, query: tx.query, exec: tx.exec, transaction: (w) => w(tx) });
      for (let i = start; i < Math.min(count, start + 1_000); i += 1) await write(batch, i);
    });
  }
  return Math.round(performance.now() - started);
}

async function timed(runs: number, work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return median(times);
}

export async function storeScaleScenario(ctx: BenchContext): Promise<Figure[]> {
  const count = ctx.smoke ? 2_000 : 100_000;
  const db = await openDatabase({ dataDir: mkdtempSync(join(tmpdir(), 'bench-store-')) });
  try {
    const store = new SqlIncidentStore(db, { connection: DEFAULT_CONNECTION });
    const audit = new AuditSearch(db);
    const incidentsMs = await load(
      db,
      count,
      (d) => new SqlIncidentStore(d, { connection: DEFAULT_CONNECTION }),
      (batch, i) => batch.record(observation(i)),
    );
    const auditMs = await load(
      db,
      count,
      (d) => openAuditTrailStores(d, { chainKey: BENCH_CHAIN_KEY }).records,
      (batch, i) => batch.record(auditEntry(i)),
    );
    ctx.log(
      `  store: ${count} incidents loaded in ${incidentsMs} ms, ${count} audit records in ${auditMs} ms`,
    );
    const runs = ctx.smoke ? 5 : 50;
    const newest = await timed(runs, () => store.list({ limit: 50 }));
    const filtered = await timed(runs, () =>
      store.list({
        limit: 50,
        period: 'HOUR',
        rule: 'account-hour',
        since: T0 + (count / 2) * 1_000,
      }),
    );
    let subject = 0;
    const search = await timed(runs, () =>
      audit.findByIdentifierHashes(hasher.searchHashes(identifierOf((subject += 7))), {
        limit: 50,
      }),
    );
    const trail = await timed(runs, () => audit.list({ limit: 50, user: 'admin-3' }));
    const n = count.toLocaleString('en-US');
    const s = `Store at scale (${n} incidents, ${n} audit records)`;
    return [
      figure(s, 'incident panel query: newest 50', newest, 'ms', { op: '<=', value: 50 }),
      figure(s, 'incident panel query: filtered by period, rule and time', filtered, 'ms', {
        op: '<=',
        value: 50,
      }),
      figure(s, 'audit search by identifier', search, 'ms', { op: '<=', value: 50 }),
      figure(s, 'audit trail query: newest 50 of one user', trail, 'ms', { op: '<=', value: 50 }),
    ];
  } finally {
    await db.close();
  }
}
