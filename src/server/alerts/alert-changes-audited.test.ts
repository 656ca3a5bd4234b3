// Every change of alert destinations and thresholds leaves one entry in the audit trail, with who,
// from where, before and after, and no secret or full URL; a change whose entry cannot be written
// is refused with a 503 that says why, and nothing changes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CreatedDestinationSchema, DestinationListSchema } from '../../shared/alerts';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';

let h: BffHarness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});

const SLACK_URL = 'https://hooks.slack.com/services/T000/B000/very-secret-token';
const json = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('alert changes in the audit trail', () => {
  it('records each change with before and after, and no secret', async () => {
    h = await startBffHarness();
    const created = CreatedDestinationSchema.parse(
      await (
        await h.request(
          '/api/alerts/destinations',
          json({
            name: 'SIEM',
            kind: 'webhook',
            url: 'https://siem.example.com/hooks/abc123',
            events: ['incident.new'],
          }),
        )
      ).json(),
    );
    const id = created.destination.id;
    await h.request(`/api/alerts/destinations/${id}`, json({ enabled: false }, 'PATCH'));
    await h.request(`/api/alerts/destinations/${id}/test`, { method: 'POST' });
    await h.request(`/api/alerts/destinations/${id}`, { method: 'DELETE' });
    await h.request('/api/alerts/thresholds/account-minute/MINUTE', json({ percent: 55 }, 'PUT'));
    await h.request(
      '/api/alerts/destinations',
      json({ name: 'Chat', kind: 'slack', url: SLACK_URL, events: ['incident.new'] }),
    );

    const items = (await h.audit.search.listChanges({ kind: 'alert-destination', limit: 20 })).items
      .concat((await h.audit.search.listChanges({ kind: 'threshold', limit: 20 })).items)
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    expect(items.map((item) => item.action).reverse()).toEqual([
      'alert-destination.created',
      'alert-destination.changed',
      'alert-destination.test-sent',
      'alert-destination.deleted',
      'threshold.changed',
      'alert-destination.created',
    ]);
    for (const item of items) {
      expect(item.username).toBe('admin');
      expect(item.address).not.toBe('');
      const text = JSON.stringify(item);
      expect(text).not.toContain(created.secret!);
      expect(text).not.toContain('very-secret-token');
      expect(text).not.toContain('/hooks/abc123');
    }
    const changed = items.find((item) => item.action === 'alert-destination.changed')!;
    expect(JSON.parse(changed.before!)).toMatchObject({
      enabled: true,
      secret: expect.stringMatching(/^sha256:/),
    });
    expect(JSON.parse(changed.after!)).toMatchObject({ enabled: false });
    const threshold = items.find((item) => item.action === 'threshold.changed')!;
    expect([JSON.parse(threshold.before!), JSON.parse(threshold.after!)]).toEqual([
      { percent: null },
      { percent: 55 },
    ]);
  });

  it('refuses a change whose audit entry cannot be written, and changes nothing', async () => {
    h = await startBffHarness();
    vi.spyOn(h.audit.records, 'recordChange').mockRejectedValue(new Error('disk full'));
    const response = await h.request(
      '/api/alerts/destinations',
      json({ name: 'SIEM', kind: 'slack', url: SLACK_URL, events: ['incident.new'] }),
    );
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      title: 'The change could not be recorded in the audit trail',
    });
    const list = DestinationListSchema.parse(
      await (await h.request('/api/alerts/destinations')).json(),
    );
    expect(list.items).toEqual([]);
  });
});
