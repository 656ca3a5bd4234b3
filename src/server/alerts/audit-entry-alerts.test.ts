// `audit.entry` as a SIEM's webhook receives it: each entry's OCSF event in the alert envelope,
// signed so the Standard Webhooks library verifies it; while the destination is down the entries
// wait, none given up on or overtaken, and go out in order once it is back; a full queue drops the
// newest and the log says which. Clock and scheduler are injected: nothing sleeps.
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ocsfEvent } from '../data-subjects/audit/ocsf-event';
import type { SqlDatabase } from '../store/database';
import { sortableId } from '../store/sortable-id';
import { alertPipeline } from '../test-support/alert-pipeline';
import { capturingLogger } from '../test-support/capturing-logger';
import { replyWith, startAlertReceiver, type AlertReceiver } from '../test-support/alert-receiver';
import { STORE_ENGINES } from '../test-support/store-engines';
import type { AlertPayload } from './alert-payload';
import type { AuditEntryAlert } from './alert-service';
import type { AlertStore, StoredDestination } from './alert-store';
import { newSigningSecret } from './signature';
import { newStandardWebhooksSecret } from './standard-webhooks';

const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);

let receiver: AlertReceiver;
beforeAll(async () => {
  receiver = await startAlertReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.reply(replyWith(200));
});

/** The `audit.entry` of change number `seq`, as the audit stream hands it to the alerts. */
function entry(seq: number, at: number): AuditEntryAlert {
  const event = ocsfEvent({
    kind: 'change',
    link: { seq, hash: seq.toString(16).padStart(64, '0') },
    change: {
      id: sortableId(at),
      at: new Date(at).toISOString(),
      connection: 'default',
      username: 'admin',
      tokenId: null,
      tokenName: null,
      address: '203.0.113.7',
      action: 'threshold.changed',
      target: 'account-minute',
      before: JSON.stringify({ percent: 80 }),
      after: JSON.stringify({ percent: 70 + seq }),
      requestId: null,
    },
  });
  return { sequence: seq, time: event.time, message: event.message, event };
}

async function addDestination(
  store: AlertStore,
  fields: Partial<StoredDestination> = {},
): Promise<StoredDestination> {
  const destination: StoredDestination = {
    id: sortableId(T0),
    name: 'SIEM',
    kind: 'webhook',
    url: receiver.url,
    secret: newSigningSecret(),
    signing: 'console-signature',
    events: ['audit.entry'],
    enabled: true,
    holdBackSeconds: 60,
    createdAt: new Date(T0).toISOString(),
    ...fields,
  };
  await store.createDestination(destination);
  return destination;
}

const HTTP = { allowPrivate: false, demo: true, timeoutMs: 2_000, maxResponseBytes: 4_096 };
const sequences = () =>
  receiver.received.map(
    (alert) => (JSON.parse(alert.body) as AlertPayload).ocsf?.metadata as { sequence: number },
  );

describe.each(STORE_ENGINES)('audit.entry alerts on $title', (engine) => {
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
    'delivers the OCSF event, signed, and the Standard Webhooks library verifies it',
    async () => {
      // The library checks the signed time against its own clock: the pipeline reads the same.
      clock.now = Date.now();
      const { store, dispatcher, service } = alertPipeline(() => Promise.resolve(db), clock, {
        http: HTTP,
        maxAttempts: 3,
      });
      const secret = newStandardWebhooksSecret();
      await addDestination(store, { secret, signing: 'standard-webhooks' });
      const sent = entry(7, clock.now);
      expect(await service.auditEntry(sent)).toBe(1);
      await dispatcher.runDue();

      const [alert] = receiver.received;
      const verified = new Webhook(secret).verify(
        alert!.body,
        alert!.headers as Record<string, string>,
      ) as AlertPayload;
      expect(verified).toMatchObject({
        type: 'audit.entry',
        summary: 'admin threshold.changed account-minute',
        data: { sequence: 7, classUid: 3004, activityId: 3 },
        ocsf: JSON.parse(JSON.stringify(sent.event)) as Record<string, unknown>,
      });
      expect(() =>
        new Webhook(secret).verify(
          alert!.body.replace('"percent":77', '"percent":1'),
          alert!.headers as Record<string, string>,
        ),
      ).toThrow();
    },
  );

  run(
    'holds entries while the destination is down and delivers them in order when it is back',
    async () => {
      const { store, dispatcher, service } = alertPipeline(() => Promise.resolve(db), clock, {
        http: HTTP,
        maxAttempts: 2,
        retryBaseMs: 30_000,
      });
      const destination = await addDestination(store);
      receiver.reply(replyWith(503));
      for (const seq of [1, 2, 3]) await service.auditEntry(entry(seq, clock.now));
      // Down for far longer than two attempts: only the oldest is tried, and it is not given up on.
      for (let minute = 0; minute < 30; minute += 1) {
        clock.now += 60_000;
        await dispatcher.runDue();
      }
      expect(new Set(sequences().map((metadata) => metadata.sequence))).toEqual(new Set([1]));
      const waiting = await store.listDeliveries(destination.id, 10);
      expect(waiting.map((delivery) => delivery.status).sort()).toEqual([
        'pending',
        'pending',
        'retrying',
      ]);

      receiver.received.length = 0;
      receiver.reply(replyWith(200));
      await service.auditEntry(entry(4, clock.now));
      clock.now += 3_600_000;
      await dispatcher.runDue();
      expect(sequences().map((metadata) => metadata.sequence)).toEqual([1, 2, 3, 4]);
    },
  );

  run('drops the newest entry when the queue is full, and the log says which', async () => {
    const { logger, lines } = capturingLogger();
    const { store, dispatcher, service } = alertPipeline(
      () => Promise.resolve(db),
      clock,
      { http: HTTP, maxAttempts: 2 },
      { logger, auditQueueMax: 2 },
    );
    const destination = await addDestination(store);
    receiver.reply(replyWith(503));
    expect(await service.auditEntry(entry(1, clock.now))).toBe(1);
    expect(await service.auditEntry(entry(2, clock.now))).toBe(1);
    expect(await service.auditEntry(entry(3, clock.now))).toBe(0);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'audit entry dropped: the destination’s queue is full',
        destination: destination.id,
        sequence: 3,
        waiting: 2,
        max: 2,
      }),
    );

    receiver.reply(replyWith(200));
    await dispatcher.runDue();
    expect(sequences().map((metadata) => metadata.sequence)).toEqual([1, 2]);
    // Room again: the next entry is queued, after the gap the log named.
    expect(await service.auditEntry(entry(4, clock.now))).toBe(1);
  });
});
