// "Who saw this person's data?" through the BFF against the real mock: a search by identifier
// finds the single lookups and every listing page (load-more pages included) that showed the
// person, normalised the way the platform matches identifiers; nothing is sent upstream unless
// its intent could be recorded (a read-only or full store: 0 upstream requests, a 503 that says
// why, and /readyz and /api/health say so); signed exports; support users get 403 on all of it.
import { createHash, createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuditExportSignatureSchema,
  AuditIntegritySchema,
  AuditSearchPageSchema,
  normalizeIdentifier,
} from '../../../shared/audit-trail';
import { DEMO_IDENTIFIERS } from '../../../shared/data-subject-demo';
import { LookupResponseSchema } from '../../../shared/data-subject-lookups';
import { DATA_SUBJECT_PROBLEM_TYPES } from '../../../shared/data-subject-operations';
import { ConsoleHealthSchema } from '../../../shared/console-health';
import { checkExport } from './export-signing';
import { AUDIT_PROBE_INTERVAL_MS } from './lookup-audit-writer';
import { openDatabase, type SqlDatabase } from '../../store/database';
import { startBffHarness, type BffHarness } from '../../test-support/bff-harness';
import * as z from 'zod';
import { integer, select } from '../../store/typed-rows';
import { withPurpose } from '../../test-support/lookup-purpose';

const [ADA] = DEMO_IDENTIFIERS;
const KEY = 'a-test-audit-key-of-at-least-32-characters';

let harness: BffHarness | undefined;
let database: SqlDatabase | undefined;
afterEach(async () => {
  await harness?.close();
  await database?.close();
  harness = undefined;
  database = undefined;
});

/** The BFF's clock, moved by the tests that wait for something (readiness's probe). */
let clockOffset = 0;
const now = () => Date.now() + clockOffset;

async function start() {
  clockOffset = 0;
  database = await openDatabase();
  harness = await startBffHarness({ env: { AUDIT_KEY: KEY }, database, now });
  return harness;
}

function post(h: BffHarness, path: string, body: unknown, as: 'admin' | 'support' = 'admin') {
  return h.request(
    path,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    },
    { as },
  );
}

const lookup = (h: BffHarness, body: unknown, as: 'admin' | 'support' = 'admin') =>
  post(h, '/api/data-subjects/lookups', withPurpose(body), as);

async function search(h: BffHarness, identifier: string) {
  const response = await post(h, '/api/audit-trail/search', { identifier });
  expect(response.status).toBe(200);
  return AuditSearchPageSchema.parse(await response.json());
}

/**
 * Fills the database to its page limit with audit records, as a full disk would: the next record
 * needs a page the store cannot have, and fails with SQLITE_FULL.
 */
async function fillDatabase(db: SqlDatabase, h: BffHarness) {
  const { rows } = await select(db, z.object({ page_count: integer }), 'PRAGMA page_count');
  await db.exec(`PRAGMA max_page_count = ${rows[0]!.page_count + 4}`);
  // Large rows first, then small ones into the space left in partly filled pages: full means no
  // intent of any size fits any more.
  for (const size of [500, 40, 0]) {
    let filled = false;
    for (let i = 0; i < 5_000 && !filled; i += 1) {
      try {
        await h.audit.records.begin({
          at: Date.now(),
          connection: 'default',
          user: 'filler',
          operation: 'v4-details',
          identifierHash: null,
          keyId: 'k',
          continued: false,
          requestId: 'x'.repeat(size),
        });
      } catch (error) {
        expect(String(error)).toMatch(/full/);
        filled = true;
      }
    }
    if (!filled) throw new Error('the database never filled up');
  }
}

const dataSubjectRequests = (h: BffHarness) => h.mock.dataSubjects.received().length;

