// Delivery as the receiving team experiences it: a signed alert arrives and verifies, a failing
// receiver is retried with growing waits and then dead-lettered, "resend" sends it again with the
// same idempotency key, duplicates are not sent, and an alert queued before a crash is delivered
// by the next process on the same store. Clock and scheduler are injected: nothing sleeps.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqlDatabase } from '../store/database';
import { sortableId } from '../store/sortable-id';
import { startAlertReceiver, replyWith, type AlertReceiver } from '../test-support/alert-receiver';
import { alertPipeline } from '../test-support/alert-pipeline';
import { STORE_ENGINES } from '../test-support/store-engines';
import { tempDirsPerTest } from '../test-support/temp-dirs';
import type { AlertPayload } from './alert-payload';
import type { AlertStore, StoredDestination } from './alert-store';
import { newSigningSecret, verifySignature } from './signature';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);

let receiver: AlertReceiver;
beforeAll(async () => {
  receiver = await startAlertReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.reply(replyWith(200));
});

function parts(db: () => Promise<SqlDatabase>, clock: { now: number }) {
  return alertPipeline(db, clock, {
    http: { allowPrivate: false, demo: true, timeoutMs: 2_000, maxResponseBytes: 4_096 },
    maxAttempts: 4,
    retryBaseMs: 30_000,
  });
}

async function addDestination(
  store: AlertStore,
  overrides: Partial<StoredDestination> = {},
): Promise<StoredDestination> {
  const destination: StoredDestination = {
    id: sortableId(T0),
    name: 'On-call',
    kind: 'webhook',
    url: receiver.url,
    secret: newSigningSecret(),
    signing: 'console-signature',
    events: ['incident.new', 'limit.near'],
    enabled: true,
    holdBackSeconds: 60,
    createdAt: new Date(T0).toISOString(),
    ...overrides,
  };
  await store.createDestination(destination);
  return destination;
}

const event = (summary = 'The platform refused a request') => ({
  type: 'incident.new' as const,
  occurredAt: new Date(T0).toISOString(),
  summary,
  data: { rule: 'account-minute', period: 'MINUTE' },
  link: null,
});

