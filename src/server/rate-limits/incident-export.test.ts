// The incident export end to end: a real upstream 429 recorded, then exported as CSV and JSON by
// the roles that read the list, under its filters, with times in UTC and no headers as received;
// and a history longer than one file holds, cut to the newest and saying so.
import { afterEach, describe, expect, it } from 'vitest';
import { IncidentExportSchema } from '../../shared/incident';
import { sampleIncident } from '../../shared/test-support/incidents';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';
import { INCIDENT_EXPORT_MAX, incidentCsv, incidentExport } from './incident-export';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);

describe('the incident export', () => {
  let h: BffHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function withOneIncident() {
    h = await startBffHarness({
      env: { EVENT_TYPES_CACHE_SECONDS: '0' },
      mock: { now: () => T0, eventTypeCount: 20 },
      mockRateLimits: true,
      now: () => T0,
    });
    // Signed in to the platform first, so the 429 is the event-types list's, not the token's.
    expect((await h.request('/api/event-types')).status).toBe(200);
    h.mockRateLimits!.exhaust('account-minute');
    expect((await h.request('/api/event-types?modules=Consent')).status).toBe(429);
    const eventId = h.mockRateLimits!.snapshot().blocks[0]!.eventId;
    return { h, eventId };
  }

  it('gives support the list as CSV: event id, rule, limit, times labelled UTC, no headers as received', async () => {
    const { h, eventId } = await withOneIncident();
    const response = await h.request('/api/rate-limits/incidents/export', {}, { as: 'support' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="incidents-2025-01-06T090000Z.csv"',
    );
    const [head, row, end] = (await response.text()).replace(/^\ufeff/, '').split('\r\n');
    expect(head).toBe(
      'ot-ratelimit-event-id,Incident key,Rule,Limit,Period,First 429 (UTC),Last 429 (UTC),Blocked until (UTC),429s,Requests allowed,Requests made,Retry-After (seconds),Blocks,Operation,Notes',
    );
    expect(row).toBe(
      `${eventId},${eventId},account-minute,Account minute limit,MINUTE,2025-01-06 09:00:00 UTC,2025-01-06 09:00:00 UTC,2025-01-06 09:01:00 UTC,1,20000,20001,60,every request,event-types,`,
    );
    expect(end).toBe('');
  });

  it('gives the JSON of the same incidents, only those the filters match, and refuses what no list takes', async () => {
    const { h, eventId } = await withOneIncident();
    const json = await h.request('/api/rate-limits/incidents/export?format=json&period=MINUTE');
    expect(json.status).toBe(200);
    const file = IncidentExportSchema.parse(await json.json());
    expect(file).toMatchObject({
      generatedAt: '2025-01-06T09:00:00.000Z',
      filters: { since: null, until: null, period: 'MINUTE', rule: null },
      complete: true,
    });
    expect(file.incidents.map((incident) => [incident.eventId, incident.limit])).toEqual([
      [eventId, 'Account minute limit'],
    ]);
    expect(Object.keys(file.incidents[0]!)).not.toContain('headers');

    const hourly = await h.request('/api/rate-limits/incidents/export?format=json&period=HOUR');
    expect(IncidentExportSchema.parse(await hourly.json()).incidents).toEqual([]);

    for (const [query, parameter] of [
      ['?format=xml', 'format'],
      ['?limit=5', 'limit'],
      ['?cursor=abc', 'cursor'],
      ['?rule=no-such-rule', 'rule'],
    ] as const) {
      const refused = await h.request(`/api/rate-limits/incidents/export${query}`);
      expect(refused.status, query).toBe(400);
      expect(await refused.json()).toMatchObject({
        type: '/problems/invalid-parameter',
        parameter,
      });
    }
    expect((await h.request('/api/rate-limits/incidents/export', {}, { as: null })).status).toBe(
      401,
    );
  });

  it('cuts a history longer than one file to the newest incidents and says so', async () => {
    const total = INCIDENT_EXPORT_MAX + 150;
    const store = {
      list: async ({ limit, cursor }: { limit: number; cursor?: string }) => {
        const from = Number(cursor ?? 0);
        const to = Math.min(total, from + limit);
        const items = Array.from({ length: to - from }, (_, index) =>
          sampleIncident({ key: `k-${from + index}` }),
        );
        return { items, nextCursor: to < total ? String(to) : null };
      },
    };
    const file = await incidentExport(store, {}, T0);
    expect(file.complete).toBe(false);
    expect(file.incidents).toHaveLength(INCIDENT_EXPORT_MAX);
    expect(file.incidents.at(-1)?.key).toBe(`k-${INCIDENT_EXPORT_MAX - 1}`);
    const lines = incidentCsv(file).split('\r\n');
    expect(lines.at(-2)).toBe(
      `Only the newest ${INCIDENT_EXPORT_MAX} incidents: narrow the filters for older ones`,
    );
  });
});
