// What a 404 means: "not found" only when the platform answered with its documented not-found
// string; an HTML page, an empty body or a gateway's JSON object is a configuration problem that
// names the operation and its path. And an answer that is not the documented shape is refused,
// while fields the documents do not name are kept.
import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_OPERATIONS,
  DATA_SUBJECT_PROBLEM_TYPES,
} from '../../shared/data-subject-operations';
import { PROBLEM_TYPES } from '../../shared/problem';
import { HttpProblem } from '../http/problem';
import type { UpstreamClient } from '../upstream/upstream-client';
import { DataSubjectLookups } from './data-subject-lookups';

function lookupsAnswering(status: number, contentType: string | undefined, body: string) {
  const upstream = {
    send: async () => ({
      status,
      headers: contentType ? { 'content-type': contentType } : {},
      body,
    }),
  } as unknown as UpstreamClient;
  return new DataSubjectLookups({ operations: BUILT_IN_OPERATIONS, upstream, now: () => 0 });
}

const GUID = '0b7e5c1a-2d3f-4e5a-9b6c-7d8e9f0a1b2c';

async function problemOf(lookups: DataSubjectLookups, operation = 'v4-basic-details') {
  const params: Record<string, string> =
    operation === 'v4-linked-group'
      ? { linkedIdentityGroupId: GUID }
      : operation === 'v4-purpose-profile'
        ? { identifier: 'ada.lovelace@example.com', purposeGuid: GUID }
        : { identifier: 'ada.lovelace@example.com' };
  try {
    await lookups.send(lookups.prepare({ operation, params }));
  } catch (error) {
    if (error instanceof HttpProblem) return error.problem;
    throw error;
  }
  throw new Error('expected a problem');
}

describe('a 404 from the platform', () => {
  it.each([
    ['the documented not-found string', 'application/json', '"Data Subject Not Found"'],
    [
      'the not-found string with a charset',
      'application/json;charset=UTF-8',
      '"Unable to find a datasubject with given identifier"',
    ],
  ])('is "not found" when it is %s', async (_, type, body) => {
    const problem = await problemOf(lookupsAnswering(404, type, body));
    expect(problem).toMatchObject({
      type: DATA_SUBJECT_PROBLEM_TYPES.notFound,
      status: 404,
      title: 'No data subject with this identifier',
    });
  });

  it('is titled by the purpose when one purpose of a data subject was asked for', async () => {
    const lookups = lookupsAnswering(404, 'application/json', '"Data Subject Not Found"');
    const problem = await problemOf(lookups, 'v4-purpose-profile');
    expect(problem).toMatchObject({
      type: DATA_SUBJECT_PROBLEM_TYPES.notFound,
      title: 'No record of this purpose for this data subject',
    });
    expect(problem.detail).toMatch(/or knows no data subject with this identifier/);
  });

  it.each([
    ['an HTML page from a proxy', 'text/html', '<html><body>404 Not Found</body></html>'],
    ['an empty body', undefined, ''],
    ['a gateway’s JSON object', 'application/json', '{"status":404,"error":"Not Found"}'],
    ['an empty JSON string', 'application/json', '""'],
    ['a gateway’s bare JSON string', 'application/json', '"Not Found"'],
    [
      'a gateway’s reason phrase with a charset',
      'application/json; charset=utf-8',
      '"404 Not Found"',
    ],
    ['a string sent as text', 'text/plain', '"Data Subject Not Found"'],
  ])(
    'is a configuration problem naming the operation and path when it is %s',
    async (_, type, body) => {
      const problem = await problemOf(lookupsAnswering(404, type, body), 'v4-linked-group');
      expect(problem).toMatchObject({
        type: DATA_SUBJECT_PROBLEM_TYPES.operationUnavailable,
        status: 502,
        upstreamStatus: 404,
        path: 'GET /rest/api/consent/v4/linkedidentitygroups/{dataSubjectGroupId}/members',
      });
      expect(problem.detail).toContain('Members of a linked identity group');
      expect(problem.title).not.toMatch(/not found|no linked identity group/i);
    },
  );
});

describe('a 200 from the platform', () => {
  it('keeps fields the documents do not name', async () => {
    const lookups = lookupsAnswering(
      200,
      'application/json',
      JSON.stringify({ identifier: 'ada.lovelace@example.com', loyaltyTier: 'gold' }),
    );
    const answer = await lookups.send(
      lookups.prepare({
        operation: 'v4-basic-details',
        params: { identifier: 'ada.lovelace@example.com' },
      }),
    );
    expect(answer.data).toEqual({ identifier: 'ada.lovelace@example.com', loyaltyTier: 'gold' });
  });

  it.each([
    ['a slice without content', 'v4-purposes', { last: true }],
    ['a group list that is not a list', 'v4-linked-groups', { content: [] }],
    ['a date that is not a date', 'v4-basic-details', { createdDate: 'yesterday' }],
  ])('refuses %s as not the documented shape', async (_, operation, body) => {
    const lookups = lookupsAnswering(200, 'application/json', JSON.stringify(body));
    const problem = await problemOf(lookups, operation);
    expect(problem.type).toBe(PROBLEM_TYPES.upstreamInvalidResponse);
  });

  it('offers the next page until the slice says it is the last', async () => {
    const page = (last: boolean) =>
      lookupsAnswering(
        200,
        'application/json',
        JSON.stringify({ content: [], last, requestContinuation: '{"compositeToken": "abc"}' }),
      );
    const params = { identifier: 'ada.lovelace@example.com' };
    const first = page(false);
    expect(
      (await first.send(first.prepare({ operation: 'v4-purposes', params }))).continuation,
    ).toBe('{"compositeToken": "abc"}');
    const last = page(true);
    expect(
      (await last.send(last.prepare({ operation: 'v4-purposes', params }))).continuation,
    ).toBeUndefined();
  });
});
