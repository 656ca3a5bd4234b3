// Who saw this person, when answers carry fields the platform contract does not mark as a
// person's key: a value two people share there (a form's name) must not make them one person, a
// lookup found through a link says so rather than "asked for", and a search that stops at its link
// bound says it was cut short.
import { afterEach, describe, expect, it } from 'vitest';
import { AuditExportSignatureSchema, AuditSearchPageSchema } from '../../../shared/audit-trail';
import { answerSchemaOf } from '../../../shared/data-subject-lookups';
import { startBffHarness, type BffHarness } from '../../test-support/bff-harness';
import { createIdentifierHasher } from './identifier-hash';
import { LookupAudit } from './lookup-audit-writer';

const KEY = 'a-test-audit-key-of-at-least-32-characters';
const ALICE = { id: '0b9d6f1e-4a53-4c8e-9a51-0f7c1d2e3a41', identifier: 'alice@example.com' };
const BOB = { id: '7c2e9a40-1b6d-4f3a-8e27-5d9c0b1a2f63', identifier: 'bob@example.com' };

let harness: BffHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start() {
  harness = await startBffHarness({ env: { AUDIT_KEY: KEY } });
  const audit = new LookupAudit(
    harness.audit.records,
    harness.auditEvidence,
    createIdentifierHasher(KEY),
    Date.now,
  );
  /**
   * Records a lookup of `operation` (its contract schema) that answered `answer`, made in the
   * platform connection `connection` (the default one when not given).
   */
  const looked = (
    operation: string,
    operationId: string,
    answer: unknown,
    identifier?: string,
    connection?: string,
  ) =>
    audit.record({
      ...(connection ? { connection } : {}),
      user: 'admin',
      operation,
      outcome: 'ok',
      status: 200,
      detail: null,
      identifier,
      continued: false,
      requestId: null,
      ...(identifier ? { params: { identifier } } : {}),
      answer,
      answerSchema: answerSchemaOf({ operationId }),
    });
  const search = async (identifier: string) => {
    const response = await harness!.request('/api/audit-trail/search', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier }),
    });
    expect(response.status).toBe(200);
    return AuditSearchPageSchema.parse(await response.json());
  };
  /** The signed scope of an export of the search for `identifier`. */
  const exportedScope = async (identifier: string) => {
    const response = await harness!.request('/api/audit-trail/export', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ format: 'json', identifier }),
    });
    expect(response.status).toBe(200);
    await response.text();
    const id = response.headers.get('x-export-id');
    const signature = await harness!.request(`/api/audit-trail/exports/${id}/signature`);
    return AuditExportSignatureSchema.parse(await signature.json()).scope;
  };
  return { looked, search, exportedScope };
}

/** A v4 data subject as the platform shows it, with a field the contract does not name. */
const subject = (person: typeof ALICE) => ({
  ...person,
  identifierType: 'Email',
  sourceIdentifier: 'web-form',
});

describe('person links', () => {
  it('find the person’s sights in every connection, each naming its own', async () => {
    const { looked, search } = await start();
    await looked('v4-basic-details', 'getDataSubjectBasicDetailsV4', subject(ALICE), ALICE.id);
    await looked(
      'v4-data-subjects',
      'getDataSubjectsV4',
      { content: [ALICE], number: 0 },
      undefined,
      'uat',
    );

    const found = await search(ALICE.identifier.toUpperCase());
    expect(found.items.map((item) => [item.operation, item.connection])).toEqual([
      ['v4-data-subjects', 'uat'],
      ['v4-basic-details', 'default'],
    ]);
  });

  it('come only from the fields the contract marks as a person’s keys', async () => {
    const { looked, search } = await start();
    await looked('v4-basic-details', 'getDataSubjectBasicDetailsV4', subject(BOB), BOB.identifier);
    await looked('v4-data-subjects', 'getDataSubjectsV4', {
      content: [subject(ALICE), subject(BOB)],
      number: 0,
      size: 50,
    });

    const found = await search(ALICE.identifier);
    // The listing showed Alice; Bob's lookup never did.
    expect(found.items.map((item) => item.operation)).toEqual(['v4-data-subjects']);
    expect(found.items[0]).toMatchObject({ matchedBy: 'shown', matchedThroughLink: false });
    // Bob's lookup showed one person, not two.
    const bob = await search(BOB.identifier);
    expect(bob.items.find((item) => item.operation === 'v4-basic-details')).toMatchObject({
      subjectCount: 1,
      matchedBy: 'both',
    });
  });

  it('labels a match through another key as linked, never as the key asked for', async () => {
    const { looked, search } = await start();
    // A lookup asked by Alice's data-subject id; another showed her id with her e-mail.
    await looked('v4-basic-details', 'getDataSubjectBasicDetailsV4', { id: ALICE.id }, ALICE.id);
    await looked('v4-data-subjects', 'getDataSubjectsV4', { content: [ALICE], number: 0 });

    const found = await search(ALICE.identifier);
    const byId = found.items.find((item) => item.operation === 'v4-basic-details');
    expect(byId).toMatchObject({
      matchedBy: 'linked',
      matchedKeys: ['subject-id'],
      matchedThroughLink: true,
    });
    expect(found.items.find((item) => item.operation === 'v4-data-subjects')).toMatchObject({
      matchedBy: 'shown',
      matchedKeys: ['identifier'],
      matchedThroughLink: false,
    });
    expect(found.links).toEqual({ keys: 2, max: 64, complete: true });
  });

  it('says when the search reached its bound of 64 linked keys', async () => {
    const { looked, search, exportedScope } = await start();
    // One listing row shows Alice with 80 link tokens: one person, more keys than the bound.
    const tokens = Array.from({ length: 80 }, (_, index) => ({
      token: `token-${index}`,
      identifier: ALICE.identifier,
    }));
    await looked('v4-link-tokens', 'getEmailLinkTokensListV4', { content: tokens, number: 0 });

    const found = await search(ALICE.identifier);
    expect(found.items).toHaveLength(1);
    expect(found.links).toEqual({ keys: 64, max: 64, complete: false });
    // An export of the search says so in its signed scope.
    expect(await exportedScope(ALICE.identifier)).toMatch(
      /the search stopped at its bound of 64 linked keys/,
    );
  });
});