describe('a search by identifier', () => {
  it('finds every single lookup and every listing page that showed the person', async () => {
    const h = await start();
    // Lookups and listing pages, and which of them showed Ada (as the browser received them).
    const showedAda: boolean[] = [];
    const run = async (body: Record<string, unknown>) => {
      const response = await lookup(h, body);
      expect(response.status).toBe(200);
      const answer = LookupResponseSchema.parse(await response.json());
      showedAda.push(JSON.stringify(answer.data).toLowerCase().includes(ADA));
      return answer;
    };
    await run({ operation: 'v4-details', params: { identifier: ADA } });
    await run({ operation: 'v4-basic-details', params: { identifier: DEMO_IDENTIFIERS[1] } });
    // The platform bounds both date listings to 7 days.
    const range = {
      fromDate: new Date(Date.now() - 6 * 86_400_000).toISOString(),
      toDate: new Date().toISOString(),
    };
    await run({ operation: 'v4-data-subjects', params: { ...range, size: '50' } });
    let continuation: string | undefined;
    let pages = 0;
    do {
      const answer = await run({
        operation: 'v4-link-tokens',
        params: { ...range, size: '10' },
        ...(continuation ? { continuation } : {}),
      });
      continuation = answer.continuation;
      pages += 1;
    } while (continuation && pages < 20);
    expect(pages).toBeGreaterThan(2);
    // Ada is on one load-more page of the token listing, not on all of them.
    expect(showedAda.filter(Boolean).length).toBeGreaterThanOrEqual(3);
    expect(showedAda.filter((shown) => !shown).length).toBeGreaterThanOrEqual(2);

    const found = await search(h, ADA);
    expect(found.items).toHaveLength(showedAda.filter(Boolean).length);
    expect(found.match).toEqual({ rule: 'email', forms: 1 });
    const tokenPages = found.items.filter((item) => item.operation === 'v4-link-tokens');
    expect(tokenPages.length).toBeGreaterThanOrEqual(1);
    expect(
      tokenPages.every((item) => item.matchedBy === 'shown' && item.identifierHashed === false),
    ).toBe(true);
    // A page of the listing records its date range and how many records it held.
    expect(tokenPages[0]?.params?.map((param) => param.name).sort()).toEqual([
      'fromDate',
      'size',
      'toDate',
    ]);
    expect(tokenPages[0]?.recordCount).toBeGreaterThan(0);
    const details = found.items.find((item) => item.operation === 'v4-details');
    expect(details).toMatchObject({
      matchedBy: 'both',
      recordCount: 1,
      // One person, though shown under several keys (identifier, data-subject id, link token).
      subjectCount: 1,
      params: [{ name: 'identifier', hashed: true }],
    });
    // The data-subject listing asked for nobody in particular and showed Ada among others.
    expect(found.items.find((item) => item.operation === 'v4-data-subjects')).toMatchObject({
      matchedBy: 'shown',
      identifierHashed: false,
    });
    // Never an identifier in the answer.
    expect(JSON.stringify(found)).not.toMatch(/lovelace|hopper|turing/);
  });

  it('finds every sight of the person under any key: legacy listings, data-subject ids, link tokens', async () => {
    const h = await start();
    const run = async (body: Record<string, unknown>) => {
      const response = await lookup(h, body);
      expect(response.status).toBe(200);
      return LookupResponseSchema.parse(await response.json());
    };
    // Basic details show Ada's identifier with her data-subject id: the trail links them.
    const basic = await run({ operation: 'v4-basic-details', params: { identifier: ADA } });
    const subjectId = (basic.data as { id: string }).id;
    expect(subjectId).toMatch(/^[0-9a-f-]{36}$/);
    // The legacy token listing (as "Compare with legacy" runs it) shows her by id and token only.
    const legacy = await run({ operation: 'v1-link-tokens', params: { size: '50' } });
    const row = (
      legacy.data as { content: Array<{ DataSubjectId: string; LinkToken: string }> }
    ).content.find((token) => token.DataSubjectId === subjectId);
    expect(row, 'Ada is on the first page of the legacy listing').toBeDefined();
    expect(JSON.stringify(legacy.data).toLowerCase()).not.toContain(ADA);

    const byEmail = await search(h, ADA);
    expect(byEmail.items.map((item) => item.operation).sort()).toEqual([
      'v1-link-tokens',
      'v4-basic-details',
    ]);
    expect(byEmail.items.find((item) => item.operation === 'v1-link-tokens')).toMatchObject({
      // It never showed the e-mail address: it matched only through her other keys.
      matchedBy: 'linked',
      // Her id, and the token the listing showed with it.
      matchedKeys: expect.arrayContaining(['subject-id', 'link-token']),
      matchedThroughLink: true,
    });
    expect(byEmail.items.find((item) => item.operation === 'v4-basic-details')).toMatchObject({
      matchedBy: 'both',
      matchedThroughLink: false,
    });
    // Her data-subject id, as shown on screen (in either case), finds both lookups too.
    for (const typed of [subjectId, subjectId.toUpperCase()]) {
      const byId = await search(h, typed);
      expect(byId.items.map((item) => item.operation).sort(), typed).toEqual([
        'v1-link-tokens',
        'v4-basic-details',
      ]);
      expect(byId.items.find((item) => item.operation === 'v1-link-tokens')).toMatchObject({
        matchedKeys: expect.arrayContaining(['subject-id']),
        matchedThroughLink: false,
      });
    }
    // Her link token finds the listing that showed it, and through it the rest.
    const byToken = await search(h, row!.LinkToken);
    expect(byToken.items.find((item) => item.operation === 'v1-link-tokens')).toMatchObject({
      matchedKeys: expect.arrayContaining(['link-token']),
      matchedThroughLink: false,
    });
    expect(byToken.items).toHaveLength(2);
    expect(JSON.stringify(byToken)).not.toContain(subjectId);
  });

  it('matches e-mail addresses without regard to case, says so, and still finds older records', async () => {
    const h = await start();
    await lookup(h, {
      operation: 'v4-details',
      params: { identifier: 'Ada.Lovelace@Example.COM' },
    });
    for (const typed of [ADA, ' ADA.LOVELACE@example.com ', 'Ada.Lovelace@Example.COM']) {
      expect((await search(h, typed)).items, typed).toHaveLength(1);
    }
    // A record hashed before normalisation, as typed then: found by that spelling.
    const legacy = createHmac('sha256', KEY)
      .update(normalizeIdentifier('Ada.LOVELACE@example.com'))
      .digest('hex');
    await h.audit.records.record({
      at: Date.now(),
      connection: 'default',
      user: 'admin',
      operation: 'v4-details',
      outcome: 'ok',
      status: 200,
      detail: null,
      identifierHash: legacy,
      keyId: 'older',
      continued: false,
      requestId: null,
    });
    const both = await search(h, 'Ada.LOVELACE@example.com');
    expect(both.items).toHaveLength(2);
    expect(both.match).toEqual({ rule: 'email', forms: 2 });
    // Other identifiers are matched exactly.
    await lookup(h, { operation: 'v4-details', params: { identifier: 'CUST-42' } });
    expect((await search(h, 'CUST-42')).items).toHaveLength(1);
    expect((await search(h, 'cust-42')).items).toHaveLength(0);
    expect((await search(h, 'cust-42')).match.rule).toBe('exact');
  });

  it('refuses an empty or over-long identifier with a clear 400', async () => {
    const h = await start();
    for (const [identifier, message] of [
      ['', /must not be empty/],
      ['   ', /must not be empty/],
      ['x'.repeat(257), /longer than 256 characters/],
    ] as const) {
      const response = await post(h, '/api/audit-trail/search', { identifier });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      const problem = (await response.json()) as { detail: string };
      expect(problem.detail).toMatch(message);
    }
    const exported = await post(h, '/api/audit-trail/export', { format: 'csv', identifier: '' });
    expect(exported.status).toBe(400);
  });

  it('gives support users 403 on all of it, and records nothing as seen', async () => {
    const h = await start();
    const attempts = [
      post(h, '/api/audit-trail/search', { identifier: ADA }, 'support'),
      post(h, '/api/audit-trail/export', { format: 'csv' }, 'support'),
      post(h, '/api/audit-trail/verify', {}, 'support'),
      h.request('/api/audit-trail/integrity', {}, { as: 'support' }),
      h.request(
        '/api/audit-trail/exports/00000000-0000-4000-8000-000000000000/signature',
        {},
        { as: 'support' },
      ),
      lookup(h, { operation: 'v4-details', params: { identifier: ADA } }, 'support'),
    ];
    for (const response of await Promise.all(attempts)) expect(response.status).toBe(403);
    expect(dataSubjectRequests(h)).toBe(0);
    expect((await h.audit.search.list({ limit: 10 })).items).toEqual([]);
  });
});

