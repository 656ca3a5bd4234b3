// The audited lookup on its own, without HTTP, over the real audit store (SQLite in memory): a
// lookup that is answered leaves its intent in the trail before anything is sent and its outcome
// after; an upstream failure is accounted for as a failed lookup and handed back as its problem;
// a trail that refuses the intent refuses the lookup before anything is sent.
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerLookup } from '../../mocks/data/data-subject-answers';
import { anchorDay, generateDataSubjects } from '../../mocks/data/data-subjects';
import type { AuditRecord } from '../../shared/audit-trail';
import { DEMO_IDENTIFIERS } from '../../shared/data-subject-demo';
import {
  BUILT_IN_OPERATIONS,
  DATA_SUBJECT_PROBLEM_TYPES,
} from '../../shared/data-subject-operations';
import { PROBLEM_TYPES } from '../../shared/problem';
import { createLogger } from '../observability/logger';
import { HttpProblem } from '../http/problem';
import { STORE_ENGINES, type TestDatabase } from '../test-support/store-engines';
import { TransportError, type TransportResponse } from '../upstream/http-transport';
import type { UpstreamClient } from '../upstream/upstream-client';
import { deriveAuditKey } from './audit/audit-chain';
import { AuditEvidenceStore } from './audit/audit-evidence-store';
import { openAuditTrailStores, type AuditTrailStores } from './audit/audit-trail-stores';
import { createIdentifierHasher } from './audit/identifier-hash';
import { LookupAudit } from './audit/lookup-audit-writer';
import { AuditedLookups, AuditUnavailableError } from './lookup-use-case';
import { DataSubjectLookups } from './data-subject-lookups';
import { invalidLookupProblem } from './data-subject-lookups';

const NOW = Date.parse('2026-03-15T12:00:00Z');
const ADA = DEMO_IDENTIFIERS[0];
const AUDIT_KEY = 'an-audit-key-of-at-least-32-characters!!';
const SQLITE = STORE_ENGINES.find((engine) => engine.name === 'SQLite')!;
const ASKER = { user: 'admin', requestId: 'req-1', identifier: ADA };
const DETAILS = { operation: 'v4-details', params: { identifier: ADA } };

describe('the audited lookup, without HTTP', () => {
  let db: TestDatabase;
  let stores: AuditTrailStores;
  let sent: number;
  /** What the trail held each time the upstream was called. */
  let trailWhenSent: AuditRecord[][];
  let upstream: (() => Promise<TransportResponse>) | undefined;
  let logged: string[];

  const trail = async () => (await stores.search.list({ limit: 50 })).items;

  function service() {
    const client = {
      send: async () => {
        sent += 1;
        trailWhenSent.push(await trail());
        return upstream!();
      },
    } as unknown as UpstreamClient;
    const lookups = new DataSubjectLookups({
      operations: BUILT_IN_OPERATIONS,
      upstream: client,
      now: () => NOW,
    });
    const audit = new LookupAudit(
      stores.records,
      new AuditEvidenceStore(db),
      createIdentifierHasher(AUDIT_KEY),
      () => NOW,
    );
    const destination = new Writable({
      write(chunk, _encoding, done) {
        logged.push(String(chunk));
        done();
      },
    });
    return new AuditedLookups({
      connection: 'default',
      lookups,
      audit,
      logger: createLogger('info', destination),
    });
  }

  beforeEach(async () => {
    db = await SQLITE.open();
    stores = openAuditTrailStores(db, { chainKey: deriveAuditKey(AUDIT_KEY, 'chain') });
    sent = 0;
    trailWhenSent = [];
    upstream = undefined;
    logged = [];
  });
  afterEach(() => db.close());

  it('writes the intent before sending, then completes it with the outcome and the answer', async () => {
    const answer = answerLookup('v4-details', generateDataSubjects(anchorDay(NOW)), {
      identifier: ADA,
    });
    upstream = async () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify((answer as { body: unknown }).body),
    });

    const shown = await service().lookUp({ ...ASKER, request: DETAILS });

    expect(shown).toMatchObject({ operation: 'v4-details', data: { identifier: ADA } });
    expect(sent).toBe(1);
    expect(trailWhenSent[0]).toEqual([
      expect.objectContaining({
        user: 'admin',
        operation: 'v4-details',
        status: 0,
        completed: false,
        identifierHashed: true,
      }),
    ]);
    const [record] = await trail();
    expect(await trail()).toHaveLength(1);
    expect(record).toMatchObject({
      id: trailWhenSent[0]![0]!.id,
      outcome: 'ok',
      status: 200,
      detail: null,
      completed: true,
      recordCount: 1,
      params: [{ name: 'identifier', hashed: true }],
    });
    expect(record!.subjectCount).toBeGreaterThan(0);
    expect(JSON.stringify(await trail())).not.toContain(ADA);
  });

  it('accounts for an upstream that cannot be reached as a failed lookup, and throws its problem', async () => {
    upstream = () => Promise.reject(new TransportError('timeout', new Error('timed out')));

    const failure = await service()
      .lookUp({ ...ASKER, request: DETAILS })
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(HttpProblem);
    expect((failure as HttpProblem).problem).toMatchObject({
      type: PROBLEM_TYPES.upstreamTimeout,
      status: 504,
    });
    expect(trailWhenSent[0]).toHaveLength(1);
    expect(await trail()).toEqual([
      expect.objectContaining({
        id: trailWhenSent[0]![0]!.id,
        operation: 'v4-details',
        outcome: 'error',
        status: 504,
        detail: PROBLEM_TYPES.upstreamTimeout,
        completed: true,
      }),
    ]);
  });

  it('accounts for a platform that knows no such subject as not found', async () => {
    upstream = async () => ({
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify('Data Subject Not Found'),
    });

    const failure = await service()
      .lookUp({ ...ASKER, request: DETAILS })
      .catch((error: unknown) => error);

    expect((failure as HttpProblem).problem.type).toBe(DATA_SUBJECT_PROBLEM_TYPES.notFound);
    expect(await trail()).toEqual([
      expect.objectContaining({ outcome: 'not-found', status: 404, completed: true }),
    ]);
  });

  it('refuses the lookup before sending anything when the trail cannot take its intent', async () => {
    // The store's own table refuses the write, as a full or read-only disk would.
    await db.exec(`CREATE TRIGGER refuse_audit BEFORE INSERT ON lookup_audit
      BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
    upstream = () => Promise.reject(new Error('must not be sent'));

    const failure = await service()
      .lookUp({ ...ASKER, request: DETAILS })
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(AuditUnavailableError);
    expect(failure).toMatchObject({ stage: 'intent', operation: 'v4-details' });
    expect(sent).toBe(0);
    expect(await trail()).toEqual([]);
    expect(logged.join('')).toContain('nothing sent');
    expect(logged.join('')).not.toContain(ADA);
  });

  it('accounts for an invalid request without sending, and throws its 400', async () => {
    const invalid = invalidLookupProblem({ body: 'must be a JSON object' });

    const failure = await service()
      .lookUp({ ...ASKER, identifier: undefined, invalid })
      .catch((error: unknown) => error);

    expect(failure).toBe(invalid);
    expect(sent).toBe(0);
    expect(await trail()).toEqual([
      expect.objectContaining({
        operation: 'unknown',
        outcome: 'invalid',
        status: 400,
        identifierHashed: false,
        completed: true,
      }),
    ]);
  });
});
