// A trail with known accountability figures, for the store's and the routes' tests: lookups of
// two people with and without purposes, by a person and by a token, a list that names no one,
// administrative changes, and entries just outside the period that must not be counted.
import type { AuditRecordStore } from '../data-subjects/audit/audit-record-store';
import { sampleAuditEntry } from './audit-entry';

const DAY = 24 * 60 * 60 * 1000;

/** The period the seeded trail is reported on: November 2026, UTC. */
export const SEEDED_PERIOD = {
  since: Date.UTC(2026, 10, 1),
  until: Date.UTC(2026, 11, 1),
} as const;

const PERSON_A = 'a'.repeat(64);
const PERSON_B = 'b'.repeat(64);

/** Writes the trail into `store`. */
export async function seedAccountabilityTrail(
  store: Pick<AuditRecordStore, 'record' | 'recordChange'>,
): Promise<void> {
  const at = (days: number) => SEEDED_PERIOD.since + days * DAY;
  const access = (reference: string) => ({ category: 'access request', reference });
  // Before the period, and at its very end (excluded): neither is counted.
  await store.record(sampleAuditEntry(SEEDED_PERIOD.since - 1, { purpose: access('DSAR-0') }));
  await store.record(
    sampleAuditEntry(SEEDED_PERIOD.until, { identifierHash: 'c'.repeat(64), user: 'carol' }),
  );
  // In the period: alice looks A up three times under two spellings of one reference and once
  // under a complaint, B once with no purpose (as under LOOKUP_PURPOSE=optional), and lists
  // updates by date (no one named).
  await store.record(sampleAuditEntry(at(0), { user: 'alice', purpose: access('DSAR-2291') }));
  await store.record(sampleAuditEntry(at(1), { user: 'alice', purpose: access('dsar-2291') }));
  await store.record(
    sampleAuditEntry(at(2), {
      user: 'alice',
      purpose: { category: 'complaint', reference: 'C-7' },
    }),
  );
  await store.record(sampleAuditEntry(at(3), { user: 'alice', identifierHash: PERSON_B }));
  await store.record(
    sampleAuditEntry(at(4), {
      user: 'alice',
      operation: 'v4-purposes-by-date',
      identifierHash: null,
    }),
  );
  // bob's nightly token looks A and B up under another access request.
  for (const [days, hash] of [
    [5, PERSON_A],
    [6, PERSON_B],
  ] as const) {
    await store.record(
      sampleAuditEntry(at(days), {
        user: 'bob',
        tokenName: 'nightly',
        identifierHash: hash,
        purpose: access('DSAR-2300'),
      }),
    );
  }
  const change = (when: number, action: string, user = 'alice') =>
    store.recordChange({
      at: when,
      connection: 'default',
      actor: { user, token: null },
      address: '203.0.113.7',
      action,
      target: 'SIEM',
      before: null,
      after: { name: 'SIEM', secret: 'sha256:0123456789abcdef' },
      requestId: null,
    });
  await change(SEEDED_PERIOD.since - 1, 'alert-destination.deleted');
  await change(at(7), 'alert-destination.created');
  await change(at(8), 'alert-destination.secret-rotated', 'bob');
  await change(at(9), 'alert-destination.secret-rotated');
}

/** The figures the seeded trail must give for SEEDED_PERIOD. */
export const SEEDED_FIGURES = {
  lookups: { total: 7, people: 2, withoutPerson: 1 },
  actors: [
    { user: 'alice', token: null, lookups: 5, people: 2 },
    { user: 'bob', token: 'nightly', lookups: 2, people: 2 },
  ],
  purposes: [
    { category: 'access request', lookups: 4, references: 2, people: 2 },
    { category: 'complaint', lookups: 1, references: 1, people: 1 },
  ],
  withoutPurpose: { lookups: 2, people: 1 },
  changes: {
    total: 3,
    byAction: [
      { action: 'alert-destination.secret-rotated', count: 2 },
      { action: 'alert-destination.created', count: 1 },
    ],
  },
} as const;