describe('nothing personal goes upstream unless it can be audited', () => {
  for (const [store, setup] of [
    ['read-only', 'PRAGMA query_only = 1'],
    ['full', 'FILL'],
  ] as const) {
    it(`sends nothing when the store is ${store}, answers 503 saying why, and readiness says so`, async () => {
      const h = await start();
      // Warm the token so the only thing failing is the store.
      expect((await h.request('/readyz')).status).toBe(200);
      if (setup === 'FILL') await fillDatabase(database!, h);
      else await database!.exec(setup);
      for (let i = 0; i < 5; i += 1) {
        const response = await lookup(h, { operation: 'v4-details', params: { identifier: ADA } });
        expect(response.status).toBe(503);
        const problem = (await response.json()) as { type: string; detail: string };
        expect(problem.type).toBe(DATA_SUBJECT_PROBLEM_TYPES.auditUnavailable);
        expect(problem.detail).toMatch(/nothing was sent/);
      }
      expect(dataSubjectRequests(h)).toBe(0);
      const ready = await h.request('/readyz');
      expect(ready.status).toBe(503);
      expect(
        ((await ready.json()) as { checks: { auditWrites: { ok: boolean } } }).checks.auditWrites
          .ok,
      ).toBe(false);
      const health = ConsoleHealthSchema.parse(await (await h.request('/api/health')).json());
      expect(health.audit).toBe('failing');

      // The store takes writes again: readiness recovers without waiting for a lookup.
      await database!.exec(
        store === 'read-only' ? 'PRAGMA query_only = 0' : 'PRAGMA max_page_count = 1000000',
      );
      clockOffset += AUDIT_PROBE_INTERVAL_MS;
      const recovered = await h.request('/readyz');
      expect(recovered.status, await recovered.clone().text()).toBe(200);
      expect(
        (await lookup(h, { operation: 'v4-details', params: { identifier: ADA } })).status,
      ).toBe(200);
      expect(dataSubjectRequests(h)).toBe(1);
    });
  }
});