describe.each(STORE_ENGINES)('alert outbox on $title', (engine) => {
  let db: SqlDatabase;
  const clock = { now: T0 };
  beforeEach(async () => {
    if (!engine.available) return;
    db = await engine.open();
    clock.now = T0;
  });
  afterEach(async () => {
    if (engine.available) await db.close();
  });
  const run = engine.available ? it : it.skip;

  run(
    'delivers a signed alert the receiver verifies, with the idempotency key inside',
    async () => {
      const { store, dispatcher, service } = parts(() => Promise.resolve(db), clock);
      const destination = await addDestination(store);
      expect(await service.emit(event(), { dedupKey: 'incident:k1' })).toBe(1);
      expect(await dispatcher.runDue()).toBe(1);

      expect(receiver.received).toHaveLength(1);
      const [alert] = receiver.received;
      const signature = alert!.headers['console-signature'] as string;
      expect(verifySignature(destination.secret!, alert!.body, signature, clock.now)).toBeNull();
      expect(verifySignature(destination.secret!, `${alert!.body} `, signature, clock.now)).toBe(
        'mismatch',
      );
      const payload = JSON.parse(alert!.body) as AlertPayload;
      expect(payload).toMatchObject({ type: 'incident.new', summary: event().summary });
      expect(alert!.headers['idempotency-key']).toBe(payload.id);
      // Nothing secret or identifying travels: no secret, no URL, no incident key.
      expect(alert!.body).not.toContain(destination.secret);
      expect(alert!.body).not.toContain('k1');

      const [logged] = await store.listDeliveries(destination.id, 10);
      expect(logged).toMatchObject({
        id: payload.id,
        status: 'delivered',
        attempts: 1,
        responseStatus: 200,
        error: null,
      });
      expect(logged!.latencyMs).toBeGreaterThanOrEqual(0);
    },
  );

  run(
    'sends one alert per dedup key, and only to destinations subscribed to the event',
    async () => {
      const { store, dispatcher, service } = parts(() => Promise.resolve(db), clock);
      const subscribed = await addDestination(store);
      const other = await addDestination(store, { id: sortableId(T0), events: ['block.ended'] });
      const disabled = await addDestination(store, { id: sortableId(T0), enabled: false });
      expect(await service.emit(event(), { dedupKey: 'incident:k1' })).toBe(1);
      expect(await service.emit(event('again'), { dedupKey: 'incident:k1' })).toBe(0);
      expect(await service.emit(event(), { dedupKey: 'incident:k2' })).toBe(1);
      await dispatcher.runDue();
      expect(receiver.received).toHaveLength(2);
      expect(await store.listDeliveries(subscribed.id, 10)).toHaveLength(2);
      expect(await store.listDeliveries(other.id, 10)).toHaveLength(0);
      expect(await store.listDeliveries(disabled.id, 10)).toHaveLength(0);
    },
  );

  run(
    'retries a failing receiver with doubling waits, dead-letters it, and resends it',
    async () => {
      const { store, dispatcher, service } = parts(() => Promise.resolve(db), clock);
      const destination = await addDestination(store);
      receiver.reply(replyWith(503));
      await service.emit(event(), { dedupKey: 'incident:k1' });

      const attemptsAt: number[] = [];
      const waits = [30_000, 60_000, 120_000];
      expect(await dispatcher.runDue()).toBe(1);
      attemptsAt.push(clock.now);
      for (const wait of waits) {
        const [pending] = await store.listDeliveries(destination.id, 1);
        expect(pending).toMatchObject({ status: 'retrying', responseStatus: 503 });
        expect(pending!.error).toBe('The receiver answered 503');
        expect(pending!.nextAttemptAt).toBe(new Date(clock.now + wait).toISOString());
        // A moment before the wait is over nothing is sent.
        clock.now += wait - 1;
        expect(await dispatcher.runDue()).toBe(0);
        clock.now += 1;
        expect(await dispatcher.runDue()).toBe(1);
        attemptsAt.push(clock.now);
      }
      expect(receiver.received).toHaveLength(4);
      const [dead] = await store.listDeliveries(destination.id, 1);
      expect(dead).toMatchObject({ status: 'dead', attempts: 4, nextAttemptAt: null });
      clock.now += 3_600_000;
      expect(await dispatcher.runDue()).toBe(0);

      // The receiver is fixed; resend delivers the same alert with the same idempotency key.
      receiver.reply(replyWith(204));
      expect(await store.resend(dead!.id, clock.now)).toMatchObject({ status: 'pending' });
      expect(await dispatcher.runDue()).toBe(1);
      const [delivered] = await store.listDeliveries(destination.id, 1);
      expect(delivered).toMatchObject({ status: 'delivered', attempts: 1, responseStatus: 204 });
      const keys = receiver.received.map((alert) => alert.headers['idempotency-key']);
      expect(new Set(keys)).toEqual(new Set([dead!.id]));
      // Delivered alerts can be resent too; one on its way cannot.
      await service.emit(event(), { dedupKey: 'incident:k2' });
      const [queued] = await store.listDeliveries(destination.id, 1);
      expect(await store.resend(queued!.id, clock.now)).toBeUndefined();
    },
  );

  run(
    'a block-ended alert waits for the block end and moves later when the block does',
    async () => {
      const { store, dispatcher, service } = parts(() => Promise.resolve(db), clock);
      await addDestination(store, { events: ['block.ended'] });
      const ended = { ...event('ended'), type: 'block.ended' as const };
      await service.emit(ended, { dedupKey: 'block-end:k', dueAt: T0 + 60_000, postpone: true });
      await service.emit(ended, { dedupKey: 'block-end:k', dueAt: T0 + 90_000, postpone: true });
      clock.now = T0 + 60_000;
      expect(await dispatcher.runDue()).toBe(0);
      clock.now = T0 + 90_000;
      expect(await dispatcher.runDue()).toBe(1);
      expect(receiver.received).toHaveLength(1);
    },
  );
});

describe('a restart during a pending delivery', () => {
  const newDataDir = tempDirsPerTest('console-alerts-');

  it('delivers after the restart an alert queued before the crash', async () => {
    const dataDir = newDataDir();
    const clock = { now: T0 };
    const first = await openDatabase({ dataDir });
    const before = parts(() => Promise.resolve(first), clock);
    await addDestination(before.store);
    await before.service.emit(event(), { dedupKey: 'incident:k1' });
    // The process dies before its dispatcher ran: the file is all that is left.
    await first.close();
    expect(receiver.received).toHaveLength(0);

    const second = await openDatabase({ dataDir });
    try {
      const after = parts(() => Promise.resolve(second), clock);
      clock.now += 1_000;
      expect(await after.dispatcher.runDue()).toBe(1);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('takes over an attempt whose sender died mid-delivery once its lease runs out', async () => {
    const dataDir = newDataDir();
    const clock = { now: T0 };
    const first = await openDatabase({ dataDir });
    const before = parts(() => Promise.resolve(first), clock);
    const destination = await addDestination(before.store);
    await before.service.emit(event(), { dedupKey: 'incident:k1' });
    // Claimed (as the dying process's dispatcher did) but never finished.
    expect(await before.store.claimDue(clock.now, clock.now + 32_000, 10)).toHaveLength(1);
    await first.close();

    const second = await openDatabase({ dataDir });
    try {
      const after = parts(() => Promise.resolve(second), clock);
      expect(await after.dispatcher.runDue()).toBe(0);
      clock.now += 32_000;
      expect(await after.dispatcher.runDue()).toBe(1);
      const [delivered] = await after.store.listDeliveries(destination.id, 1);
      expect(delivered).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
