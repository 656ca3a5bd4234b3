// Which alerts the console raises from what it sees: a new incident once however often it is
// updated, a block's start and its end (due when the block ends), one near-limit and one forecast
// alert per crossing (quiet while the limit stays high, "resolved" when it recovers, repeated only
// after the repeat interval), and "held back" once per episode after a destination's N seconds.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Incident } from '../../shared/incident';
import { sampleIncident } from '../../shared/test-support/incidents';
import { createLogger } from '../observability/logger';
import { openDatabase, type SqlDatabase } from '../store/database';
import { sortableId } from '../store/sortable-id';
import { alertPipeline, MANUAL_SCHEDULER } from '../test-support/alert-pipeline';
import { AlertConditions } from './alert-conditions';
import {
  AlertMonitor,
  holdingSince,
  type AlertMonitorOptions,
  type WatchedConnection,
} from './alert-monitor';
import type { AlertPayload } from './alert-payload';
import type { AlertStore, StoredDestination } from './alert-store';
import type { LimitSample } from './forecast';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 30);
const logger = createLogger('silent');

let db: SqlDatabase;
let store: AlertStore;
let monitor: AlertMonitor;
let options: AlertMonitorOptions;
const clock = { now: T0 };
let samples: LimitSample[];
let refused: number[];

beforeEach(async () => {
  db = await openDatabase();
  clock.now = T0;
  samples = [];
  refused = Array.from({ length: 360 }, () => 0);
  const pipeline = alertPipeline(() => Promise.resolve(db), clock, {
    http: { allowPrivate: false, demo: false, timeoutMs: 1_000, maxResponseBytes: 1_024 },
    maxAttempts: 3,
  });
  store = pipeline.store;
  const service = pipeline.service;
  options = {
    service,
    store,
    conditions: new AlertConditions(() => Promise.resolve(db)),
    usage: { sample: async () => samples },
    timeline: {
      snapshot: () => {
        const bucketMs = 10_000;
        const last = Math.floor(clock.now / bucketMs);
        return {
          bucketSeconds: 10,
          start: (last - 359) * bucketMs,
          sent: refused.map(() => 0),
          refused,
          throttled: refused.map(() => 0),
        };
      },
    },
    logger,
    now: () => clock.now,
    scheduler: MANUAL_SCHEDULER,
  };
  monitor = new AlertMonitor(options);
});
afterEach(() => db.close());

async function destination(events: StoredDestination['events'], holdBackSeconds = 60) {
  const created: StoredDestination = {
    id: sortableId(clock.now),
    name: 'Ops',
    kind: 'slack',
    url: 'https://hooks.slack.com/services/T/B/secret',
    secret: null,
    signing: null,
    events,
    enabled: true,
    holdBackSeconds,
    createdAt: new Date(clock.now).toISOString(),
  };
  await store.createDestination(created);
  return created;
}

async function log(id: string) {
  return (await store.listDeliveries(id, 100)).map((delivery) => delivery.event).sort();
}

function incident(overrides: Partial<Incident> = {}): Incident {
  return sampleIncident(overrides, T0);
}

describe('alerts from incidents', () => {
  it('raises one new-incident, one block-started and one block-ended alert per incident', async () => {
    const ops = await destination(['incident.new', 'block.started', 'block.ended']);
    await monitor.onIncident(incident());
    await monitor.onIncident(incident({ seq: 2, hits: 2 }));
    expect(await log(ops.id)).toEqual(['block.ended', 'block.started', 'incident.new']);
    const ended = (await store.listDeliveries(ops.id, 10)).find((d) => d.event === 'block.ended');
    expect(ended?.nextAttemptAt).toBe(new Date(T0 + 60_000).toISOString());
    // A further 429 lengthened the block: the end alert moves with it.
    await monitor.onIncident(
      incident({ seq: 3, hits: 3, blockedUntil: new Date(T0 + 120_000).toISOString() }),
    );
    const moved = await store.getDelivery(ended!.id);
    expect(moved?.nextAttemptAt).toBe(new Date(T0 + 120_000).toISOString());
  });

  it('raises no block alerts for an incident whose block is over', async () => {
    const ops = await destination(['incident.new', 'block.started', 'block.ended']);
    clock.now = T0 + 61_000;
    await monitor.onIncident(incident());
    expect(await log(ops.id)).toEqual(['incident.new']);
  });
});

