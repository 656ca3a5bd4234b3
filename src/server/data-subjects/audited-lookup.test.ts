// The audited lookup as a use case, without HTTP: the intent is in the trail before anything is
// sent, the outcome after, and a trail that cannot take the intent means nothing is sent at all.
// The trail is the real store on an in-memory SQLite database; only the platform is stood in for.
import { afterEach, describe, expect, it } from 'vitest';
import {
  BUILT_IN_OPERATIONS,
  DATA_SUBJECT_PROBLEM_TYPES,
} from '../../shared/data-subject-operations';
import { createLogger } from '../logger';
import { openDatabase, type SqlDatabase } from '../store/database';
import { failingDatabase } from '../test-support/failing-database';
import type { UpstreamClient } from '../upstream/upstream-client';
import { deriveAuditKey } from './audit/audit-chain';
import { SqlAuditStore } from './audit/audit-store';
import { createIdentifierHasher } from './audit/identifier-hash';
import { LookupAudit } from './audit/lookup-audit';
import { AuditedLookup, type LookupResult } from './audited-lookup';
import { DataSubjectLookups } from './data-subject-lookups';

const KEY = 'audited-lookup-test-key-0123456789abcdef';
const ADA = 'ada.lovelace@example.com';
const BASIC_DETAILS = JSON.stringify({
  content: [{ dataSubjectId: '8d3c2f0e-2b1a-4c5d-9e8f-7a6b5c4d3e2f', identifier: ADA }],
});
const silent = createLogger('silent');

const opened: SqlDatabase[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
});

/** A lookup service on `database`, whose platform answers `status` with `body`. */
function setUp(database: SqlDatabase, status = 200, body = BASIC_DETAILS) {
  const store = new SqlAuditStore(database, { chainKey: deriveAuditKey(KEY, 'chain') });
  const sent: Array<{ recordsBefore: number }> = [];
  const upstream = {
    send: async () => {
      // What the trail held when the request went out.
      sent.push({ recordsBefore: (await store.list({ limit: 10 })).items.length });
      return { status, headers: { 'content-type': 'application/json' }, body };
    },
  } as unknown as UpstreamClient;
  const lookups = new DataSubjectLookups({
    operations: BUILT_IN_OPERATIONS,
    upstream,
    now: Date.now,
  });
  const audit = new LookupAudit(store, createIdentifierHasher(KEY), Date.now);
  return { store, sent, service: new AuditedLookup({ lookups, audit, logger: silent }) };
}

async function memoryDatabase() {
  const database = await openDatabase();
  opened.push(database);
  return database;
}

const basicDetails = (identifier = ADA) =>
  JSON.stringify({ operation: 'v4-basic-details', params: { identifier } });

function statusOf(result: LookupResult): number {
  if (result.kind === 'answer') return 200;
  if (result.kind === 'problem') return result.problem.problem.status;
  throw result.error;
}

describe('an audited lookup', () => {
  it('writes its intent before the platform is asked, and its outcome before the answer leaves', async () => {
    const { store, sent, service } = setUp(await memoryDatabase());
    const result = await service.run({ user: 'alice', requestId: 'req-1', body: basicDetails() });

    expect(statusOf(result)).toBe(200);
    expect(sent).toEqual([{ recordsBefore: 1 }]);
    const [record] = (await store.list({ limit: 10 })).items;
    expect(record).toMatchObject({
      user: 'alice',
      operation: 'v4-basic-details',
      outcome: 'ok',
      status: 200,
      identifierHashed: true,
      completed: true,
      recordCount: 1,
    });
    // The identifier is kept only as its keyed hash.
    expect(JSON.stringify(record)).not.toContain(ADA);
  });

  it('accounts for a lookup the platform answers with "not found"', async () => {
    const { store, service } = setUp(await memoryDatabase(), 404, '"Data Subject Not Found"');
    const result = await service.run({ user: 'alice', requestId: null, body: basicDetails() });

    expect(statusOf(result)).toBe(404);
    expect((await store.list({ limit: 10 })).items).toMatchObject([
      { outcome: 'not-found', status: 404, detail: DATA_SUBJECT_PROBLEM_TYPES.notFound },
    ]);
  });

  it('accounts for a refused request without asking the platform', async () => {
    const { store, sent, service } = setUp(await memoryDatabase());
    const result = await service.run({ user: 'bob', requestId: null, body: '{"operation":' });

    expect(statusOf(result)).toBe(400);
    expect(sent).toEqual([]);
    expect((await store.list({ limit: 10 })).items).toMatchObject([
      { user: 'bob', operation: 'unknown', outcome: 'invalid', status: 400 },
    ]);
  });

  it('sends nothing when the trail cannot take the intent', async () => {
    const { sent, service } = setUp(failingDatabase('database or disk is full'));
    const result = await service.run({ user: 'alice', requestId: null, body: basicDetails() });

    expect(result).toMatchObject({
      kind: 'problem',
      problem: { problem: { status: 503, type: DATA_SUBJECT_PROBLEM_TYPES.auditUnavailable } },
    });
    expect(sent).toEqual([]);
  });
});
