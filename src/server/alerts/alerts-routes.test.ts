// The alerts API as each role meets it: admins configure destinations and get a signing secret
// once; nobody reads a URL or secret back; support sees the destinations and delivery log but every
// change is a 403 from the API itself; refused URLs are explained; the forecast is there for all.
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CreatedDestinationSchema,
  DeliveryListSchema,
  DeliverySchema,
  DestinationListSchema,
  ForecastResponseSchema,
} from '../../shared/alerts';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';

let h: BffHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SLACK_URL = 'https://hooks.slack.com/services/T000/B000/very-secret-token';

async function start(env: Record<string, string> = {}) {
  h = await startBffHarness({ env });
  return h;
}

function json(body: unknown, method = 'POST'): RequestInit {
  return { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

async function create(harness: BffHarness, body: Record<string, unknown>) {
  return harness.request(
    '/api/alerts/destinations',
    json({ name: 'On-call', kind: 'webhook', events: ['incident.new'], ...body }),
  );
}

describe('alert destinations', () => {
  it('shows a generic webhook secret once and never the URL or secret again', async () => {
    const harness = await start();
    const response = await create(harness, { url: 'https://alerts.example.com/hooks/abc123' });
    expect(response.status).toBe(201);
    const created = CreatedDestinationSchema.parse(await response.json());
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.destination.urlHint).toBe('https://alerts.example.com/…c123');

    for (const as of ['admin', 'support'] as const) {
      const list = await harness.request('/api/alerts/destinations', {}, { as });
      expect(list.status).toBe(200);
      const text = await list.text();
      expect(text).not.toContain(created.secret!);
      expect(text).not.toContain('/hooks/abc123');
      expect(DestinationListSchema.parse(JSON.parse(text)).items).toHaveLength(1);
    }
  });

  it('lets an admin choose Standard Webhooks signing, with a secret its libraries accept', async () => {
    const harness = await start();
    const standard = CreatedDestinationSchema.parse(
      await (
        await create(harness, {
          url: 'https://alerts.example.com/hooks/std',
          signing: 'standard-webhooks',
        })
      ).json(),
    );
    expect(standard.destination.signing).toBe('standard-webhooks');
    expect(standard.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(() => new Webhook(standard.secret!)).not.toThrow();

    const classic = CreatedDestinationSchema.parse(
      await (await create(harness, { url: 'https://alerts.example.com/hooks/classic' })).json(),
    );
    expect(classic.destination.signing).toBe('console-signature');
    const list = DestinationListSchema.parse(
      await (await harness.request('/api/alerts/destinations', {}, { as: 'support' })).json(),
    );
    expect(list.items.map((item) => item.signing)).toEqual([
      'standard-webhooks',
      'console-signature',
    ]);

    const slackSigned = await create(harness, {
      kind: 'slack',
      url: SLACK_URL,
      signing: 'standard-webhooks',
    });
    expect(slackSigned.status).toBe(400);
    expect(((await slackSigned.json()) as { parameter: string }).parameter).toBe('signing');
    const unknown = await create(harness, { url: 'https://a.example.com/h', signing: 'hmac' });
    expect(((await unknown.json()) as { parameter: string }).parameter).toBe('signing');
  });

  it('keeps a Slack URL, its credential, out of every answer', async () => {
    const harness = await start();
    const response = await create(harness, { kind: 'slack', url: SLACK_URL });
    const created = CreatedDestinationSchema.parse(await response.json());
    expect(created.secret).toBeNull();
    expect(created.destination.signing).toBeNull();
    expect(JSON.stringify(created)).not.toContain('very-secret-token');
  });

  it.each([
    ['http://alerts.example.com/x', 'must start with https://'],
    ['https://169.254.169.254/latest/meta-data', 'private, loopback or link-local'],
    ['https://10.0.0.8/hook', 'private, loopback or link-local'],
    ['http://127.0.0.1:9/hook', 'must start with https://'],
  ])('refuses %s with a 400 that says why', async (url, reason) => {
    const harness = await start();
    const response = await create(harness, { url });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await response.json()) as { type: string; detail: string };
    expect(problem.type).toBe('/problems/alert-destination-refused');
    expect(problem.detail).toContain(reason);
    const list = DestinationListSchema.parse(
      await (await harness.request('/api/alerts/destinations')).json(),
    );
    expect(list.items).toEqual([]);
  });

  it('validates the body: unknown events and a missing name are 400s naming the field', async () => {
    const harness = await start();
    const unknown = await create(harness, { url: SLACK_URL, events: ['everything'] });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { parameter: string }).parameter).toBe('events.0');
    const noName = await create(harness, { url: SLACK_URL, name: '  ' });
    expect(((await noName.json()) as { parameter: string }).parameter).toBe('name');
  });

  it('records a test to an unreachable destination in the delivery log as a failed attempt', async () => {
    // A name that does not resolve: the attempt fails and the log says so.
    const harness = await start({ ALERT_MAX_ATTEMPTS: '3' });
    const created = CreatedDestinationSchema.parse(
      await (await create(harness, { url: 'https://localhost.example.invalid/hook' })).json(),
    );
    const id = created.destination.id;
    const test = await harness.request(`/api/alerts/destinations/${id}/test`, { method: 'POST' });
    expect(test.status).toBe(200);
    const delivery = DeliverySchema.parse(await test.json());
    expect(delivery).toMatchObject({ event: 'test', status: 'retrying', attempts: 1 });
    expect(delivery.error).toMatch(/Could not connect|Refused/);

    const log = DeliveryListSchema.parse(
      await (
        await harness.request(`/api/alerts/destinations/${id}/deliveries`, {}, { as: 'support' })
      ).json(),
    );
    expect(log.items.map((item) => item.id)).toEqual([delivery.id]);
  });
});

