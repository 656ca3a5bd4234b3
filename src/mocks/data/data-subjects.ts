// Deterministic synthetic data subjects for the mock upstream: people with purposes (consents),
// link tokens and linked identity groups. Every catalog operation, v4 and legacy, answers from
// this one set, so the migration view shows real differences of shape, never of data. Dates
// count back from an anchor day, so the demo data always looks recent.
import {
  DEMO_IDENTIFIERS,
  DEMO_LINKED_GROUP_ID,
  DEMO_PURPOSE_GUID,
} from '../../shared/data-subject-demo';
import type { PURPOSE_STATUSES } from '../../shared/data-subject-operations';

/** One consent of a data subject to a purpose. */
export interface MockPurposeRecord {
  readonly purposeGuid: string;
  readonly purposeName: string;
  readonly purposeVersion: number;
  readonly status: (typeof PURPOSE_STATUSES)[number];
  readonly consentDate: string;
  readonly lastTransactionDate: string;
  readonly withdrawalDate: string | null;
  readonly expiryDate: string | null;
  readonly collectionPointGuid: string;
  readonly collectionPointName: string;
  /** Preference options chosen within the purpose (v3 shows them). */
  readonly preferences: ReadonlyArray<{ readonly topic: string; readonly option: string }>;
}

/** One data subject. */
export interface MockDataSubject {
  readonly dataSubjectGuid: string;
  readonly identifier: string;
  readonly language: string;
  readonly testDataSubject: boolean;
  /** On the platform's Do Not Call list: left out unless a lookup asks with `isDNCInclude`. */
  readonly doNotCall: boolean;
  readonly createdDate: string;
  readonly lastUpdatedDate: string;
  readonly dataElements: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  readonly purposes: readonly MockPurposeRecord[];
  readonly linkToken: {
    readonly token: string;
    readonly createdDate: string;
    readonly expiryDate: string;
  };
}

/** A linked identity group: a primary data subject and the identities linked to it. */
export interface MockLinkedGroup {
  readonly linkedIdentityGroupId: string;
  readonly name: string;
  readonly primaryDataSubjectIdentifier: string;
  readonly createdDate: string;
  readonly lastUpdatedDate: string;
  readonly members: ReadonlyArray<{ readonly identifier: string; readonly linkedDate: string }>;
}

/** The whole data set. */
export interface MockDataSubjectSet {
  readonly subjects: readonly MockDataSubject[];
  readonly groups: readonly MockLinkedGroup[];
  /** The data subject of an identifier (exact match, as the upstream's header would be). */
  subject(identifier: string): MockDataSubject | undefined;
  group(id: string): MockLinkedGroup | undefined;
}

const PEOPLE = [
  ...DEMO_IDENTIFIERS.map((identifier) => identifier.split('@')[0]!),
  'margaret.hamilton',
  'edsger.dijkstra',
  'barbara.liskov',
  'donald.knuth',
  'frances.allen',
  'john.mccarthy',
  'radia.perlman',
  'tim.berners-lee',
  'hedy.lamarr',
  'claude.shannon',
  'dorothy.vaughan',
  'mary.jackson',
  'jean.bartik',
  'ken.thompson',
  'dennis.ritchie',
  'annie.easley',
  'shafi.goldwasser',
  'leslie.lamport',
  'vint.cerf',
  'bob.kahn',
  'adele.goldberg',
  'alan.kay',
  'betty.holberton',
  'kathleen.booth',
  'sophie.wilson',
  'karen.sparck-jones',
  'john.backus',
  'niklaus.wirth',
  'tony.hoare',
  'joan.clarke',
  'evelyn.berezin',
  'lynn.conway',
  'ivan.sutherland',
  'fran.bilas',
  'carol.shaw',
  'jim.gray',
] as const;

/** A data subject of the mock on the Do Not Call list (never one of the demo hints). */
export const MOCK_DO_NOT_CALL_IDENTIFIER = 'hedy.lamarr@example.com';

