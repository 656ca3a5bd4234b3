// What each data-subject operation of the catalog answers, from the one synthetic data set, in the
// documented shapes of the platform contract (data-subject-contract.ts): v4 records and slices
// (`content`, `number`, `size`, `first`, `last`, `numberOfElements`, `empty`,
// `requestContinuation`), the legacy pages with their own field names (capitalised in v1), and the
// documented not-found answer, a JSON string. Only what the documents allow: a field with no
// value is left out, never `null` (the documents type every field as a string, number, boolean,
// object or list), and an operation answers only the statuses its document declares.
import { createHash } from 'node:crypto';
import { V4_MAX_PAGE_SIZE } from '../../shared/data-subject-contract';
import type { DataSubjectOperationId } from '../../shared/data-subject-operations';
import type {
  MockDataSubject,
  MockDataSubjectSet,
  MockLinkedGroup,
  MockPurposeRecord,
} from './data-subjects';

/** Default page size of the v4 slices and legacy pages (the documents' `size` default). */
const DEFAULT_PAGE_SIZE = 20;

/** A mock answer: a JSON body, or an error status with its body. */
export type MockAnswer =
  | { readonly status: 200; readonly body: unknown }
  /** 404 in the documented shape: `application/json`, the body a JSON string. */
  | { readonly status: 404; readonly body: string }
  | { readonly status: 400; readonly message: string };

/**
 * The not-found answers: the documents' 404 description for data subjects; for groups, whose
 * documented description is only the reason phrase, a string naming the group, as the console
 * takes a bare "Not Found" for a gateway's (docs/platform-contract.md, "Errors").
 */
const NOT_FOUND_TEXT = {
  subject: 'Data Subject Not Found',
  group: 'Linked Identity Group Not Found',
} as const;

const notFound = (text: string = NOT_FOUND_TEXT.subject): MockAnswer => ({
  status: 404,
  body: text,
});

const ok = (body: unknown): MockAnswer => ({ status: 200, body });

/**
 * A legacy operation's answer when there is nothing to show: its document declares no 404 (only
 * 200, 400, 401, 403, 429 and 500), so the mock refuses the request instead of inventing one.
 */
const legacyNothing = (what: string): MockAnswer => ({ status: 400, message: `No such ${what}` });

/** `value`'s fields without the ones that have no value: the documents never allow `null`. */
function present<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, field]) => field !== null && field !== undefined),
  ) as T;
}

// ---- v4 records.

function v4Subject(subject: MockDataSubject) {
  const lastPurpose = subject.purposes.reduce((a, b) =>
    a.lastTransactionDate > b.lastTransactionDate ? a : b,
  );
  return {
    id: subject.dataSubjectGuid,
    identifier: subject.identifier,
    identifierType: 'Email',
    language: subject.language,
    createdDate: subject.createdDate,
    lastUpdatedDate: subject.lastUpdatedDate,
    lastTransactionDate: lastPurpose.lastTransactionDate,
    testDataSubject: subject.testDataSubject,
    doNotCall: subject.doNotCall,
    dataElements: subject.dataElements.map((element) => ({
      name: element.name,
      value: element.value,
      doNotCall: false,
      linked: false,
    })),
    latestGeoLocation: present({
      dataSubjectId: subject.dataSubjectGuid,
      country: subject.dataElements.find((element) => element.name === 'Country')?.value,
    }),
    latestSource: {
      dataSubjectId: subject.dataSubjectGuid,
      sourceType: 'COLLECTION_POINT',
      sourceContent: lastPurpose.collectionPointName,
    },
  };
}

/** A purpose record ("profile") as v4 shows it. */
function v4Profile(subject: MockDataSubject, purpose: MockPurposeRecord) {
  return present({
    id: purpose.purposeGuid,
    identifier: subject.identifier,
    name: purpose.purposeName,
    version: purpose.purposeVersion,
    status: purpose.status,
    firstTransactionDate: purpose.consentDate,
    consentDate: purpose.consentDate,
    lastTransactionDate: purpose.lastTransactionDate,
    lastUpdatedDate: purpose.lastTransactionDate,
    withdrawalDate: purpose.withdrawalDate,
    expiryDate: purpose.expiryDate,
    totalTransactionCount: 1 + purpose.preferences.length,
    lastTransactionCollectionPointId: purpose.collectionPointGuid,
    lastTransactionCollectionPointVersion: 1,
    topics: purpose.preferences.map((preference) => ({
      id: topicId(preference.topic),
      name: `${preference.topic}: ${preference.option}`,
    })),
  });
}

