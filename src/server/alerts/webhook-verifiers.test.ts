// Receivers verify the console's alerts with their own libraries, not ours: Standard Webhooks
// deliveries with the specification's `standardwebhooks` package, Console-Signature deliveries
// with Stripe's `stripe.webhooks.constructEvent` (docs/alerts.md says the scheme is Stripe's).
// Each library accepts every alert the outbox delivers and refuses every tampered one. A Slack
// destination's name reaches the channel as text, never as a mention.
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SigningScheme } from '../../shared/alerts';
import type { SqlDatabase } from '../store/database';
import { openDatabase } from '../store/database';
import { sortableId } from '../store/sortable-id';
import { alertPipeline } from '../test-support/alert-pipeline';
import {
  startAlertReceiver,
  type AlertReceiver,
  type ReceivedAlert,
} from '../test-support/alert-receiver';
import { formatAlert } from './alert-payload';
import type { AlertStore, StoredDestination } from './alert-store';
import { newSigningSecret } from './signature';
import { newStandardWebhooksSecret } from './standard-webhooks';

const ALERTS = 10;
const stripe = new Stripe('sk_test_verification_only');

let receiver: AlertReceiver;
let db: SqlDatabase;
beforeAll(async () => {
  receiver = await startAlertReceiver();
});
afterAll(() => receiver.close());
beforeEach(async () => {
  receiver.received.length = 0;
  db = await openDatabase({});
});
afterEach(() => db.close());

/** The outbox on a real clock: the libraries check the signed timestamp against theirs. */
function pipeline() {
  const clock = { now: Date.now() };
  return alertPipeline(() => Promise.resolve(db), clock, {
    http: { allowPrivate: false, demo: true, timeoutMs: 2_000, maxResponseBytes: 4_096 },
    maxAttempts: 2,
    retryBaseMs: 30_000,
  });
}

async function addDestination(
  store: AlertStore,
  fields: Pick<StoredDestination, 'kind' | 'secret' | 'signing'> & { name?: string },
): Promise<StoredDestination> {
  const destination: StoredDestination = {
    id: sortableId(Date.now()),
    name: 'On-call',
    url: receiver.url,
    events: ['incident.new'],
    enabled: true,
    holdBackSeconds: 60,
    createdAt: new Date().toISOString(),
    ...fields,
  };
  await store.createDestination(destination);
  return destination;
}

/** Delivers ten alerts through the outbox to a destination signed by `signing`. */
async function deliverTen(signing: SigningScheme, secret: string): Promise<ReceivedAlert[]> {
  const { store, dispatcher, service } = pipeline();
  await addDestination(store, { kind: 'webhook', secret, signing });
  for (let index = 0; index < ALERTS; index += 1) {
    await service.emit(
      {
        type: 'incident.new',
        occurredAt: new Date().toISOString(),
        summary: `The platform refused request ${index}`,
        data: { rule: 'account-minute', period: 'MINUTE' },
        link: null,
      },
      { dedupKey: `incident:${index}` },
    );
  }
  await dispatcher.runDue();
  expect(receiver.received).toHaveLength(ALERTS);
  return [...receiver.received];
}

const tamper = (body: string) => body.replace('refused request', 'refused  request');

/** How many of `alerts` `verify` accepts (it throws to refuse). */
function accepted(alerts: ReceivedAlert[], verify: (alert: ReceivedAlert) => unknown): number {
  return alerts.filter((alert) => {
    try {
      verify(alert);
      return true;
    } catch {
      return false;
    }
  }).length;
}

const headers = (alert: ReceivedAlert) =>
  Object.fromEntries(Object.entries(alert.headers).map(([name, value]) => [name, String(value)]));

describe('alert signatures, checked by the receivers’ own libraries', () => {
  it('Standard Webhooks: the standardwebhooks package accepts 10 of 10 and refuses every tampered one', async () => {
    const secret = newStandardWebhooksSecret();
    const alerts = await deliverTen('standard-webhooks', secret);
    expect(alerts[0]!.headers).toMatchObject({
      'webhook-id': JSON.parse(alerts[0]!.body).id,
      'webhook-timestamp': expect.stringMatching(/^\d+$/),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
    });
    const webhook = new Webhook(secret);
    expect(accepted(alerts, (alert) => webhook.verify(alert.body, headers(alert)))).toBe(ALERTS);
    expect(accepted(alerts, (alert) => webhook.verify(tamper(alert.body), headers(alert)))).toBe(0);
    const otherKey = new Webhook(newStandardWebhooksSecret());
    expect(accepted(alerts, (alert) => otherKey.verify(alert.body, headers(alert)))).toBe(0);
    const movedId = (alert: ReceivedAlert) => ({ ...headers(alert), 'webhook-id': 'other' });
    expect(accepted(alerts, (alert) => webhook.verify(alert.body, movedId(alert)))).toBe(0);
  });

  it('Console-Signature: Stripe’s constructEvent accepts 10 of 10 and refuses every tampered one', async () => {
    const secret = newSigningSecret();
    const alerts = await deliverTen('console-signature', secret);
    const construct = (body: string, alert: ReceivedAlert, key = secret) =>
      stripe.webhooks.constructEvent(body, String(alert.headers['console-signature']), key);
    expect(accepted(alerts, (alert) => construct(alert.body, alert))).toBe(ALERTS);
    expect(accepted(alerts, (alert) => construct(tamper(alert.body), alert))).toBe(0);
    expect(accepted(alerts, (alert) => construct(alert.body, alert, newSigningSecret()))).toBe(0);
  });
});

describe('Slack-compatible alerts', () => {
  it('send a destination named "Ops & <!channel>" as text that notifies nobody', async () => {
    const { store, service } = pipeline();
    const destination = await addDestination(store, {
      kind: 'slack',
      secret: null,
      signing: null,
      name: 'Ops & <!channel>',
    });
    await service.sendTest(destination);
    expect(receiver.received).toHaveLength(1);
    const body = receiver.received[0]!.body;
    // Slack reads `<!channel>`, `<@user>` and `<url|text>` only from unescaped angle brackets.
    expect(body).not.toContain('<!channel>');
    const message = JSON.parse(body) as {
      text: string;
      blocks: Array<{ text?: { text: string } }>;
    };
    expect(message.text).toContain('"Ops &amp; &lt;!channel&gt;"');
    expect(message.blocks[1]?.text?.text).toBe(
      'Test alert for "Ops &amp; &lt;!channel&gt;": if you read this, alerts reach you.',
    );
    expect(message.blocks[2]?.text?.text).toBe('*destination*: Ops &amp; &lt;!channel&gt;');
  });

  it('name a connection labelled "UAT <!here>" in the header and notify nobody', () => {
    const { body } = formatAlert(
      {
        id: 'alert-1',
        type: 'block.started',
        occurredAt: '2026-01-05T09:00:00.000Z',
        summary: 'UAT <!here>: A block started.',
        data: {},
        link: null,
        connection: { name: 'uat', label: 'UAT <!here>' },
      },
      { kind: 'slack', secret: null, signing: null },
      Date.UTC(2026, 0, 5, 9),
    );
    expect(body).not.toContain('<!here>');
    const message = JSON.parse(body) as {
      text: string;
      blocks: Array<{ text?: { type: string; text: string } }>;
    };
    expect(message.blocks[0]?.text).toEqual({
      type: 'plain_text',
      text: 'Block started · UAT &lt;!here&gt;',
    });
    expect(message.text).toBe(
      'Block started · UAT &lt;!here&gt;: UAT &lt;!here&gt;: A block started.',
    );
  });
});