describe('alerts from the forecast', () => {
  const sample = (used: number, perMinute: number): LimitSample => ({
    ruleId: 'account-minute',
    period: 'MINUTE',
    limit: 1_000,
    windowSeconds: 60,
    used,
    ratePerSecond: perMinute / 60,
    source: 'console',
  });

  const summaries = async (id: string) =>
    (await store.listDeliveries(id, 100)).map((delivery) => delivery.summary).reverse();

  /** Evaluates every 5 s for `ms`, as the running monitor does. */
  async function runFor(ms: number) {
    for (const end = clock.now + ms; clock.now < end; clock.now += 5_000) {
      await monitor.evaluate();
    }
  }

  it('warns once when a limit crosses its threshold, stays quiet while it stays past, and resolves', async () => {
    const ops = await destination(['limit.near']);
    samples = [sample(700, 700)];
    await monitor.evaluate();
    expect(await log(ops.id)).toEqual([]);
    await store.setThreshold('account-minute:MINUTE', 70, clock.now);
    // Twelve minutes above the threshold, across twelve window edges: one alert.
    await runFor(12 * 60_000);
    expect(await summaries(ops.id)).toEqual([
      'Account minute limit is at 70% (700 of 1000), past its 70% warning.',
    ]);
    // It recovers: one "resolved".
    samples = [sample(100, 100)];
    await runFor(60_000);
    expect(await summaries(ops.id)).toEqual([
      'Account minute limit is at 70% (700 of 1000), past its 70% warning.',
      'Resolved: Account minute limit is back under its 70% warning (10%, 100 of 1000).',
    ]);
    const [resolved] = await store.listDeliveries(ops.id, 1);
    expect(resolved?.event).toBe('limit.near');
    // A new crossing after the recovery is a new alert.
    samples = [sample(900, 900)];
    await runFor(10_000);
    expect(await log(ops.id)).toEqual(['limit.near', 'limit.near', 'limit.near']);
  });

  it('does not alert twice when the crossing straddles the edge of a minute', async () => {
    const ops = await destination(['limit.near', 'limit.forecast']);
    samples = [sample(900, 1_500)];
    clock.now = Date.UTC(2025, 0, 6, 9, 0, 55);
    await monitor.evaluate();
    clock.now += 10_000;
    await monitor.evaluate();
    expect(await log(ops.id)).toEqual(['limit.forecast', 'limit.near']);
  });

  it('repeats a condition that keeps firing only after the repeat interval', async () => {
    monitor = new AlertMonitor({ ...options, repeatMs: 3_600_000 });
    const ops = await destination(['limit.near']);
    samples = [sample(900, 900)];
    await monitor.evaluate();
    clock.now += 59 * 60_000;
    await monitor.evaluate();
    expect(await log(ops.id)).toEqual(['limit.near']);
    clock.now += 60_000;
    await monitor.evaluate();
    expect(await log(ops.id)).toEqual(['limit.near', 'limit.near']);
  });

  it('agrees across replicas: two monitors on one database alert once', async () => {
    const other = new AlertMonitor(options);
    const ops = await destination(['limit.near']);
    samples = [sample(900, 900)];
    await Promise.all([monitor.evaluate(), other.evaluate()]);
    clock.now += 5_000;
    await Promise.all([monitor.evaluate(), other.evaluate()]);
    expect(await log(ops.id)).toEqual(['limit.near']);
  });

  it('forecasts exhaustion when the current rate fills the window', async () => {
    const ops = await destination(['limit.forecast', 'limit.near']);
    samples = [sample(100, 1_500)];
    await monitor.evaluate();
    expect(await log(ops.id)).toEqual(['limit.forecast']);
    const [alert] = await store.listDeliveries(ops.id, 1);
    expect(alert?.summary).toMatch(/At 1500 requests a minute, Account minute limit runs out/);
  });
});

describe('alerts from the governor holding requests back', () => {
  it('finds the run of buckets with refusals that reaches now', () => {
    const snapshot = {
      snapshot: () => ({
        bucketSeconds: 10,
        start: 0,
        sent: [],
        refused: [0, 3, 0, 2, 5, 0],
        throttled: [],
      }),
    };
    expect(holdingSince(snapshot)).toBe(30_000);
    const quiet = {
      snapshot: () => ({
        bucketSeconds: 10,
        start: 0,
        sent: [],
        refused: [4, 0, 0],
        throttled: [],
      }),
    };
    expect(holdingSince(quiet)).toBeNull();
  });

  it('alerts each destination once its own N seconds have passed, once per episode', async () => {
    const quick = await destination(['governor.holding'], 20);
    const patient = await destination(['governor.holding'], 60);
    // Refusals in the last three buckets (the current one included): 20 s so far.
    refused.splice(357, 3, 4, 4, 4);
    await monitor.evaluate();
    expect(await log(quick.id)).toEqual(['governor.holding']);
    expect(await log(patient.id)).toEqual([]);
    // 50 s later the same episode goes on: 70 s.
    refused.splice(0, 360, ...refused.slice(5), 4, 4, 4, 4, 4);
    clock.now += 50_000;
    await monitor.evaluate();
    expect(await log(quick.id)).toEqual(['governor.holding']);
    expect(await log(patient.id)).toEqual(['governor.holding']);
  });
});