function v4Token(subject: MockDataSubject) {
  return {
    token: subject.linkToken.token,
    identifier: subject.identifier,
    createdDate: subject.linkToken.createdDate,
    expiryDate: subject.linkToken.expiryDate,
  };
}

/** The group members as v4 lists them: the primary first, then the linked identities. */
function v4Members(group: MockLinkedGroup) {
  return [
    {
      id: group.linkedIdentityGroupId,
      name: group.name,
      identifier: group.primaryDataSubjectIdentifier,
      isPrimary: true,
      addedDate: group.createdDate,
    },
    ...group.members.map((member) => ({
      id: group.linkedIdentityGroupId,
      name: group.name,
      identifier: member.identifier,
      isPrimary: false,
      addedDate: member.linkedDate,
    })),
  ];
}

/** A stable GUID-shaped id for a preference topic. */
function topicId(topic: string): string {
  const hex = createHash('sha256').update(topic).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

// ---- v4 slices and their continuation.

/** What a continuation token carries: where the next page starts, for which listing. */
interface Continuation {
  readonly offset: number;
  readonly listing: string;
}

/**
 * The token, in the documents' example form (a small JSON text with a composite token), so the
 * console is exercised with the spaces and quotes a real one has.
 */
function encodeContinuation(value: Continuation): string {
  const inner = Buffer.from(JSON.stringify([value.offset, value.listing])).toString('base64');
  return JSON.stringify({ compositeToken: inner }).replace(':', ': ');
}

function decodeContinuation(token: string): Continuation | undefined {
  try {
    const { compositeToken } = JSON.parse(token) as { compositeToken?: unknown };
    if (typeof compositeToken !== 'string') return undefined;
    const [offset, listing] = JSON.parse(Buffer.from(compositeToken, 'base64').toString('utf8'));
    if (Number.isInteger(offset) && offset >= 0 && typeof listing === 'string') {
      return { offset, listing };
    }
  } catch {
    // fall through
  }
  return undefined;
}

/** A listing's identity: its operation and filters, so a token cannot be used for another. */
function listingKey(id: string, values: Record<string, string>): string {
  const filters = Object.entries(values)
    .filter(([name]) => name !== 'size')
    .sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(JSON.stringify([id, filters]))
    .digest('base64url')
    .slice(0, 16);
}

function pageSize(value: string | undefined, max: number): number {
  return value === undefined ? DEFAULT_PAGE_SIZE : Math.min(max, Math.max(1, Number(value)));
}

/** One v4 slice of `items`, continued by the token of the previous one. */
function v4Slice(
  id: string,
  items: readonly unknown[],
  values: Record<string, string>,
  continuation: string | undefined,
): MockAnswer {
  const listing = listingKey(id, values);
  let offset = 0;
  if (continuation !== undefined) {
    const decoded = decodeContinuation(continuation);
    // A token belongs to the listing it came from: another listing's is a client error.
    if (!decoded || decoded.listing !== listing) {
      return { status: 400, message: 'requestContinuation does not belong to this listing' };
    }
    offset = decoded.offset;
  }
  const size = pageSize(values.size, V4_MAX_PAGE_SIZE);
  const content = items.slice(offset, offset + size);
  const last = offset + size >= items.length;
  return ok({
    content,
    number: Math.floor(offset / size),
    size,
    first: offset === 0,
    last,
    numberOfElements: content.length,
    empty: content.length === 0,
    // The last page has no token: left out, as the documents type it a string.
    ...(last
      ? {}
      : { requestContinuation: encodeContinuation({ offset: offset + size, listing }) }),
  });
}

// ---- Legacy pages.

function legacyPage<T>(items: readonly T[], values: Record<string, string>, max: number) {
  const page = values.page === undefined ? 0 : Number(values.page);
  const size = pageSize(values.size, max);
  const content = items.slice(page * size, page * size + size);
  return ok({
    content,
    number: page,
    size,
    first: page === 0,
    last: (page + 1) * size >= items.length,
    numberOfElements: content.length,
    empty: content.length === 0,
    totalElements: items.length,
    totalPages: Math.max(1, Math.ceil(items.length / size)),
  });
}

function v1Profile(subject: MockDataSubject, purposes: readonly MockPurposeRecord[]) {
  return {
    Id: subject.dataSubjectGuid,
    Identifier: subject.identifier,
    Language: subject.language,
    LinkToken: subject.linkToken.token,
    CreatedDate: subject.createdDate,
    LastUpdatedDate: subject.lastUpdatedDate,
    TestDataSubject: subject.testDataSubject,
    doNotCall: subject.doNotCall,
    DataElements: subject.dataElements.map((element) => ({
      Name: element.name,
      Value: element.value,
      DoNotCall: false,
      Linked: false,
    })),
    Purposes: purposes.map((purpose) =>
      present({
        Id: purpose.purposeGuid,
        Name: purpose.purposeName,
        Version: purpose.purposeVersion,
        Status: purpose.status,
        FirstTransactionDate: purpose.consentDate,
        ConsentDate: purpose.consentDate,
        LastTransactionDate: purpose.lastTransactionDate,
        WithdrawalDate: purpose.withdrawalDate,
        ExpiryDate: purpose.expiryDate,
        LastTransactionCollectionPointId: purpose.collectionPointGuid,
      }),
    ),
  };
}

function v2Subject(subject: MockDataSubject) {
  return {
    id: subject.dataSubjectGuid,
    identifier: subject.identifier,
    identifierType: 'Email',
    language: subject.language,
    createdDate: subject.createdDate,
    lastUpdatedDate: subject.lastUpdatedDate,
    linkToken: subject.linkToken.token,
    testDataSubject: subject.testDataSubject,
    doNotCall: subject.doNotCall,
    dataElements: Object.fromEntries(
      subject.dataElements.map((element) => [element.name, element.value]),
    ),
  };
}

function v3Profile(subject: MockDataSubject) {
  return {
    id: subject.dataSubjectGuid,
    identifier: subject.identifier,
    language: subject.language,
    linkToken: subject.linkToken.token,
    createdDate: subject.createdDate,
    lastUpdatedDate: subject.lastUpdatedDate,
    testDataSubject: subject.testDataSubject,
    doNotCall: subject.doNotCall,
    dataElements: subject.dataElements.map((element) => ({
      name: element.name,
      value: element.value,
      doNotCall: false,
    })),
    purposes: subject.purposes.map((purpose) =>
      present({
        id: purpose.purposeGuid,
        name: purpose.purposeName,
        version: purpose.purposeVersion,
        status: purpose.status,
        firstTransactionDate: purpose.consentDate,
        consentDate: purpose.consentDate,
        lastTransactionDate: purpose.lastTransactionDate,
        lastUpdatedDate: purpose.lastTransactionDate,
        withdrawalDate: purpose.withdrawalDate,
        expiryDate: purpose.expiryDate,
        lastTransactionCollectionPointId: purpose.collectionPointGuid,
        topics: purpose.preferences.map((preference) => ({
          id: topicId(preference.topic),
          name: `${preference.topic}: ${preference.option}`,
        })),
      }),
    ),
  };
}

function v1Token(subject: MockDataSubject) {
  return {
    DataSubjectId: subject.dataSubjectGuid,
    LinkToken: subject.linkToken.token,
    UrlEncodedLinkToken: encodeURIComponent(subject.linkToken.token),
    CreatedDate: subject.linkToken.createdDate,
    ExpiryDate: subject.linkToken.expiryDate,
  };
}

function v2Entry(identifier: string, primary: boolean, addedDate: string) {
  return {
    identifier,
    identifierType: identifier.includes('@') ? 'Email' : 'Other',
    isPrimary: primary,
    canBePrimary: identifier.includes('@'),
    addedDate,
    numberOfLinkedGroups: 1,
  };
}

function v2GroupListed(group: MockLinkedGroup, subject: MockDataSubject) {
  return {
    id: group.linkedIdentityGroupId,
    groupName: group.name,
    numberOfDataSubjects: 1 + group.members.length,
    createdDate: group.createdDate,
    lastModifiedDate: group.lastUpdatedDate,
    primaryDataSubjectId: subject.dataSubjectGuid,
    primaryDataSubjectIdentifier: group.primaryDataSubjectIdentifier,
    primaryDataSubjectIdentifierType: 'Email',
    isPrimary: true,
  };
}

function v2GroupDetailed(group: MockLinkedGroup, subject: MockDataSubject) {
  const primary = {
    ...v2Entry(group.primaryDataSubjectIdentifier, true, group.createdDate),
    id: subject.dataSubjectGuid,
  };
  return {
    id: group.linkedIdentityGroupId,
    groupName: group.name,
    createdDate: group.createdDate,
    primaryDataSubject: primary,
    primaryDataSubjects: [primary],
    dataSubjects: [
      primary,
      ...group.members.map((member) => v2Entry(member.identifier, false, member.linkedDate)),
    ],
  };
}

// ---- Filters.

const inRange = (time: string, from: string | undefined, to: string | undefined) =>
  (from === undefined || Date.parse(time) >= Date.parse(from)) &&
  (to === undefined || Date.parse(time) <= Date.parse(to));

/**
 * `items` in the order of a documented `sort` value (`field,asc` or `field,desc`; every sortable
 * field of these listings is a date), or `fallback` (the document's default) when none was sent.
 */
function sorted<T>(
  items: T[],
  sort: string | undefined,
  fallback: 'asc' | 'desc',
  date: (item: T) => string,
): T[] {
  const direction = sort?.endsWith(',asc') ? 'asc' : sort?.endsWith(',desc') ? 'desc' : fallback;
  return items.sort((a, b) =>
    direction === 'asc' ? date(a).localeCompare(date(b)) : date(b).localeCompare(date(a)),
  );
}

/**
 * Whether the platform shows `subject`: one on the Do Not Call list only when the lookup sent
 * `isDNCInclude=true` (the documents: "whether to include data subject in the response if the
 * data subject is in the DNC list", default false).
 */
const shown = (subject: MockDataSubject, values: Record<string, string>) =>
  !subject.doNotCall || values.isDNCInclude === 'true';

function purposeUpdates(set: MockDataSubjectSet, values: Record<string, string>) {
  return sorted(
    set.subjects.flatMap((subject) =>
      subject.purposes
        .filter(
          (purpose) =>
            inRange(purpose.lastTransactionDate, values.updatedSince, values.updatedUntil) &&
            (!values.collectionPointId ||
              purpose.collectionPointGuid === values.collectionPointId.toLowerCase()) &&
            (!values.purposeId || purpose.purposeGuid === values.purposeId.toLowerCase()) &&
            (!values.status || purpose.status === values.status),
        )
        .map((purpose) => v4Profile(subject, purpose)),
    ),
    values.sort,
    'desc',
    (profile) => profile.lastUpdatedDate,
  );
}

/**
 * The answer of operation `id` for the parameter `values` (by catalog name, as received) and an
 * optional continuation token.
 */
export function answerLookup(
  id: DataSubjectOperationId,
  set: MockDataSubjectSet,
  values: Record<string, string>,
  continuation?: string,
): MockAnswer {
  const found = values.identifier === undefined ? undefined : set.subject(values.identifier);
  const subject = found && shown(found, values) ? found : undefined;
  switch (id) {
    case 'v4-basic-details':
      return subject ? ok(v4Subject(subject)) : notFound();
    case 'v4-details':
      return subject
        ? ok({
            ...v4Subject(subject),
            profiles: subject.purposes.map((purpose) => v4Profile(subject, purpose)),
            linkTokens: [v4Token(subject)],
          })
        : notFound();
    case 'v4-data-subjects':
      return v4Slice(
        id,
        sorted(
          set.subjects
            .filter(
              (each) =>
                shown(each, values) &&
                inRange(each.lastUpdatedDate, values.fromDate, values.toDate),
            )
            .map(v4Subject),
          values.sort,
          'desc',
          (each) => each.lastUpdatedDate,
        ),
        values,
        continuation,
      );
    case 'v4-purpose-profile': {
      if (!subject) return notFound();
      const purpose = subject.purposes.find(
        (each) => each.purposeGuid === values.purposeGuid?.toLowerCase(),
      );
      return purpose ? ok(v4Profile(subject, purpose)) : notFound('Purpose Not Found');
    }
    case 'v4-purposes':
      return subject
        ? v4Slice(
            id,
            sorted(
              subject.purposes.map((purpose) => v4Profile(subject, purpose)),
              values.sort,
              'desc',
              (profile) => profile.lastUpdatedDate,
            ),
            values,
            continuation,
          )
        : notFound();
    case 'v4-purposes-by-date':
      return v4Slice(id, purposeUpdates(set, values), values, continuation);
    case 'v4-link-token':
      return subject ? ok(v4Token(subject)) : notFound();
    case 'v4-link-tokens':
      return v4Slice(
        id,
        // The document's default sort: expiryDate ascending.
        sorted(
          set.subjects
            .filter((each) => inRange(each.linkToken.createdDate, values.fromDate, values.toDate))
            .map(v4Token),
          values.sort,
          'asc',
          (token) => token.expiryDate,
        ),
        values,
        continuation,
      );
    case 'v4-linked-groups': {
      if (!subject) return notFound();
      return ok(
        set.groups
          .filter(
            (group) =>
              group.primaryDataSubjectIdentifier === subject.identifier &&
              (!values.linkedIdentityGroupId ||
                group.linkedIdentityGroupId === values.linkedIdentityGroupId.toLowerCase()),
          )
          .map((group) => v4Members(group)[0]!),
      );
    }
    case 'v4-linked-group': {
      const group = set.group(values.linkedIdentityGroupId!);
      return group
        ? v4Slice(
            id,
            // No documented default: the primary first, then by date linked, unless asked.
            values.sort
              ? sorted(v4Members(group), values.sort, 'asc', (member) => member.addedDate)
              : v4Members(group),
            values,
            continuation,
          )
        : notFound(NOT_FOUND_TEXT.group);
    }
    case 'v1-datasubject-profiles': {
      // The v1 listing filters; an unknown identifier is an empty page, not a 404.
      const purposes = (each: MockDataSubject) =>
        values.purposeGuid
          ? each.purposes.filter((purpose) => purpose.purposeGuid === values.purposeGuid)
          : each.purposes;
      const found = subject && purposes(subject).length > 0 ? [subject] : [];
      return legacyPage(
        found.map((each) => v1Profile(each, purposes(each))),
        values,
        50,
      );
    }
    case 'v2-datasubjects':
      return legacyPage(
        set.subjects
          .filter(
            (each) =>
              (values.identifier === undefined || each.identifier === values.identifier) &&
              shown(each, values) &&
              inRange(each.lastUpdatedDate, values.updatedSince, values.updatedUntil),
          )
          .map(v2Subject),
        values,
        2_000,
      );
    case 'v3-datasubject-profile':
      return subject ? ok(v3Profile(subject)) : legacyNothing('data subject');
    case 'v3-datasubject-profiles':
      return legacyPage(
        set.subjects
          .filter((each) => inRange(each.lastUpdatedDate, values.updatedSince, values.updatedUntil))
          .map(v3Profile),
        values,
        100,
      );
    case 'v1-link-tokens':
      return legacyPage(
        set.subjects
          .filter(
            (each) =>
              (values.identifier === undefined || each.identifier === values.identifier) &&
              inRange(each.linkToken.createdDate, values.since, values.until),
          )
          .map(v1Token),
        values,
        2_000,
      );
    case 'v2-linked-groups': {
      const primary = set.subject(values.primaryDataSubjectIdentifier ?? '');
      return legacyPage(
        primary
          ? set.groups
              .filter((group) => group.primaryDataSubjectIdentifier === primary.identifier)
              .map((group) => v2GroupListed(group, primary))
          : [],
        values,
        100,
      );
    }
    case 'v2-linked-group': {
      const group = set.group(values.linkedIdentityGroupId!);
      const primary = group && set.subject(group.primaryDataSubjectIdentifier);
      return group && primary ? ok(v2GroupDetailed(group, primary)) : legacyNothing('group');
    }
  }
}
