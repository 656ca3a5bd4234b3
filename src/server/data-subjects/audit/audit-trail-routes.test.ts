// The lookup audit trail's API: newest first with filters and paging, and finding every lookup of
// one identifier by typing it (in the body), though the trail itself never holds it readably.
import { afterEach, describe, expect, it } from 'vitest';
import { AuditPageSchema } from '../../../shared/audit-trail';
import { DEMO_IDENTIFIERS } from '../../../shared/data-subject-demo';
import { startBffHarness, type BffHarness } from '../../test-support/bff-harness';
import { expectProblem } from '../../test-support/expect-problem';
import { withPurpose } from '../../test-support/lookup-purpose';

const [ADA, GRACE] = DEMO_IDENTIFIERS;

let harness: BffHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A clock the test moves, so records have distinct, known times. */
function clock(start = Date.UTC(2026, 2, 1, 9, 0, 0)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

async function setUp() {
  const time = clock();
  const h = await startBffHarness({ now: time.now });
  harness = h;
  const lookup = (
    operation: string,
    params: Record<string, string>,
    as: 'admin' | 'support' = 'admin',
  ) => {
    time.advance(60_000);
    return h.request(
      '/api/data-subjects/lookups',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(withPurpose({ operation, params })),
      },
      { as },
    );
  };
  return { h, time, lookup };
}

async function page(h: BffHarness, query = '') {
  const response = await h.request(`/api/audit-trail${query}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return AuditPageSchema.parse(await response.json());
}

function search(h: BffHarness, body: unknown) {
  return h.request('/api/audit-trail/search', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('GET /api/audit-trail', () => {
  it('lists newest first, filters by time, operation and outcome, and pages', async () => {
    const { h, lookup } = await setUp();
    await lookup('v4-basic-details', { identifier: ADA! });
    await lookup('v4-details', { identifier: GRACE! });
    await lookup('v4-details', { identifier: 'nobody@example.com' });
    await lookup('v2-datasubjects', { identifier: ADA! });

    const all = await page(h);
    expect(all.items.map((item) => item.operation)).toEqual([
      'v2-datasubjects',
      'v4-details',
      'v4-details',
      'v4-basic-details',
    ]);
    expect(all.items[0]?.at).toBe('2026-03-01T09:04:00.000Z');
    expect(all.nextCursor).toBeNull();

    expect((await page(h, '?operation=v4-details')).items).toHaveLength(2);
    expect((await page(h, '?outcome=not-found')).items.map((i) => i.operation)).toEqual([
      'v4-details',
    ]);
    expect((await page(h, '?user=admin')).items).toHaveLength(4);
    expect((await page(h, '?user=support')).items).toHaveLength(0);
    const window = await page(h, '?since=2026-03-01T09:02:00Z&until=2026-03-01T09:03:00Z');
    expect(window.items.map((item) => item.at)).toEqual([
      '2026-03-01T09:03:00.000Z',
      '2026-03-01T09:02:00.000Z',
    ]);

    const first = await page(h, '?limit=3');
    expect(first.items).toHaveLength(3);
    const second = await page(h, `?limit=3&cursor=${first.nextCursor}`);
    expect(second.items.map((item) => item.operation)).toEqual(['v4-basic-details']);
    expect(second.nextCursor).toBeNull();
  });

  it.each([
    ['?identifier=ada', 'identifier'],
    ['?outcome=maybe', 'outcome'],
    ['?operation=v9', 'operation'],
    ['?since=yesterday', 'since'],
    ['?since=2026-03-02T00:00:00Z&until=2026-03-01T00:00:00Z', 'since'],
    ['?limit=0', 'limit'],
    ['?cursor=bm9wZQ', 'cursor'],
  ])('refuses %s with 400 naming the parameter', async (query, parameter) => {
    const { h } = await setUp();
    const response = await h.request(`/api/audit-trail${query}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { parameter?: string }).parameter).toBe(parameter);
  });

  it('reads an empty filter as no filter, as the 429 history does', async () => {
    const { h, lookup } = await setUp();
    await lookup('v4-details', { identifier: GRACE! });
    await lookup('v4-details', { identifier: ADA! });
    const all = await page(h);
    expect(all.items).toHaveLength(2);
    expect(await page(h, '?since=&until=&user=&operation=&outcome=')).toEqual(all);
    expect((await page(h, '?since=2026-03-01T09:02:00Z&until=')).items).toHaveLength(1);

    await expectProblem(
      await h.request('/api/audit-trail?since=&since=2026-03-01T09:00:00Z'),
      400,
      {
        type: '/problems/invalid-parameter',
        parameter: 'since',
        detail: 'since: give it at most once',
      },
    );
  });

  it('is for admins and auditors, never support', async () => {
    const { h } = await setUp();
    expect((await h.request('/api/audit-trail', {}, { as: 'support' })).status).toBe(403);
    expect((await h.request('/api/audit-trail', {}, { as: 'auditor' })).status).toBe(200);
    expect((await search(h, { identifier: ADA })).status).toBe(200);
    const searchAs = (as: 'auditor' | 'support') =>
      h.request(
        '/api/audit-trail/search',
        { method: 'POST', body: JSON.stringify({ identifier: ADA }) },
        { as },
      );
    expect((await searchAs('support')).status).toBe(403);
    expect((await searchAs('auditor')).status).toBe(200);
    const verify = await h.request(
      '/api/audit-trail/verify',
      { method: 'POST' },
      { as: 'auditor' },
    );
    expect(verify.status).toBe(200);
  });
});