describe('signed exports', () => {
  async function exportOf(h: BffHarness, body: unknown) {
    const response = await post(h, '/api/audit-trail/export', body);
    expect(response.status).toBe(200);
    const id = response.headers.get('x-export-id')!;
    const bytes = Buffer.from(await response.arrayBuffer());
    const signed = await h.request(`/api/audit-trail/exports/${id}/signature`);
    expect(signed.status).toBe(200);
    return { response, bytes, signature: AuditExportSignatureSchema.parse(await signed.json()) };
  }
  const digest = (bytes: Buffer) => ({
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
  });

  it('exports a search as CSV and a filter as JSON, each with a signature that verifies', async () => {
    const h = await start();
    await lookup(h, { operation: 'v4-details', params: { identifier: ADA } });
    await lookup(h, { operation: 'v4-details', params: { identifier: DEMO_IDENTIFIERS[1] } });

    const csv = await exportOf(h, { format: 'csv', identifier: 'ADA.Lovelace@example.com' });
    expect(csv.response.headers.get('content-type')).toContain('text/csv');
    const lines = csv.bytes.toString('utf8').trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^id,at,user,operation,outcome/);
    expect(csv.signature).toMatchObject({ algorithm: 'Ed25519', format: 'csv', records: 1 });
    expect(checkExport(csv.signature, digest(csv.bytes))).toEqual({ ok: true, reasons: [] });
    expect(csv.bytes.toString('utf8')).not.toMatch(/lovelace/i);

    const json = await exportOf(h, { format: 'json', filters: { operation: 'v4-details' } });
    const parsed = JSON.parse(json.bytes.toString('utf8')) as { records: unknown[]; count: number };
    expect(parsed.records).toHaveLength(2);
    expect(parsed.count).toBe(2);
    expect(json.signature.scope).toBe('filters: operation v4-details');
    expect(checkExport(json.signature, digest(json.bytes)).ok).toBe(true);

    // One changed byte, or a signature from another key, and the check fails.
    const tampered = Buffer.from(json.bytes);
    tampered[tampered.length - 3] = 0x39;
    expect(checkExport(json.signature, digest(tampered)).ok).toBe(false);
    const forgedScope = { ...json.signature, scope: 'the whole trail' };
    expect(checkExport(forgedScope, digest(json.bytes)).reasons).toContain(
      'the Ed25519 signature over the manifest does not hold',
    );
  });

  it('refuses an export over the configured maximum before anything is streamed', async () => {
    database = await openDatabase();
    const h = (harness = await startBffHarness({
      env: { AUDIT_KEY: KEY, AUDIT_EXPORT_MAX_RECORDS: '1' },
      database,
    }));
    await lookup(h, { operation: 'v4-details', params: { identifier: ADA } });
    await lookup(h, { operation: 'v4-details', params: { identifier: ADA } });
    const response = await post(h, '/api/audit-trail/export', { format: 'json' });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { detail: string }).detail).toMatch(
      /2 records match; an export holds at most 1 \(AUDIT_EXPORT_MAX_RECORDS\)/,
    );
  });

  it('keeps each export’s signature to the admin who made it', async () => {
    const h = await start();
    const response = await post(h, '/api/audit-trail/export', { format: 'csv' });
    const id = response.headers.get('x-export-id');
    await response.arrayBuffer();
    expect((await h.request(`/api/audit-trail/exports/${id}/signature`)).status).toBe(200);
    expect(
      (await h.request('/api/audit-trail/exports/00000000-0000-4000-8000-000000000000/signature'))
        .status,
    ).toBe(404);
  });
});