describe('alerts of several connections', () => {
  const production: WatchedConnection = {
    name: 'default',
    label: 'Production (EU)',
    named: true,
    onAlertsPage: true,
  };
  const uat: WatchedConnection = { name: 'uat', label: 'UAT', named: true, onAlertsPage: false };

  /** Two monitors on one outbox, each watching its connection, with links to the console. */
  function watchBoth(uatSamples: () => LimitSample[]) {
    const { service } = alertPipeline(
      () => Promise.resolve(db),
      clock,
      {
        http: { allowPrivate: false, demo: false, timeoutMs: 1_000, maxResponseBytes: 1_024 },
        maxAttempts: 3,
      },
      { publicOrigin: 'https://console.example' },
    );
    return {
      production: new AlertMonitor({ ...options, service, connection: production }),
      uat: new AlertMonitor({
        ...options,
        service,
        connection: uat,
        usage: { sample: async () => uatSamples() },
      }),
    };
  }

  /** Each alert queued for `id`, oldest first: its connection, summary and sent payload. */
  async function alerts(id: string) {
    const { rows } = await db.query(
      'SELECT connection, summary, payload FROM alert_deliveries WHERE destination_id = $1 ORDER BY created_at, id',
      [id],
    );
    return (rows as Array<{ connection: string; summary: string; payload: string }>).map((row) => ({
      ...row,
      payload: JSON.parse(row.payload) as AlertPayload,
    }));
  }

  it('alerts the same incident key in two accounts apart, each naming and linking its connection', async () => {
    const ops = await destination(['incident.new']);
    const monitors = watchBoth(() => []);
    // Two accounts' incident keys come from two platforms: the same key is no duplicate.
    await monitors.production.onIncident(incident());
    await monitors.uat.onIncident(incident());
    const queued = await alerts(ops.id);
    expect(queued.map((alert) => alert.connection)).toEqual(['default', 'uat']);
    expect(queued.map((alert) => alert.summary.split(':')[0])).toEqual(['Production (EU)', 'UAT']);
    expect(queued[1]?.payload.connection).toEqual({ name: 'uat', label: 'UAT' });
    expect(queued.map((alert) => alert.payload.link)).toEqual([
      'https://console.example/c/default/rate-limits',
      'https://console.example/c/uat/rate-limits',
    ]);
    // Told again of the same incidents (another replica's hub): still one alert each.
    await monitors.production.onIncident(incident({ seq: 2, hits: 2 }));
    await monitors.uat.onIncident(incident({ seq: 2, hits: 2 }));
    expect(await alerts(ops.id)).toHaveLength(2);
  });

  it("keeps each connection's limit conditions apart: UAT recovering resolves UAT only", async () => {
    const ops = await destination(['limit.near']);
    const near: LimitSample = {
      ruleId: 'account-minute',
      period: 'MINUTE',
      limit: 100,
      windowSeconds: 60,
      used: 90,
      ratePerSecond: 1.5,
      source: 'console',
    };
    let uatSamples = [near];
    samples = [near];
    const monitors = watchBoth(() => uatSamples);
    await monitors.production.evaluate();
    await monitors.uat.evaluate();
    uatSamples = [{ ...near, used: 10, ratePerSecond: 10 / 60 }];
    clock.now += 5_000;
    await monitors.production.evaluate();
    await monitors.uat.evaluate();
    const queued = await alerts(ops.id);
    expect(queued.map((alert) => `${alert.connection} ${alert.summary}`)).toEqual([
      'default Production (EU): Account minute limit is at 90% (90 of 100), past its 80% warning.',
      'uat UAT: Account minute limit is at 90% (90 of 100), past its 80% warning.',
      'uat UAT: Resolved: Account minute limit is back under its 80% warning (10%, 10 of 100).',
    ]);
    // The first connection's limit alerts lead to the alerts page's forecast; another's to its
    // own rate-limits page.
    expect(queued.map((alert) => alert.payload.link)).toEqual([
      'https://console.example/alerts',
      'https://console.example/c/uat/rate-limits',
      'https://console.example/c/uat/rate-limits',
    ]);
  });
});