const PURPOSES = [
  { guid: DEMO_PURPOSE_GUID, name: 'Marketing e-mails', version: 3 },
  { guid: '1d9a7c3e-5b2f-4a8d-9c1e-2f3a4b5c6d7e', name: 'Product analytics', version: 2 },
  {
    guid: '2e8b6d4f-6c3a-4b9e-8d2f-3a4b5c6d7e8f',
    name: 'Personalised recommendations',
    version: 1,
  },
  { guid: '3f7c5e6a-7d4b-4cae-9e3a-4b5c6d7e8f9a', name: 'Newsletter', version: 4 },
  { guid: '4a6d4f7b-8e5c-4dbf-8f4b-5c6d7e8f9a0b', name: 'Third-party sharing', version: 2 },
  { guid: '5b5e3a8c-9f6d-4ec0-9a5c-6d7e8f9a0b1c', name: 'Loyalty programme', version: 1 },
  { guid: '6c4f2b9d-a07e-4fd1-8b6d-7e8f9a0b1c2d', name: 'Research surveys', version: 1 },
] as const;

const COLLECTION_POINTS = [
  { guid: '7d3a1cae-b18f-4ae2-9c7e-8f9a0b1c2d3e', name: 'Website sign-up form' },
  { guid: '8e2b0dbf-c29a-4bf3-8d8f-9a0b1c2d3e4f', name: 'Mobile app onboarding' },
  { guid: '9f1c9ec0-d3ab-4c04-9e9a-0b1c2d3e4f5a', name: 'Preference centre' },
  { guid: 'a00d8fd1-e4bc-4d15-8fab-1c2d3e4f5a6b', name: 'In-store tablet' },
] as const;

const TOPICS = [
  ['Frequency', ['Weekly', 'Monthly']],
  ['Channel', ['E-mail', 'SMS', 'Post']],
] as const;

const LANGUAGES = ['en', 'en', 'en', 'de', 'fr', 'nl', 'es'] as const;
// Weighted: most consents are active.
const STATUSES: ReadonlyArray<(typeof PURPOSE_STATUSES)[number]> = [
  'ACTIVE',
  'ACTIVE',
  'ACTIVE',
  'ACTIVE',
  'WITHDRAWN',
  'OPT_OUT',
  'PENDING',
  'EXPIRED',
  'NO_CONSENT',
];

const DAY_MS = 86_400_000;

