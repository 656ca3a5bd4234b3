// The documented optional parameters of the data-subject lookups ("Options" in the form) through
// the BFF against the mock over HTTP: each goes where the documents put it, only when set, and a
// value the documents do not allow is refused with a 400 naming it before anything is sent.
import { afterEach, describe, expect, it } from 'vitest';
import { MOCK_DO_NOT_CALL_IDENTIFIER } from '../../mocks/data/data-subjects';
import { DEMO_IDENTIFIERS, DEMO_LINKED_GROUP_ID } from '../../shared/data-subject-demo';
import { LookupResponseSchema } from '../../shared/data-subject-lookups';
import { startBffHarness, type BffHarness } from '../test-support/bff-harness';
import { withPurpose } from '../test-support/lookup-purpose';

const ADA = DEMO_IDENTIFIERS[0];
const DAY = 86_400_000;

let harness: BffHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start() {
  harness = await startBffHarness({});
  return harness;
}

async function lookup(h: BffHarness, body: unknown) {
  const response = await h.request('/api/data-subjects/lookups', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(withPurpose(body)),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const received = (h: BffHarness) => h.mock.dataSubjects.received();

const week = () => ({
  fromDate: new Date(Date.now() - 6 * DAY).toISOString(),
  toDate: new Date(Date.now()).toISOString(),
});

describe('lookup options', () => {
  it('sends the details flags as query parameters, and nothing for a flag left unset', async () => {
    const h = await start();
    const answer = await lookup(h, {
      operation: 'v4-details',
      params: { identifier: ADA, includeNotices: 'true', includeConsentStrings: 'false' },
    });
    expect(answer.status).toBe(200);
    expect(received(h)[0]).toEqual({
      operation: 'v4-details',
      path: '/rest/api/consent/v4/datasubjects/details',
      query: { includeNotices: 'true', includeConsentStrings: 'false' },
      headers: { identifier: ADA },
    });
  });

  it('sends sort in the query, and the mock orders the slice by it', async () => {
    const h = await start();
    const orders: string[][] = [];
    for (const sort of ['lastModifiedDate,asc', 'lastModifiedDate,desc']) {
      const answer = await lookup(h, {
        operation: 'v4-data-subjects',
        params: { ...week(), size: '50', sort },
      });
      expect(answer.status).toBe(200);
      const data = LookupResponseSchema.parse(answer.body).data as {
        content: Array<{ lastUpdatedDate: string }>;
      };
      orders.push(data.content.map((subject) => subject.lastUpdatedDate));
    }
    expect(received(h).map((request) => request.query.sort)).toEqual([
      'lastModifiedDate,asc',
      'lastModifiedDate,desc',
    ]);
    const [ascending, descending] = orders;
    expect(ascending!.length).toBeGreaterThan(2);
    expect(ascending).toEqual([...ascending!].sort());
    expect(descending).toEqual([...ascending!].reverse());
  });

  it('leaves out a data subject on the Do Not Call list unless isDNCInclude is set', async () => {
    const h = await start();
    const without = await lookup(h, {
      operation: 'v4-basic-details',
      params: { identifier: MOCK_DO_NOT_CALL_IDENTIFIER },
    });
    expect(without.status).toBe(404);
    const withFlag = await lookup(h, {
      operation: 'v4-basic-details',
      params: { identifier: MOCK_DO_NOT_CALL_IDENTIFIER, isDNCInclude: 'true' },
    });
    expect(withFlag.status).toBe(200);
    expect(LookupResponseSchema.parse(withFlag.body).data).toMatchObject({ doNotCall: true });
    expect(received(h)[1]?.query).toEqual({ isDNCInclude: 'true' });
  });

  it('sends row 9’s group filter in the query and gets that membership only', async () => {
    const h = await start();
    const answer = await lookup(h, {
      operation: 'v4-linked-groups',
      params: { identifier: ADA, linkedIdentityGroupId: DEMO_LINKED_GROUP_ID },
    });
    expect(answer.status).toBe(200);
    expect(LookupResponseSchema.parse(answer.body).data).toEqual([
      expect.objectContaining({ id: DEMO_LINKED_GROUP_ID, isPrimary: true }),
    ]);
    expect(received(h)[0]).toMatchObject({
      path: '/rest/api/consent/v4/linkedidentitygroups',
      query: { linkedIdentityGroupId: DEMO_LINKED_GROUP_ID },
      headers: { identifier: ADA },
    });
  });

  it('asks a legacy listing for a later page with page in the query', async () => {
    const h = await start();
    const answer = await lookup(h, {
      operation: 'v2-datasubjects',
      params: { page: '1', size: '5' },
    });
    expect(answer.status).toBe(200);
    expect(LookupResponseSchema.parse(answer.body).data).toMatchObject({
      number: 1,
      first: false,
      totalElements: expect.any(Number),
    });
    expect(received(h)[0]?.query).toEqual({ page: '1', size: '5' });
  });

  it.each([
    [
      'a sort outside the documented enum',
      'v4-purposes',
      { identifier: ADA, sort: 'name,asc' },
      'sort',
    ],
    [
      'a sort of another listing',
      'v4-link-tokens',
      { ...week(), sort: 'lastUpdatedDate,desc' },
      'sort',
    ],
    [
      'a flag that is not true or false',
      'v4-basic-details',
      { identifier: ADA, isDNCInclude: 'yes' },
      'isDNCInclude',
    ],
    [
      'a flag the operation does not document',
      'v4-basic-details',
      { identifier: ADA, includeNotices: 'true' },
      'includeNotices',
    ],
    [
      'a group filter that is not a UUID',
      'v4-linked-groups',
      { identifier: ADA, linkedIdentityGroupId: 'family' },
      'linkedIdentityGroupId',
    ],
    [
      'a status outside the documented enum',
      'v4-purposes-by-date',
      { updatedSince: '2026-01-01', updatedUntil: '2026-01-02', status: 'GRANTED' },
      'status',
    ],
    ['a negative legacy page', 'v1-link-tokens', { page: '-1' }, 'page'],
  ])(
    'refuses %s with a 400 naming it, sending nothing',
    async (_, operation, params, parameter) => {
      const h = await start();
      const answer = await lookup(h, { operation, params });
      expect(answer.status).toBe(400);
      expect(answer.body.parameter).toBe(parameter);
      expect(String(answer.body.detail)).toContain(parameter);
      expect(h.sent).toHaveLength(0);
    },
  );
});
