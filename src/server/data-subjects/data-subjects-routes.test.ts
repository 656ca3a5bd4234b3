// Data-subject lookups through the BFF against the real mock over HTTP: where each parameter
// travels on the wire (checked at the mock), validation that sends nothing, not-found as an
// answer, continuation paging to the last page, and exactly one audit record per lookup, of every
// outcome, written before the answer, for admins only.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  DEMO_IDENTIFIERS,
  DEMO_LINKED_GROUP_ID,
  DEMO_PURPOSE_GUID,
} from '../../shared/data-subject-demo';
import {
  BUILT_IN_OPERATIONS,
  DATA_SUBJECT_PROBLEM_TYPES,
  DataSubjectCatalogSchema,
} from '../../shared/data-subject-operations';
import { LookupResponseSchema } from '../../shared/data-subject-lookups';
import { AuditPageSchema, type AuditRecord } from '../../shared/audit-trail';
import { MODULE_RULES } from '../../shared/rate-limits';
import { createLogger } from '../observability/logger';
import type { BffHarness } from '../test-support/bff-harness';
import type { Role } from '../../shared/session';
import { harnessPerTest } from '../test-support/harness-per-test';
import { withPurpose } from '../test-support/lookup-purpose';

const ADA = DEMO_IDENTIFIERS[0];

const start = harnessPerTest();

/** A lookup of `operation` over the dates `fromDate` to `toDate`. */
const dateRange = (operation: string, fromDate: string, toDate: string) => ({
  operation,
  params: { fromDate, toDate },
});

/** A lookup of the purposes updated between `updatedSince` and `updatedUntil`. */
const updatesBetween = (updatedSince: string, updatedUntil: string) => ({
  operation: 'v4-purposes-by-date',
  params: { updatedSince, updatedUntil },
});

function lookup(h: BffHarness, body: unknown, as: Role = 'admin') {
  return h.request(
    '/api/data-subjects/lookups',
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(withPurpose(body)),
    },
    { as },
  );
}

async function trail(h: BffHarness): Promise<AuditRecord[]> {
  const response = await h.request('/api/audit-trail?limit=200');
  expect(response.status).toBe(200);
  return AuditPageSchema.parse(await response.json()).items;
}

/** The data-subject requests the mock received. */
const received = (h: BffHarness) => h.mock.dataSubjects.received();

