// What each data-subject operation of the catalog answers, from the one synthetic data set. The
// shapes are the mock's assumption (upstream-api.md shows no fields), chosen to carry the
// differences the migration guide describes: v4 basic details have no consent information, v4
// purposes carry a version, an expiry and the last collection point, legacy lists come in pages.
import type { DataSubjectOperationId } from '../../shared/data-subject-operations';
import type {
  MockDataSubject,
  MockDataSubjectSet,
  MockLinkedGroup,
  MockPurposeRecord,
} from './data-subjects';

/** Records per page of the v4 link-token listing (the continuation paging of §4.2 row 8). */
export const LINK_TOKEN_PAGE_SIZE = 10;
/** Default page size of the legacy listings. */
const LEGACY_PAGE_SIZE = 20;

/** A mock answer: a JSON body, or an error status with a message. */
export type MockAnswer =
  | { readonly status: 200; readonly body: unknown }
  | { readonly status: 400 | 404; readonly message: string };

const notFound = (what = 'No data subject with this identifier'): MockAnswer => ({
  status: 404,
  message: what,
});

function identity(subject: MockDataSubject) {
  return {
    dataSubjectGuid: subject.dataSubjectGuid,
    identifier: subject.identifier,
    language: subject.language,
    testDataSubject: subject.testDataSubject,
    createdDate: subject.createdDate,
    lastUpdatedDate: subject.lastUpdatedDate,
  };
}

/** A purpose as v4 shows it: with version, expiry and the last collection point. */
function v4Purpose(purpose: MockPurposeRecord) {
  return {
    purposeGuid: purpose.purposeGuid,
    purposeName: purpose.purposeName,
    purposeVersion: purpose.purposeVersion,
    status: purpose.status,
    consentDate: purpose.consentDate,
    lastTransactionDate: purpose.lastTransactionDate,
    withdrawalDate: purpose.withdrawalDate,
    expiryDate: purpose.expiryDate,
    lastCollectionPointGuid: purpose.collectionPointGuid,
    lastCollectionPointName: purpose.collectionPointName,
  };
}

/** A purpose as v1 and v2 show it: the collection point of record, no version or expiry. */
function legacyPurpose(purpose: MockPurposeRecord) {
  return {
    purposeGuid: purpose.purposeGuid,
    purposeName: purpose.purposeName,
    status: purpose.status,
    consentDate: purpose.consentDate,
    lastTransactionDate: purpose.lastTransactionDate,
    withdrawalDate: purpose.withdrawalDate,
    collectionPointGuid: purpose.collectionPointGuid,
    collectionPointName: purpose.collectionPointName,
  };
}

function legacyPage<T>(items: readonly T[], page: number, size: number) {
  return {
    content: items.slice(page * size, page * size + size),
    number: page,
    size,
    totalElements: items.length,
    totalPages: Math.max(1, Math.ceil(items.length / size)),
  };
}

function v4Group(group: MockLinkedGroup) {
  return { ...group, members: group.members.map((member) => ({ ...member })) };
}

/** v2 calls the group id `id` and has no last-updated date. */
function legacyGroup(group: MockLinkedGroup) {
  return {
    id: group.linkedIdentityGroupId,
    name: group.name,
    primaryDataSubjectIdentifier: group.primaryDataSubjectIdentifier,
    createdDate: group.createdDate,
    members: group.members.map((member) => ({ ...member })),
  };
}

interface Continuation {
  readonly offset: number;
  readonly from: string;
  readonly to: string;
}

function encodeContinuation(value: Continuation): string {
  return Buffer.from(JSON.stringify([value.offset, value.from, value.to])).toString('base64url');
}

function decodeContinuation(token: string): Continuation | undefined {
  try {
    const [offset, from, to] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (
      Number.isInteger(offset) &&
      offset >= 0 &&
      typeof from === 'string' &&
      typeof to === 'string'
    ) {
      return { offset, from, to };
    }
  } catch {
    // fall through
  }
  return undefined;
}

const inRange = (time: string, from: string, to: string) =>
  Date.parse(time) >= Date.parse(from) && Date.parse(time) <= Date.parse(to);

/** The link tokens of every data subject created in the range, one page per continuation. */
function linkTokenPage(
  set: MockDataSubjectSet,
  from: string,
  to: string,
  continuation: string | undefined,
): MockAnswer {
  let offset = 0;
  if (continuation !== undefined) {
    const decoded = decodeContinuation(continuation);
    // A token belongs to the listing it came from: another range is a client error.
    if (!decoded || decoded.from !== from || decoded.to !== to) {
      return { status: 400, message: 'requestContinuation does not belong to this listing' };
    }
    offset = decoded.offset;
  }
  const tokens = set.subjects
    .filter((subject) => inRange(subject.linkToken.createdDate, from, to))
    .map((subject) => ({
      dataSubjectGuid: subject.dataSubjectGuid,
      identifier: subject.identifier,
      ...subject.linkToken,
    }))
    .sort((a, b) => a.createdDate.localeCompare(b.createdDate) || a.token.localeCompare(b.token));
  const content = tokens.slice(offset, offset + LINK_TOKEN_PAGE_SIZE);
  const nextOffset = offset + LINK_TOKEN_PAGE_SIZE;
  return {
    status: 200,
    body: {
      content,
      requestContinuation:
        nextOffset < tokens.length ? encodeContinuation({ offset: nextOffset, from, to }) : null,
    },
  };
}

