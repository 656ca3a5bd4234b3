// A lookup's purpose through the BFF against the real mock: with LOOKUP_PURPOSE=required (the
// default) a lookup without one, or with a faulty one, is a 400 naming the field, nothing is sent
// and nothing is recorded; a stated purpose is kept with the lookup and found again by its
// reference; the SPA learns the mode and the categories from /api/meta.
import { describe, expect, it } from 'vitest';
import { DEMO_IDENTIFIERS } from '../../shared/data-subject-demo';
import { AuditPageSchema, type AuditRecord } from '../../shared/audit-trail';
import { ConsoleMetaSchema } from '../../shared/console-meta';
import type { BffHarness } from '../test-support/bff-harness';
import { harnessPerTest } from '../test-support/harness-per-test';

const ADA = DEMO_IDENTIFIERS[0];
const start = harnessPerTest();
/** A console as configured by default: LOOKUP_PURPOSE=required. */
const required = () => start();

function lookUpAda(h: BffHarness, purpose?: unknown) {
  return h.request('/api/data-subjects/lookups', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      operation: 'v4-details',
      params: { identifier: ADA },
      ...(purpose === undefined ? {} : { purpose }),
    }),
  });
}

async function trail(h: BffHarness, query = ''): Promise<AuditRecord[]> {
  const response = await h.request(`/api/audit-trail?limit=200${query}`);
  expect(response.status).toBe(200);
  return AuditPageSchema.parse(await response.json()).items;
}

describe('a lookup’s purpose', () => {
  it.each([
    ['missing', undefined, 'purpose'],
    [
      'of an unknown category',
      { category: 'curiosity', reference: 'DSAR-2291' },
      'purpose.category',
    ],
    ['without a reference', { category: 'access request', reference: ' ' }, 'purpose.reference'],
    ['too long', { category: 'access request', reference: 'D'.repeat(81) }, 'purpose.reference'],
    ['the identifier', { category: 'access request', reference: ADA }, 'purpose.reference'],
    ['an e-mail', { category: 'complaint', reference: 'see bob@example.org' }, 'purpose.reference'],
  ])(
    'refuses a purpose %s with a 400 naming the field, sending and recording nothing',
    async (_, purpose, field) => {
      const h = await required();
      const response = await lookUpAda(h, purpose);
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { parameter?: string; errors?: object };
      expect(problem.parameter).toBe(field);
      expect(h.mock.dataSubjects.received()).toEqual([]);
      expect(await trail(h)).toEqual([]);
    },
  );

  it('says a reference must not be personal data', async () => {
    const h = await required();
    const response = await lookUpAda(h, { category: 'access request', reference: ADA });
    expect(JSON.stringify(await response.json())).toContain('must not be personal data');
  });

  it('keeps a stated purpose with the lookup and finds it by reference and category', async () => {
    const h = await required();
    const purpose = { category: 'access request', reference: 'DSAR-2291' };
    expect((await lookUpAda(h, purpose)).status).toBe(200);
    expect((await lookUpAda(h, { category: 'complaint', reference: 'CASE-7' })).status).toBe(200);
    expect((await trail(h, '&reference=dsar-2291')).map((record) => record.purpose)).toEqual([
      purpose,
    ]);
    expect((await trail(h, '&category=complaint')).map((record) => record.purpose)).toEqual([
      { category: 'complaint', reference: 'CASE-7' },
    ]);
  });

  it('tells the SPA the mode and the categories to offer', async () => {
    const h = await start({ env: { LOOKUP_PURPOSE_CATEGORIES: 'access request, legal hold' } });
    const meta = ConsoleMetaSchema.parse(await (await h.request('/api/meta')).json());
    expect(meta.lookupPurpose).toEqual({
      mode: 'required',
      categories: ['access request', 'legal hold'],
    });
  });

  it('with LOOKUP_PURPOSE=optional, looks up without one and shows none recorded', async () => {
    const h = await start({ env: { LOOKUP_PURPOSE: 'optional' } });
    expect((await lookUpAda(h)).status).toBe(200);
    expect((await trail(h)).map((record) => record.purpose)).toEqual([null]);
  });
});
