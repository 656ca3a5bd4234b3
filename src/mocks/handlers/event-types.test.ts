// The event-types operation as the BFF's upstream client sees it: bearer auth and scope, the bare
// array, and both wire styles of the array filters.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventType } from '../../shared/event-types';
import { generateEventTypes } from '../data/event-types';
import { createMockUpstream } from '../node';
import { demoToken, MOCK_BASE } from '../test-support/mock-token';
import { EVENT_TYPES_PATH } from './event-types';

const upstream = createMockUpstream({ knownScopes: ['ACTIVITY_LOG', 'CONSENT'] });

beforeAll(() => upstream.listen());
afterEach(() => upstream.state.reset());
afterAll(() => upstream.close());

async function list(query = '', accessToken?: string): Promise<Response> {
  return fetch(`${MOCK_BASE}${EVENT_TYPES_PATH}${query}`, {
    headers: { authorization: `Bearer ${accessToken ?? (await demoToken())}` },
  });
}

async function listJson(query: string): Promise<EventType[]> {
  const response = await list(query);
  expect(response.status).toBe(200);
  return response.json();
}

const q = (name: string, ...values: string[]) =>
  values.map((value) => `${name}=${encodeURIComponent(value)}`).join('&');

describe('GET /api/audit/v4/audits/event-types', () => {
  it('answers the whole data set as a bare JSON array', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual(generateEventTypes());
  });

  it('passes records with missing fields through unchanged', async () => {
    const rows = await listJson('');
    expect(rows.some((row) => row.moduleName === undefined)).toBe(true);
    expect(rows.some((row) => row.code === undefined)).toBe(true);
  });

  it('asks for a bearer token without an error code when none is sent (RFC 6750 §3.1)', async () => {
    const response = await fetch(`${MOCK_BASE}${EVENT_TYPES_PATH}`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="[^"]+"$/);
  });

  it('answers 401 invalid_token for an unknown token or another scheme', async () => {
    const unknown = await list('', 'not-a-real-token');
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toContain('error="invalid_token"');

    const basic = await fetch(`${MOCK_BASE}${EVENT_TYPES_PATH}`, {
      headers: { authorization: `Basic ${btoa('demo-client:demo-secret')}` },
    });
    expect(basic.status).toBe(401);
  });

  it('answers 403 insufficient_scope to a token without ACTIVITY_LOG', async () => {
    const response = await list('', await demoToken('CONSENT'));
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(response.headers.get('www-authenticate')).toContain('scope="ACTIVITY_LOG"');

    const direct = upstream.state.issueToken([]);
    expect((await list('', direct.accessToken)).status).toBe(403);
  });

  it('reads repeated and comma-separated filters alike', async () => {
    const repeated = await listJson(`?${q('modules', 'Vendor Risk', 'Cookie Consent')}`);
    const comma = await listJson(`?${q('modules', 'Vendor Risk,Cookie Consent')}`);
    const mixed = await listJson(`?${q('modules', 'Vendor Risk,Cookie Consent', 'Vendor Risk')}`);
    expect(repeated.length).toBeGreaterThan(0);
    expect(comma).toEqual(repeated);
    expect(mixed).toEqual(repeated);
  });

  it('combines values of one filter with OR', async () => {
    const vendor = await listJson(`?${q('modules', 'Vendor Risk')}`);
    const cookie = await listJson(`?${q('modules', 'Cookie Consent')}`);
    const both = await listJson(`?${q('modules', 'Vendor Risk', 'Cookie Consent')}`);
    expect(vendor.length).toBeGreaterThan(0);
    expect(cookie.length).toBeGreaterThan(0);
    expect(both).toHaveLength(vendor.length + cookie.length);
    expect(both.every((row) => ['Vendor Risk', 'Cookie Consent'].includes(row.moduleName!))).toBe(
      true,
    );
  });

  it('combines the two filters with AND', async () => {
    const rows = await listJson(
      `?${q('modules', 'Consent & Preferences')}&${q('objectTypes', 'Purpose', 'Vendor')}`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(
      rows.every(
        (row) => row.moduleName === 'Consent & Preferences' && row.objectTypeName === 'Purpose',
      ),
    ).toBe(true);

    // Vendor belongs to another module, so no row has both.
    const none = await listJson(
      `?${q('modules', 'Consent & Preferences')}&${q('objectTypes', 'Vendor')}`,
    );
    expect(none).toEqual([]);
  });

  it('answers an empty array for an unknown module, and ignores empty items', async () => {
    expect(await listJson(`?${q('modules', 'No Such Module')}`)).toEqual([]);
    const all = await listJson('');
    expect(await listJson('?modules=&objectTypes=,')).toEqual(all);
  });

  it('answers 400 to a filter value with control characters', async () => {
    const response = await list(`?${q('modules', 'Vendor\nRisk')}`);
    expect(response.status).toBe(400);
  });

  it('counts requests per operation', async () => {
    await list();
    await fetch(`${MOCK_BASE}${EVENT_TYPES_PATH}`);
    expect(upstream.state.stats()).toMatchObject({
      tokenRequests: 1,
      requests: { token: 1, 'event-types': 2 },
    });
  });
});
