// Scenario 9, the store at scale: 100,000 incidents in the embedded store, and the time of the
// incident panel's query (newest page, and a filtered page) — median of repeated runs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/server/store/database';
import { SqlIncidentStore, type IncidentObservation } from '../../src/server/store/incident-store';
import { median } from '../lib/load';
import { figure, type Figure } from '../lib/report';
import type { BenchContext } from './context';

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
    const store = new SqlIncidentStore(db);
    const loadStarted = performance.now();
    // Loaded in transactions of 1,000: how a long-running console's history accumulates is not
    // what is measured here, the queries over it are.
    for (let start = 0; start < count; start += 1_000) {
      await db.transaction(async (tx) => {
        const batch = new SqlIncidentStore({
          ...db,
          query: tx.query,
          exec: tx.exec,
          transaction: (w) => w(tx),
        });
        for (let i = start; i < Math.min(count, start + 1_000); i += 1)
          await batch.record(observation(i));
      });
    }
    ctx.log(
      `  store: ${count} incidents loaded in ${Math.round(performance.now() - loadStarted)} ms`,
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
    const s = `Store at scale (${count.toLocaleString('en-US')} incidents)`;
    return [
      figure(s, 'incident panel query: newest 50', newest, 'ms', { op: '<=', value: 50 }),
      figure(s, 'incident panel query: filtered by period, rule and time', filtered, 'ms', {
        op: '<=',
        value: 50,
      }),
    ];
  } finally {
    await db.close();
  }
}