describe('POST /api/audit-trail/search', () => {
  it('finds every lookup of the identifier typed, and only those', async () => {
    const { h, lookup } = await setUp();
    await lookup('v4-basic-details', { identifier: ADA! });
    await lookup('v4-details', { identifier: GRACE! });
    await lookup('v2-linked-groups', { primaryDataSubjectIdentifier: ADA! });
    await lookup('v4-details', { identifier: `${ADA!}\u0000` });

    const response = await search(h, { identifier: `  ${ADA!} ` });
    expect(response.status).toBe(200);
    const found = AuditPageSchema.parse(await response.json());
    expect(found.items.map((item) => [item.operation, item.outcome])).toEqual([
      ['v2-linked-groups', 'ok'],
      ['v4-basic-details', 'ok'],
    ]);
    expect(JSON.stringify(found)).not.toContain('lovelace');

    const none = AuditPageSchema.parse(
      await (await search(h, { identifier: 'someone.else@example.com' })).json(),
    );
    expect(none.items).toEqual([]);
  });

  it.each([
    [{}, 'identifier'],
    [{ identifier: '' }, 'identifier'],
    [{ identifier: '   ' }, 'identifier'],
    [{ identifier: 'x'.repeat(257) }, 'identifier'],
    [{ identifier: '\u0000' }, 'identifier'],
    [{ identifier: `${ADA}\u0000` }, 'identifier'],
    [{ identifier: ADA, extra: 1 }, 'body'],
  ])('refuses %o with 400', async (body, parameter) => {
    const { h } = await setUp();
    const response = await search(h, body);
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { parameter?: string };
    expect(problem.parameter).toBe(parameter);
    expect(JSON.stringify(problem)).not.toContain('lovelace');
  });

  it('says a cursor it cannot read is not valid, and how to start again', async () => {
    const { h, lookup } = await setUp();
    for (let i = 0; i < 3; i += 1) await lookup('v4-details', { identifier: ADA! });
    const first = await page(h, '?limit=2');
    const altered = `${first.nextCursor!.slice(0, -2)}xx`;
    const answers = [
      await search(h, { identifier: ADA, cursor: 'bm9wZQ' }),
      await search(h, { identifier: ADA, cursor: altered }),
      await search(h, { identifier: ADA, cursor: 'c'.repeat(601) }),
      await h.request(`/api/audit-trail?cursor=${encodeURIComponent(altered)}`),
    ];
    for (const response of answers) {
      await expectProblem(response, 400, {
        type: '/problems/invalid-parameter',
        title: 'The cursor is not valid',
        parameter: 'cursor',
        detail:
          'cursor: not one this server issued for this list (altered, stale, or from another list). Start again from the first page: send the request without a cursor, then follow each answer’s nextCursor.',
      });
    }
  });
});