/** A small seeded generator (mulberry32): the same seed, the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function uuid(next: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

const pick = <T>(next: () => number, items: readonly T[]): T =>
  items[Math.floor(next() * items.length)]!;

/** A day `daysBefore` the anchor, at a deterministic time of day. */
function dayBefore(anchor: number, daysBefore: number, next: () => number): number {
  return anchor - daysBefore * DAY_MS + Math.floor(next() * 86_400) * 1_000;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The start of the UTC day of `now`: dates count back from it. */
export function anchorDay(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS;
}

function titleCase(word: string): string {
  return word
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('-');
}

/**
 * Generates the data set with dates counting back from `anchor` (epoch ms, a day start). The four
 * example identifiers of the demo hints come first and all have the example purpose; the first is
 * the primary data subject of the example linked identity group.
 */
export function generateDataSubjects(anchor: number): MockDataSubjectSet {
  const next = random(20_240_611);
  const subjects = PEOPLE.map((person, index): MockDataSubject => {
    const identifier = `${person}@example.com`;
    const created = dayBefore(anchor, 240 + Math.floor(next() * 90), next);
    const chosen = PURPOSES.filter(
      (purpose, position) => (index < DEMO_IDENTIFIERS.length && position === 0) || next() < 0.45,
    );
    const purposes = (chosen.length > 0 ? chosen : [PURPOSES[1 + (index % 6)]!]).map(
      (purpose): MockPurposeRecord => {
        const status =
          index === 0 && purpose.guid === DEMO_PURPOSE_GUID ? 'ACTIVE' : pick(next, STATUSES);
        // Whole days plus a few hours and minutes, so events do not all share one time of day.
        const consent = created + Math.floor(next() * 30 * DAY_MS);
        // Most records changed within the last week, so the date-range listings (7 and 30 days
        // at most) have several pages; the example people always did.
        const recent = index < DEMO_IDENTIFIERS.length || next() < 0.7;
        const last = recent
          ? anchor - DAY_MS / 4 - Math.floor(next() * 6 * DAY_MS)
          : Math.min(anchor - 8 * DAY_MS, consent + Math.floor(next() * 200 * DAY_MS));
        const point = pick(next, COLLECTION_POINTS);
        return {
          purposeGuid: purpose.guid,
          purposeName: purpose.name,
          purposeVersion: purpose.version,
          status,
          consentDate: iso(consent),
          lastTransactionDate: iso(last),
          withdrawalDate: status === 'WITHDRAWN' || status === 'OPT_OUT' ? iso(last) : null,
          expiryDate:
            status === 'EXPIRED'
              ? iso(last)
              : status === 'ACTIVE'
                ? iso(consent + 730 * DAY_MS)
                : null,
          collectionPointGuid: point.guid,
          collectionPointName: point.name,
          preferences: TOPICS.filter(() => next() < 0.6).map(([topic, options]) => ({
            topic,
            option: pick(next, options),
          })),
        };
      },
    );
    const tokenCreated = dayBefore(
      anchor,
      index < DEMO_IDENTIFIERS.length || next() < 0.75
        ? 1 + Math.floor(next() * 5)
        : 10 + Math.floor(next() * 300),
      next,
    );
    const [first = person, last = ''] = person.split('.');
    return {
      dataSubjectGuid: uuid(next),
      identifier,
      language: pick(next, LANGUAGES),
      testDataSubject: index % 13 === 12,
      doNotCall: identifier === MOCK_DO_NOT_CALL_IDENTIFIER,
      createdDate: iso(created),
      lastUpdatedDate: iso(Math.max(...purposes.map((p) => Date.parse(p.lastTransactionDate)))),
      dataElements: [
        { name: 'First name', value: titleCase(first) },
        { name: 'Last name', value: titleCase(last) },
        { name: 'Country', value: pick(next, ['GB', 'US', 'DE', 'FR', 'NL']) },
      ],
      purposes,
      linkToken: {
        token: `lt_${Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16)).join('')}`,
        createdDate: iso(tokenCreated),
        expiryDate: iso(tokenCreated + 365 * DAY_MS),
      },
    };
  });

  // Every third data subject is the primary of a group of its other identities: a phone number
  // in the fictional UK drama range and a customer number.
  const groups = subjects
    .filter((_, index) => index % 3 === 0)
    .map((subject, position): MockLinkedGroup => {
      const created = Date.parse(subject.createdDate) + 5 * DAY_MS;
      // The example group is a household account with many linked identities, so its member
      // listing has more than one page.
      const extra =
        position === 0
          ? Array.from({ length: 22 }, (_, n) => ({
              identifier: `CUST-${String(20_000 + n).padStart(6, '0')}`,
              offset: 50 + n,
            }))
          : [];
      const members = [
        { identifier: `+44 20 7946 ${String(100 + position * 7).padStart(4, '0')}`, offset: 10 },
        { identifier: `CUST-${String(10_000 + position * 37).padStart(6, '0')}`, offset: 40 },
      ]
        .slice(0, position === 0 ? 2 : 1 + (position % 2))
        .concat(extra)
        .map((member) => ({
          identifier: member.identifier,
          linkedDate: iso(created + member.offset * DAY_MS),
        }));
      return {
        linkedIdentityGroupId: position === 0 ? DEMO_LINKED_GROUP_ID : uuid(next),
        name: `${subject.dataElements[0]!.value} ${subject.dataElements[1]!.value}`,
        primaryDataSubjectIdentifier: subject.identifier,
        createdDate: iso(created),
        lastUpdatedDate: members.at(-1)!.linkedDate,
        members,
      };
    });

  const byIdentifier = new Map(subjects.map((subject) => [subject.identifier, subject]));
  const byGroupId = new Map(groups.map((group) => [group.linkedIdentityGroupId, group]));
  return {
    subjects,
    groups,
    subject: (identifier) => byIdentifier.get(identifier),
    group: (id) => byGroupId.get(id.toLowerCase()),
  };
}
