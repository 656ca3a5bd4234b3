// The mock's data-subject operations as a client sees them: one consistent data set behind v4 and
// legacy alike, parameters read only where the catalog says they travel, not-found for an unknown
// identifier, and continuation paging of the link-token listing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_IDENTIFIERS,
  DEMO_LINKED_GROUP_ID,
  DEMO_PURPOSE_GUID,
  DEMO_UNKNOWN_IDENTIFIER,
} from '../../shared/data-subject-demo';
import { anchorDay, generateDataSubjects } from '../data/data-subjects';
import { LINK_TOKEN_PAGE_SIZE } from '../data/data-subject-answers';
import { createMockUpstream } from '../node';
import { TOKEN_PATH } from './auth';

const BASE = 'https://upstream.example.test';
const NOW = Date.UTC(2026, 5, 15, 12, 0, 0);
const upstream = createMockUpstream({ now: () => NOW });
const [ADA] = DEMO_IDENTIFIERS;

beforeAll(() => upstream.listen());
afterEach(() => upstream.state.reset());
afterAll(() => upstream.close());

async function token(): Promise<string> {
  const response = await fetch(`${BASE}${TOKEN_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'demo-client',
      client_secret: 'demo-secret',
    }),
  });
  return (await response.json()).access_token;
}

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${BASE}${path}`, {
    headers: { authorization: `Bearer ${await token()}`, ...headers },
  });
  return { status: response.status, body: await response.json() };
}

describe('the synthetic data subjects', () => {
  const set = generateDataSubjects(anchorDay(NOW));

  it('are the same for the same day', () => {
    const again = generateDataSubjects(anchorDay(NOW));
    expect([again.subjects, again.groups]).toEqual([set.subjects, set.groups]);
    expect(new Set(set.subjects.map((s) => s.identifier)).size).toBe(set.subjects.length);
  });

  it('hold every example of the demo hints', () => {
    for (const identifier of DEMO_IDENTIFIERS) {
      const subject = set.subject(identifier);
      expect(subject?.purposes.some((p) => p.purposeGuid === DEMO_PURPOSE_GUID)).toBe(true);
    }
    expect(set.group(DEMO_LINKED_GROUP_ID)?.primaryDataSubjectIdentifier).toBe(ADA);
    expect(set.subject(DEMO_UNKNOWN_IDENTIFIER)).toBeUndefined();
  });

  it('date everything in the year before the anchor day', () => {
    for (const subject of set.subjects) {
      for (const time of [subject.createdDate, subject.linkToken.createdDate]) {
        expect(Date.parse(time)).toBeLessThanOrEqual(NOW);
        expect(Date.parse(time)).toBeGreaterThan(NOW - 366 * 86_400_000);
      }
    }
  });
});

describe('GET /v4/datasubjects/* and the legacy operations', () => {
  it('answers basic details without any consent information', async () => {
    const { status, body } = await get('/v4/datasubjects/basic-details', { identifier: ADA! });
    expect(status).toBe(200);
    expect(body).toMatchObject({ identifier: ADA });
    expect(body).not.toHaveProperty('purposes');
  });

  it('shows the same purposes through v4 and v2, in their own shapes', async () => {
    const v4 = await get('/v4/datasubjects/details', { identifier: ADA! });
    const v2 = await get('/api/consentmanager/v2/datasubjects', { identifier: ADA! });
    const summary = (purposes: Array<{ purposeGuid: string; status: string }>) =>
      purposes.map((p) => [p.purposeGuid, p.status]);
    expect(summary(v4.body.purposes)).toEqual(summary(v2.body.purposes));
    expect(v4.body.purposes[0]).toHaveProperty('purposeVersion');
    expect(v2.body.purposes[0]).not.toHaveProperty('purposeVersion');
    expect(v2.body.purposes[0]).toHaveProperty('collectionPointName');
  });

  it('answers one purpose through the documented path with the GUID in it', async () => {
    const { status, body } = await get(`/v4/datasubjects/profiles/${DEMO_PURPOSE_GUID}`, {
      identifier: ADA!,
    });
    expect(status).toBe(200);
    expect(body.purposes).toHaveLength(1);
    expect(body.purposes[0].purposeGuid).toBe(DEMO_PURPOSE_GUID);
  });

  it('answers 404 for an identifier it does not know', async () => {
    const { status } = await get('/v4/datasubjects/details', {
      identifier: DEMO_UNKNOWN_IDENTIFIER,
    });
    expect(status).toBe(404);
  });

  it('treats a parameter sent in the wrong place as missing', async () => {
    const { status, body } = await get(
      `/v4/datasubjects/details?identifier=${encodeURIComponent(ADA!)}`,
    );
    expect(status).toBe(400);
    expect(body.message).toBe('Missing required header identifier');
    expect(upstream.state.dataSubjects.received()).toEqual([]);
  });

  it('records where each parameter arrived', async () => {
    await get(`/v4/datasubjects/profiles/${DEMO_PURPOSE_GUID}`, { identifier: ADA! });
    expect(upstream.state.dataSubjects.received()).toEqual([
      {
        operation: 'v4-purpose-profile',
        path: `/v4/datasubjects/profiles/${DEMO_PURPOSE_GUID}`,
        query: {},
        headers: { identifier: ADA },
      },
    ]);
  });

  it('asks for a bearer token, but for no particular scope', async () => {
    const response = await fetch(`${BASE}/v4/datasubjects/details`, {
      headers: { identifier: ADA! },
    });
    expect(response.status).toBe(401);
  });

  it('pages the link-token listing with requestContinuation to the last page', async () => {
    const range = `fromDate=${new Date(NOW - 365 * 86_400_000).toISOString()}&toDate=${new Date(NOW).toISOString()}`;
    const seen: string[] = [];
    let continuation: string | null = null;
    let pages = 0;
    do {
      const query: string = continuation
        ? `${range}&requestContinuation=${encodeURIComponent(continuation)}`
        : range;
      const { status, body } = await get(`/v4/datasubjects/link-tokens?${query}`);
      expect(status).toBe(200);
      expect(body.content.length).toBeLessThanOrEqual(LINK_TOKEN_PAGE_SIZE);
      seen.push(...body.content.map((item: { token: string }) => item.token));
      continuation = body.requestContinuation;
      pages += 1;
    } while (continuation && pages < 20);
    expect(continuation).toBeNull();
    expect(new Set(seen).size).toBe(upstream.state.dataSubjects.data.subjects.length);

    const { status } = await get(
      `/v4/datasubjects/link-tokens?fromDate=2026-01-01&toDate=2026-02-01&requestContinuation=bm9wZQ`,
    );
    expect(status).toBe(400);
  });
});