describe('the trail’s integrity', () => {
  it('shows when the chain was last verified, and finds a record changed behind its back', async () => {
    const h = await start();
    await lookup(h, { operation: 'v4-details', params: { identifier: ADA } });
    const before = AuditIntegritySchema.parse(
      await (await h.request('/api/audit-trail/integrity')).json(),
    );
    expect(before.lastVerification).toBeNull();
    expect(before.retention.days).toBe(730);

    const verified = await post(h, '/api/audit-trail/verify', {});
    // The lookup's intent and outcome, the admin's sign-in and the verification itself: changes
    // are chained beside lookups.
    expect(await verified.json()).toMatchObject({ ok: true, entries: 4 });
    const after = AuditIntegritySchema.parse(
      await (await h.request('/api/audit-trail/integrity')).json(),
    );
    expect(after.lastVerification).toMatchObject({
      ok: true,
      entries: 4,
      source: 'admin on the audit page',
    });

    await database!.query(`UPDATE lookup_audit SET username = 'someone-else'`);
    const broken = await post(h, '/api/audit-trail/verify', {});
    // Entry 1 is the sign-in; the lookup's intent, the first entry naming the user, is entry 2.
    expect(await broken.json()).toMatchObject({ ok: false, brokenAt: 2 });
  });
});
