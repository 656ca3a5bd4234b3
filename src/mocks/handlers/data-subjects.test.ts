// The mock's data-subject operations as a client sees them: one consistent data set behind v4 and
// legacy alike, parameters read only where the catalog says they travel, not-found for an unknown
// identifier in the documented shape, and continuation paging of the link-token listing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_IDENTIFIERS,
  DEMO_LINKED_GROUP_ID,
  DEMO_PURPOSE_GUID,
  DEMO_UNKNOWN_IDENTIFIER,
} from '../../shared/data-subject-demo';
import { anchorDay, generateDataSubjects } from '../data/data-subjects';
import { createMockUpstream } from '../node';
import { demoToken, MOCK_BASE } from '../test-support/mock-token';

const NOW = Date.UTC(2026, 5, 15, 12, 0, 0);
const upstream = createMockUpstream({ now: () => NOW });
const [ADA] = DEMO_IDENTIFIERS;

beforeAll(() => upstream.listen());
afterEach(() => upstream.state.reset());
afterAll(() => upstream.close());

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${MOCK_BASE}${path}`, {
    headers: { authorization: `Bearer ${await demoToken()}`, ...headers },
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

const V4 = '/rest/api/consent/v4';

describe('the documented v4 and legacy operations', () => {
  it('answers basic details without any consent information', async () => {
    const { status, body } = await get(`${V4}/datasubjects/basic-details`, { identifier: ADA! });
    expect(status).toBe(200);
    expect(body).toMatchObject({ identifier: ADA, identifierType: 'Email' });
    expect(body).not.toHaveProperty('profiles');
  });

  it('shows the same purposes through v4 and v3, in their own shapes', async () => {
    const v4 = await get(`${V4}/datasubjects/details`, { identifier: ADA! });
    const v3 = await get('/rest/api/preferences/v3/datasubjects/profile', { identifier: ADA! });
    const summary = (purposes: Array<{ id: string; status: string }>) =>
      purposes.map((p) => [p.id, p.status]);
    expect(summary(v4.body.profiles)).toEqual(summary(v3.body.purposes));
    expect(v4.body.linkTokens).toHaveLength(1);
    // v1 capitalises the same fields.
    const v1 = await get('/api/consentmanager/v1/datasubjects/profiles', { identifier: ADA! });
    expect(summary(v4.body.profiles)).toEqual(
      v1.body.content[0].Purposes.map((p: { Id: string; Status: string }) => [p.Id, p.Status]),
    );
  });

  it('answers one purpose through the documented path with the GUID in it', async () => {
    const { status, body } = await get(`${V4}/datasubjects/profiles/${DEMO_PURPOSE_GUID}`, {
      identifier: ADA!,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: DEMO_PURPOSE_GUID, identifier: ADA, status: 'ACTIVE' });
  });

  it('answers the documented not-found string for an identifier it does not know', async () => {
    const response = await fetch(`${MOCK_BASE}${V4}/datasubjects/details`, {
      headers: {
        authorization: `Bearer ${await demoToken()}`,
        identifier: DEMO_UNKNOWN_IDENTIFIER,
      },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toBe('Data Subject Not Found');
  });

  it('treats a parameter sent in the wrong place as missing', async () => {
    const { status, body } = await get(
      `${V4}/datasubjects/details?identifier=${encodeURIComponent(ADA!)}`,
    );
    expect(status).toBe(400);
    expect(body.message).toBe('Missing required header identifier');
    expect(upstream.state.dataSubjects.received()).toEqual([]);
  });

  it('refuses a range longer than documented and a page size over 50', async () => {
    const week = await get(
      `${V4}/linktokens?fromDate=2026-01-01T00:00:00Z&toDate=2026-01-09T00:00:00Z`,
    );
    expect(week.status).toBe(400);
    const size = await get(`${V4}/datasubjects/ds-profiles?size=51`, { identifier: ADA! });
    expect(size.status).toBe(400);
  });

  it('records where each parameter arrived', async () => {
    await get(`${V4}/datasubjects/profiles/${DEMO_PURPOSE_GUID}`, { identifier: ADA! });
    expect(upstream.state.dataSubjects.received()).toEqual([
      {
        operation: 'v4-purpose-profile',
        path: `${V4}/datasubjects/profiles/${DEMO_PURPOSE_GUID}`,
        query: {},
        headers: { identifier: ADA },
      },
    ]);
  });

  it('asks for a bearer token, but for no particular scope', async () => {
    const response = await fetch(`${MOCK_BASE}${V4}/datasubjects/details`, {
      headers: { identifier: ADA! },
    });
    expect(response.status).toBe(401);
  });

  it('pages the link-token listing with the requestContinuation header to the last page', async () => {
    const range = `fromDate=${new Date(NOW - 7 * 86_400_000).toISOString()}&toDate=${new Date(NOW).toISOString()}&size=4`;
    const seen: string[] = [];
    let continuation: string | null = null;
    let pages = 0;
    let body: Record<string, unknown> = {};
    do {
      const answer = await get(
        `${V4}/linktokens?${range}`,
        continuation ? { requestContinuation: continuation } : {},
      );
      expect(answer.status).toBe(200);
      body = answer.body;
      const content = body.content as Array<{ token: string; identifier: string }>;
      expect(body).toMatchObject({ number: pages, size: 4, first: pages === 0 });
      expect(body.numberOfElements).toBe(content.length);
      seen.push(...content.map((item) => item.identifier));
      continuation = body.requestContinuation as string | null;
      pages += 1;
    } while (continuation && pages < 30);
    expect(body.last).toBe(true);
    expect(pages).toBeGreaterThan(2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(ADA);

    // A token sent in the query is not where the documents put it: it starts over.
    const first = await get(`${V4}/linktokens?${range}&requestContinuation=x`);
    expect(first.body.number).toBe(0);
    const { status } = await get(`${V4}/linktokens?${range}`, { requestContinuation: 'bm9wZQ' });
    expect(status).toBe(400);
  });
});