/** Purpose records of every data subject last updated in the range, with the optional filters. */
function purposeUpdates(set: MockDataSubjectSet, values: Record<string, string>): MockAnswer {
  const from = values.updatedSince!;
  const to = values.updatedUntil!;
  const content = set.subjects
    .flatMap((subject) =>
      subject.purposes.map((purpose) => ({
        dataSubjectGuid: subject.dataSubjectGuid,
        identifier: subject.identifier,
        ...v4Purpose(purpose),
      })),
    )
    .filter(
      (record) =>
        inRange(record.lastTransactionDate, from, to) &&
        (!values.collectionPointGuid ||
          record.lastCollectionPointGuid === values.collectionPointGuid.toLowerCase()) &&
        (!values.purposeGuid || record.purposeGuid === values.purposeGuid.toLowerCase()) &&
        (!values.status || record.status === values.status),
    )
    .sort((a, b) => a.lastTransactionDate.localeCompare(b.lastTransactionDate));
  return { status: 200, body: { content } };
}

const pageNumber = (value: string | undefined) => (value === undefined ? 0 : Number(value));
const pageSize = (value: string | undefined) =>
  value === undefined ? LEGACY_PAGE_SIZE : Math.max(1, Number(value));

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
  const subject = values.identifier === undefined ? undefined : set.subject(values.identifier);
  const needsSubject = values.identifier !== undefined;
  if (needsSubject && !subject) return notFound();
  switch (id) {
    case 'v4-basic-details':
      return { status: 200, body: identity(subject!) };
    case 'v4-details':
      return {
        status: 200,
        body: {
          ...identity(subject!),
          dataElements: subject!.dataElements,
          purposes: subject!.purposes.map(v4Purpose),
        },
      };
    case 'v4-ds-profiles':
      return {
        status: 200,
        body: {
          content: set.subjects.map((each) => ({
            ...identity(each),
            purposeCount: each.purposes.length,
          })),
        },
      };
    case 'v4-purpose-profile': {
      const purpose = subject!.purposes.find(
        (each) => each.purposeGuid === values.purposeGuid?.toLowerCase(),
      );
      if (!purpose) return notFound('This data subject has no record of this purpose');
      return {
        status: 200,
        body: {
          dataSubjectGuid: subject!.dataSubjectGuid,
          identifier: subject!.identifier,
          purposes: [v4Purpose(purpose)],
        },
      };
    }
    case 'v4-purposes':
      return {
        status: 200,
        body: {
          dataSubjectGuid: subject!.dataSubjectGuid,
          identifier: subject!.identifier,
          purposes: subject!.purposes.map(v4Purpose),
        },
      };
    case 'v4-purposes-by-date':
      return purposeUpdates(set, values);
    case 'v4-link-token':
      return {
        status: 200,
        body: {
          dataSubjectGuid: subject!.dataSubjectGuid,
          identifier: subject!.identifier,
          ...subject!.linkToken,
        },
      };
    case 'v4-link-tokens':
      return linkTokenPage(set, values.fromDate!, values.toDate!, continuation);
    case 'v4-linked-groups':
      return {
        status: 200,
        body: {
          content: set.groups
            .filter((group) => group.primaryDataSubjectIdentifier === subject!.identifier)
            .map(v4Group),
        },
      };
    case 'v4-linked-group': {
      const group = set.group(values.linkedIdentityGroupId!);
      return group
        ? { status: 200, body: v4Group(group) }
        : notFound('No such linked identity group');
    }
    case 'v1-datasubject-profiles':
      return {
        status: 200,
        body: legacyPage(
          [{ ...identity(subject!), purposes: subject!.purposes.map(legacyPurpose) }],
          0,
          pageSize(values.size),
        ),
      };
    case 'v2-datasubjects':
      return {
        status: 200,
        body: {
          ...identity(subject!),
          dataElements: subject!.dataElements,
          purposes: subject!.purposes.map(legacyPurpose),
        },
      };
    case 'v3-datasubject-profile':
      return {
        status: 200,
        body: {
          dataSubjectGuid: subject!.dataSubjectGuid,
          identifier: subject!.identifier,
          language: subject!.language,
          lastUpdatedDate: subject!.lastUpdatedDate,
          purposes: subject!.purposes.map((purpose) => ({
            ...legacyPurpose(purpose),
            preferences: purpose.preferences.map((preference) => ({ ...preference })),
          })),
        },
      };
    case 'v3-datasubject-profiles':
      return {
        status: 200,
        body: legacyPage(
          set.subjects.map((each) => ({
            ...identity(each),
            purposes: each.purposes.map(legacyPurpose),
          })),
          0,
          50,
        ),
      };
    case 'v1-link-tokens':
      return {
        status: 200,
        body: legacyPage(
          [
            {
              identifier: subject!.identifier,
              ...subject!.linkToken,
              status: 'ACTIVE',
            },
          ],
          pageNumber(values.page),
          pageSize(values.size),
        ),
      };
    case 'v2-linked-groups': {
      const primary = set.subject(values.primaryDataSubjectIdentifier ?? '');
      if (!primary) return notFound();
      return {
        status: 200,
        body: legacyPage(
          set.groups
            .filter((group) => group.primaryDataSubjectIdentifier === primary.identifier)
            .map(legacyGroup),
          pageNumber(values.page),
          pageSize(values.size),
        ),
      };
    }
    case 'v2-linked-group': {
      const group = set.group(values.linkedIdentityGroupId!);
      return group
        ? { status: 200, body: legacyGroup(group) }
        : notFound('No such linked identity group');
    }
  }
}