describe('GET /api/data-subjects/operations', () => {
  it('answers the catalog: the ten v4 operations in the guide’s order, then the legacy ones', async () => {
    const h = await start();
    const response = await h.request('/api/data-subjects/operations');
    expect(response.status).toBe(200);
    const { operations } = DataSubjectCatalogSchema.parse(await response.json());
    expect(operations.filter((op) => op.version === 'v4').map((op) => op.row)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(operations).toEqual(BUILT_IN_OPERATIONS);
  });
});

describe('POST /api/data-subjects/lookups', () => {
  it('sends the identifier as a header named identifier, never in the URL', async () => {
    const h = await start();
    const response = await lookup(h, { operation: 'v4-details', params: { identifier: ADA } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = LookupResponseSchema.parse(await response.json());
    expect(body.operation).toBe('v4-details');
    expect(body.data).toMatchObject({ identifier: ADA, profiles: expect.any(Array) });

    const [request] = received(h);
    expect(request).toEqual({
      operation: 'v4-details',
      path: '/rest/api/consent/v4/datasubjects/details',
      query: {},
      headers: { identifier: ADA },
    });
    const sent = h.sent.find((call) => call.url.pathname.endsWith('/details'));
    expect(sent?.url.href).not.toContain('lovelace');
  });

  it.each([
    [
      'puts purposeGuid in the path and the identifier in its header',
      {
        operation: 'v4-purpose-profile',
        params: { identifier: ADA, purposeGuid: DEMO_PURPOSE_GUID },
      },
      {
        path: `/rest/api/consent/v4/datasubjects/profiles/${DEMO_PURPOSE_GUID}`,
        query: {},
        headers: { identifier: ADA },
      },
    ],
    [
      'sends dates as query parameters in UTC with milliseconds',
      updatesBetween('2026-01-01', '2026-01-31T01:59:59+02:00'),
      {
        path: '/rest/api/consent/v4/datasubjects/profiles',
        query: {
          updatedSince: '2026-01-01T00:00:00.000Z',
          updatedUntil: '2026-01-30T23:59:59.000Z',
        },
        headers: {},
      },
    ],
    [
      'sends a legacy operation to its documented path with the mapped header',
      { operation: 'v2-linked-groups', params: { primaryDataSubjectIdentifier: ADA, size: 5 } },
      {
        path: '/api/consentmanager/v2/linkedidentitygroups',
        query: { size: '5' },
        headers: { primarydatasubjectidentifier: ADA },
      },
    ],
  ])('%s', async (_, body, wire) => {
    const h = await start();
    expect((await lookup(h, body)).status).toBe(200);
    expect(received(h)[0]).toMatchObject(wire);
  });

  it.each([
    ['a missing required parameter', { operation: 'v4-details', params: {} }, 'identifier'],
    [
      'a purposeGuid that is not a UUID',
      { operation: 'v4-purpose-profile', params: { identifier: ADA, purposeGuid: '../admin' } },
      'purposeGuid',
    ],
    [
      'a linkedIdentityGroupId that is not a UUID',
      { operation: 'v4-linked-group', params: { linkedIdentityGroupId: '..' } },
      'linkedIdentityGroupId',
    ],
    ['dates out of order', dateRange('v4-link-tokens', '2026-03-01', '2026-02-01'), 'toDate'],
    [
      'a link-token range over the documented 7 days',
      dateRange('v4-link-tokens', '2026-01-01', '2026-01-08T00:00:01Z'),
      'toDate',
    ],
    [
      'a data-subject list range over the documented 7 days',
      dateRange('v4-data-subjects', '2026-01-01', '2026-01-09'),
      'toDate',
    ],
    [
      'a reversed data-subject list range',
      dateRange('v4-data-subjects', '2026-01-09', '2026-01-08'),
      'toDate',
    ],
    [
      'a purpose-updates range over the documented 30 days',
      updatesBetween('2026-01-01', '2026-02-01'),
      'updatedUntil',
    ],
    [
      'a page size over the documented 50',
      { operation: 'v4-purposes', params: { identifier: ADA, size: 51 } },
      'size',
    ],
    [
      'a page size of 0',
      {
        operation: 'v4-linked-group',
        params: { linkedIdentityGroupId: DEMO_LINKED_GROUP_ID, size: '0' },
      },
      'size',
    ],
    [
      'a continuation with a line break (header injection)',
      {
        operation: 'v4-purposes',
        params: { identifier: ADA },
        continuation: '{"compositeToken": "x"}\r\nAuthorization: Bearer x',
      },
      'continuation',
    ],
    [
      'a continuation with characters outside ASCII',
      { operation: 'v4-purposes', params: { identifier: ADA }, continuation: 'tökén' },
      'continuation',
    ],
    [
      'a continuation longer than 2,048 characters',
      { operation: 'v4-purposes', params: { identifier: ADA }, continuation: 'a'.repeat(2_049) },
      'continuation',
    ],
    [
      'a purpose filter that is not a UUID',
      {
        operation: 'v4-purposes-by-date',
        params: { updatedSince: '2026-01-01', updatedUntil: '2026-01-02', purposeId: 'marketing' },
      },
      'purposeId',
    ],
    [
      'a date that is not ISO 8601',
      dateRange('v4-link-tokens', '01/02/2026', '2026-02-01'),
      'fromDate',
    ],
    [
      'an identifier with a control character',
      { operation: 'v4-details', params: { identifier: 'ada\r\nAuthorization: x' } },
      'identifier',
    ],
    [
      'an identifier over 256 characters',
      { operation: 'v4-details', params: { identifier: `${'a'.repeat(250)}@example.com` } },
      'identifier',
    ],
    [
      'an unknown parameter',
      { operation: 'v4-details', params: { identifier: ADA, purposeGuid: DEMO_PURPOSE_GUID } },
      'purposeGuid',
    ],
    ['an unknown operation', { operation: 'v9-everything', params: {} }, 'operation'],
    [
      'a continuation for an operation that does not page',
      { operation: 'v4-details', params: { identifier: ADA }, continuation: 'abc' },
      'continuation',
    ],
    ['a body that is not JSON', 'identifier=ada', 'body'],
  ])('refuses %s with 400, sending nothing upstream', async (_, body, parameter) => {
    const h = await start();
    const response = await lookup(h, body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem.parameter).toBe(parameter);
    expect(JSON.stringify(problem)).not.toContain('lovelace');
    expect(h.sent).toHaveLength(0);
    expect(h.mock.stats().tokenRequests).toBe(0);
    const records = await trail(h);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ outcome: 'invalid', status: 400 });
    expect(records[0]?.detail).toContain(`(${parameter})`);
  });

  it('answers an unknown identifier with the not-found problem, not an error', async () => {
    const nobody = { operation: 'v4-basic-details', params: { identifier: 'nobody@example.com' } };
    const h = await start();
    const response = await lookup(h, nobody);
    expect(response.status).toBe(404);
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({
      type: DATA_SUBJECT_PROBLEM_TYPES.notFound,
      title: 'No data subject with this identifier',
    });
    expect((await trail(h))[0]).toMatchObject({ outcome: 'not-found', status: 404 });
  });

  it('says a 404 that is not the platform’s not-found answer is a configuration problem, naming the operation and its path', async () => {
    // The catalog moved to a path the platform does not have: the 404 is the platform's generic
    // "no such path" object, not its documented not-found string.
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
    const file = join(dir, 'operations.json');
    writeFileSync(
      file,
      JSON.stringify({
        operations: { 'v4-basic-details': { path: '/v4/datasubjects/basic-details' } },
      }),
    );
    try {
      const h = await start({ env: { DATA_SUBJECT_OPERATIONS_FILE: file } });
      const response = await lookup(h, {
        operation: 'v4-basic-details',
        params: { identifier: ADA },
      });
      expect(response.status).toBe(502);
      const problem = (await response.json()) as Record<string, unknown>;
      expect(problem).toMatchObject({
        type: DATA_SUBJECT_PROBLEM_TYPES.operationUnavailable,
        upstreamStatus: 404,
        path: 'GET /v4/datasubjects/basic-details',
      });
      expect(String(problem.title)).not.toMatch(/no data subject|not found/i);
      expect(String(problem.detail)).toContain('Basic details');
      expect(JSON.stringify(problem)).not.toContain('lovelace');
      const [record] = await trail(h);
      expect(record).toMatchObject({ outcome: 'error', status: 502 });
      expect(record?.detail).toBe(
        `${DATA_SUBJECT_PROBLEM_TYPES.operationUnavailable} (upstream 404)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says "not found" when the platform answers with its documented not-found string', async () => {
    const h = await start();
    const response = await lookup(h, {
      operation: 'v4-linked-group',
      params: { linkedIdentityGroupId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      type: DATA_SUBJECT_PROBLEM_TYPES.notFound,
      title: 'No linked identity group with this id',
    });
    expect((await trail(h))[0]).toMatchObject({ outcome: 'not-found', status: 404 });
  });

  it.each([
    ['v4-data-subjects', 'fromDate', 'toDate'],
    ['v4-purposes-by-date', 'updatedSince', 'updatedUntil'],
    ['v4-link-tokens', 'fromDate', 'toDate'],
  ])('lists the example data subjects in %s over the last days', async (operation, from, to) => {
    const h = await start();
    const now = Date.now();
    const params = {
      [from]: new Date(now - 6 * 86_400_000).toISOString(),
      [to]: new Date(now).toISOString(),
      size: 50,
    };
    const seen = new Set<string>();
    let continuation: string | undefined;
    let pages = 0;
    do {
      const response = await lookup(h, {
        operation,
        params,
        ...(continuation ? { continuation } : {}),
      });
      expect(response.status).toBe(200);
      const body = LookupResponseSchema.parse(await response.json());
      for (const item of (body.data as { content: Array<{ identifier: string }> }).content) {
        seen.add(item.identifier);
      }
      continuation = body.continuation;
      pages += 1;
    } while (continuation && pages < 20);
    for (const identifier of DEMO_IDENTIFIERS) expect(seen).toContain(identifier);
  });

  it('follows requestContinuation page by page to the last page', async () => {
    const h = await start();
    const params = {
      fromDate: new Date(Date.now() - 6 * 86_400_000).toISOString(),
      toDate: new Date().toISOString(),
      size: 5,
    };
    const identifiers: string[] = [];
    let continuation: string | undefined;
    let pages = 0;
    do {
      const response = await lookup(h, {
        operation: 'v4-link-tokens',
        params,
        ...(continuation ? { continuation } : {}),
      });
      expect(response.status).toBe(200);
      const body = LookupResponseSchema.parse(await response.json());
      const content = (body.data as { content: Array<{ identifier: string }> }).content;
      identifiers.push(...content.map((item) => item.identifier));
      continuation = body.continuation;
      pages += 1;
    } while (continuation && pages < 20);
    expect(continuation).toBeUndefined();
    expect(pages).toBeGreaterThan(2);
    expect(new Set(identifiers).size).toBe(identifiers.length);
    const inRange = h.mock.dataSubjects.data.subjects.filter(
      (subject) => Date.parse(subject.linkToken.createdDate) >= Date.parse(params.fromDate),
    );
    expect(identifiers.length).toBe(inRange.length);
    expect(identifiers).toContain(ADA);
    // The token went back as the requestContinuation request header, never in the URL.
    const later = received(h).slice(1);
    expect(later.every((request) => request.headers.requestcontinuation)).toBe(true);
    expect(later.every((request) => !('requestContinuation' in request.query))).toBe(true);
    // Every page is a lookup of its own, and says it continued an earlier one.
    const records = await trail(h);
    expect(records).toHaveLength(pages);
    expect(records.filter((record) => record.continued)).toHaveLength(pages - 1);
  });

  it('leaves exactly one audit record per lookup, whatever its outcome', async () => {
    const h = await start();
    await lookup(h, { operation: 'v4-basic-details', params: { identifier: ADA } });
    await lookup(h, {
      operation: 'v4-basic-details',
      params: { identifier: 'nobody@example.com' },
    });
    h.mock.injectFault({ operation: 'v4-details', status: 500 });
    expect((await lookup(h, { operation: 'v4-details', params: { identifier: ADA } })).status).toBe(
      502,
    );
    h.mock.injectFault({ operation: 'v2-datasubjects', status: 429, retryAfterSeconds: 30 });
    const limited = await lookup(h, { operation: 'v2-datasubjects', params: { identifier: ADA } });
    expect(limited.status).toBe(429);
    await lookup(h, { operation: 'v4-details', params: {} });

    const records = await trail(h);
    expect(records.map((record) => [record.operation, record.outcome, record.status])).toEqual([
      ['v4-details', 'invalid', 400],
      ['v2-datasubjects', 'rate-limited', 429],
      ['v4-details', 'error', 502],
      ['v4-basic-details', 'not-found', 404],
      ['v4-basic-details', 'ok', 200],
    ]);
    expect(records.every((record) => record.user === 'admin')).toBe(true);
    expect(records[1]?.detail).toMatch(/^incident [0-9a-f-]{36}$/);
    expect(records.map((record) => record.identifierHashed)).toEqual([
      false,
      true,
      true,
      true,
      true,
    ]);
    // Never the identifier itself, anywhere in the trail's answer.
    expect(JSON.stringify(records)).not.toMatch(/lovelace|nobody/);
  });

  it.each(['support', 'auditor'] as const)(
    'refuses %s with 403 and writes no audit record of a lookup it never made',
    async (role) => {
      const h = await start();
      const response = await lookup(
        h,
        { operation: 'v4-details', params: { identifier: ADA } },
        role,
      );
      expect(response.status).toBe(403);
      expect(h.sent).toHaveLength(0);
      expect(await trail(h)).toEqual([]);
    },
  );

  it('withholds the answer when the lookup’s outcome cannot be written to the audit trail', async () => {
    const h = await start();
    const store = h.audit.records;
    const original = store.complete.bind(store);
    store.complete = () => Promise.reject(new Error('disk full'));
    try {
      const response = await lookup(h, { operation: 'v4-details', params: { identifier: ADA } });
      expect(response.status).toBe(503);
      const problem = (await response.json()) as Record<string, unknown>;
      expect(problem.type).toBe(DATA_SUBJECT_PROBLEM_TYPES.auditUnavailable);
      expect(JSON.stringify(problem)).not.toContain('lovelace');
    } finally {
      store.complete = original;
    }
  });

  it('never passes the identifier to the logger', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const h = await start({ logger: createLogger('trace', destination) });
    await lookup(h, { operation: 'v4-details', params: { identifier: ADA } });
    await lookup(h, { operation: 'v4-details', params: { identifier: 'nobody@example.com' } });
    h.mock.injectFault({ operation: 'v4-details', status: 500 });
    await lookup(h, { operation: 'v4-details', params: { identifier: ADA } });
    await h.request('/api/audit-trail/search', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier: ADA }),
    });
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.join('')).not.toMatch(/lovelace|nobody@/);
  });

  it('counts each operation against its published module rule, and the rule holds lookups back', async () => {
    // The v2 quota at 1 per minute, so the second v2 lookup must wait.
    const moduleRules = MODULE_RULES.map((rule) =>
      rule.id === 'v2-datasubjects-quota'
        ? { ...rule, limits: rule.limits.map((window) => ({ ...window, limit: 1 })) }
        : rule,
    );
    const h = await start({ moduleRules });
    await lookup(h, { operation: 'v4-details', params: { identifier: ADA } });
    await lookup(h, { operation: 'v1-datasubject-profiles', params: { identifier: ADA } });
    expect(
      (await lookup(h, { operation: 'v2-datasubjects', params: { identifier: ADA } })).status,
    ).toBe(200);
    const used = async (ruleId: string) =>
      (await h.rateLimiting.governor.usage()).find((limit) => limit.ruleId === ruleId)?.used;
    expect(await used('v4-details-minute')).toBe(1);
    expect(await used('v1-datasubject-profiles-quota')).toBe(1);
    expect(await used('v2-datasubjects-quota')).toBe(1);

    const held = await lookup(h, { operation: 'v2-datasubjects', params: { identifier: ADA } });
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await held.json()) as { limitedBy?: string }).limitedBy).toBe('console');
    expect(received(h).filter((request) => request.operation === 'v2-datasubjects')).toHaveLength(
      1,
    );
    expect((await trail(h))[0]).toMatchObject({
      operation: 'v2-datasubjects',
      outcome: 'rate-limited',
    });
  });
});