describe('roles', () => {
  it('lets support read but answers 403 to every change, changing nothing', async () => {
    const harness = await start();
    const created = CreatedDestinationSchema.parse(
      await (await create(harness, { kind: 'slack', url: SLACK_URL })).json(),
    );
    const id = created.destination.id;
    const changes: Array<[string, RequestInit]> = [
      ['/api/alerts/destinations', json({ name: 'x', kind: 'slack', url: SLACK_URL, events: [] })],
      [`/api/alerts/destinations/${id}`, json({ enabled: false }, 'PATCH')],
      [`/api/alerts/destinations/${id}`, { method: 'DELETE' }],
      [`/api/alerts/destinations/${id}/test`, { method: 'POST' }],
      [`/api/alerts/deliveries/${id}/resend`, { method: 'POST' }],
      ['/api/alerts/thresholds/account-minute/MINUTE', json({ percent: 50 }, 'PUT')],
    ];
    for (const [path, init] of changes) {
      const response = await harness.request(path, init, { as: 'support' });
      expect(response.status, `${init.method} ${path}`).toBe(403);
    }
    for (const path of [
      '/api/alerts/forecast',
      '/api/alerts/destinations',
      `/api/alerts/destinations/${id}/deliveries`,
    ]) {
      expect((await harness.request(path, {}, { as: 'support' })).status, path).toBe(200);
    }
    const list = DestinationListSchema.parse(
      await (await harness.request('/api/alerts/destinations')).json(),
    );
    expect(list.items).toMatchObject([{ id, enabled: true }]);
    expect((await harness.request('/api/alerts/forecast', {}, { as: null })).status).toBe(401);
  });

  it('lets an admin change events, disable and delete a destination', async () => {
    const harness = await start();
    const { destination } = CreatedDestinationSchema.parse(
      await (await create(harness, { kind: 'slack', url: SLACK_URL })).json(),
    );
    const patched = await harness.request(
      `/api/alerts/destinations/${destination.id}`,
      json({ events: ['block.started', 'block.ended'], enabled: false }, 'PATCH'),
    );
    expect(await patched.json()).toMatchObject({
      events: ['block.started', 'block.ended'],
      enabled: false,
    });
    const removed = await harness.request(`/api/alerts/destinations/${destination.id}`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    const again = await harness.request(`/api/alerts/destinations/${destination.id}`, {
      method: 'DELETE',
    });
    expect(again.status).toBe(404);
  });
});

describe('GET /api/alerts/forecast and thresholds', () => {
  it('forecasts every limit with the default threshold, which an admin can change', async () => {
    const harness = await start();
    const forecast = ForecastResponseSchema.parse(
      await (await harness.request('/api/alerts/forecast')).json(),
    );
    const minute = forecast.limits.find((limit) => limit.key === 'account-minute:MINUTE');
    expect(minute).toMatchObject({ thresholdPercent: 80, level: 'ok', source: 'console' });

    const put = await harness.request(
      '/api/alerts/thresholds/account-minute/MINUTE',
      json({ percent: 55 }, 'PUT'),
    );
    expect(put.status).toBe(204);
    const after = ForecastResponseSchema.parse(
      await (await harness.request('/api/alerts/forecast')).json(),
    );
    expect(after.limits.find((limit) => limit.key === 'account-minute:MINUTE')).toMatchObject({
      thresholdPercent: 55,
    });
    const bad = await harness.request(
      '/api/alerts/thresholds/account-minute/MINUTE',
      json({ percent: 0 }, 'PUT'),
    );
    expect(bad.status).toBe(400);
    const unknown = await harness.request(
      '/api/alerts/thresholds/no-such-rule/MINUTE',
      json({ percent: 50 }, 'PUT'),
    );
    expect(unknown.status).toBe(404);
  });
});
