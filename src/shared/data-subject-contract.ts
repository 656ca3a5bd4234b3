// The platform's contract for the data-subject operations as the console understands it, written
// from the vendor's published OpenAPI documents (named on each operation): paths, where each
// parameter travels, formats and ranges, and the shapes of the answers as zod schemas. The catalog
// points at it, the mock answers by it, the BFF validates answers with it and the SPA lays them
// out from its field lists. docs/platform-contract.md explains it in words.
import * as z from 'zod/mini';
import { PLATFORM_OPERATIONS } from './platform-operations';

/**
 * The vendor documents the console's operations are written from, by the key the console cites
 * them with, and the name they are cited by (docs/platform-contract.md, docs/platform-openapi.json).
 */
export const VENDOR_DOCUMENTS = {
  'data-subjects-v4': 'the vendor’s data-subjects v4 OpenAPI document',
  'magic-link-tokens-v4': 'the vendor’s magic-link-tokens v4 OpenAPI document',
  'data-subject-groups-v4': 'the vendor’s data-subject-groups v4 OpenAPI document',
  'data-subjects-v1': 'the vendor’s data-subjects (v1) OpenAPI document',
  'data-subjects-v2': 'the vendor’s data-subjects v2 OpenAPI document',
  'data-subjects-v3': 'the vendor’s data-subjects v3 OpenAPI document',
  'link-tokens-v1': 'the vendor’s magic-link-tokens (v1) OpenAPI document',
  'linked-identity-groups-v2': 'the vendor’s data-subject-groups (v2) OpenAPI document',
} as const;

/** The vendor document an operation is written from, by the key the console cites it with. */
export type VendorDocument = keyof typeof VENDOR_DOCUMENTS;

/** Largest page the v4 slices allow (`size` maximum in every v4 document). */
export const V4_MAX_PAGE_SIZE = 50;
/** Longest range of the v4 data-subject list and link-token list (`fromDate`…`toDate`). */
export const LIST_RANGE_DAYS = 7;
/** Longest range of the v4 purpose updates (`updatedSince`…`updatedUntil`). */
export const PURPOSE_UPDATES_RANGE_DAYS = 30;

// ---- Field types, as the documents give them. Every field is optional and may be null: the
// documents mark none of the answer fields required, and a record without one is still shown.
// The parse is tolerant; what the documents say beyond it (an integer, a date-time, a UUID) is
// kept beside each type in `DOCUMENTED_FORMATS`, for the strict description of the platform that
// docs/platform-openapi.json is generated as (src/shared/platform-openapi.ts).

/** What the documents say of a field's value beyond what the tolerant parse checks. */
export interface DocumentedFormat {
  readonly type?: 'integer';
  readonly format?: 'date-time' | 'uuid' | 'int32' | 'int64';
}
/** The documented format of each field type below, read by the description's generator. */
export const DOCUMENTED_FORMATS = z.registry<DocumentedFormat>();
const documented = <T extends z.ZodMiniType>(schema: T, format: DocumentedFormat): T => {
  DOCUMENTED_FORMATS.add(schema, format);
  return schema;
};

const opt = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));
const Text = opt(z.string());
const Bool = opt(z.boolean());
const Int = opt(documented(z.number(), { type: 'integer' }));
/** `format: date-time`: text a date parser reads. */
const DateTime = opt(
  documented(
    z.string().check(z.refine((value) => !Number.isNaN(Date.parse(value)), 'not a date-time')),
    { format: 'date-time' },
  ),
);
/** `format: uuid`: parsed as text (the platform's own ids are not checked for a version). */
const Uuid = opt(documented(z.string(), { format: 'uuid' }));
const List = <T extends z.ZodMiniType>(item: T) => opt(z.array(item));

/**
 * What a field tells about a person, for the audit trail's "who saw this person": the identifier
 * (e-mail or other), the platform's data-subject id, or a link token. Keys of one kind or another
 * shown in one record belong to one person, so the trail links them (docs/audit-trail.md).
 */
export type PersonKeyKind = (typeof PERSON_KEY_KINDS)[number];
/** The kinds of key a person is shown under, as the audit trail names them. */
export const PERSON_KEY_KINDS = ['identifier', 'subject-id', 'link-token'] as const;
const personKeyKinds = new WeakMap<object, PersonKeyKind>();
/**
 * A text field that holds a person key of `kind` (a fresh schema, so only this field is marked),
 * with the format its document gives it.
 */
const PersonKey = (kind: PersonKeyKind, format?: DocumentedFormat) => {
  const schema = opt(format ? documented(z.string(), format) : z.string());
  personKeyKinds.set(schema, kind);
  return schema;
};
const IdentifierField = () => PersonKey('identifier');
/** A data-subject id: `format: uuid` in every document but the v1 link tokens'. */
const SubjectIdField = (uuid = true) =>
  PersonKey('subject-id', uuid ? { format: 'uuid' } : undefined);
const LinkTokenField = () => PersonKey('link-token');
/** The person key a field's schema is marked with, if any. */
export function personKeyKindOf(schema: unknown): PersonKeyKind | undefined {
  return typeof schema === 'object' && schema !== null ? personKeyKinds.get(schema) : undefined;
}

/** A record schema that keeps fields it does not name, so the page still shows them. */
const record = <S extends z.core.$ZodLooseShape>(shape: S) => z.looseObject(shape);

// ---- v4 (ConsentAPI_*) schemas, data-subjects-v4 unless noted.

const Geolocation = record({
  dataSubjectId: SubjectIdField(),
  receiptGuid: Uuid,
  country: Text,
  state: Text,
  stateName: Text,
});
const Source = record({
  dataSubjectId: SubjectIdField(),
  receiptGuid: Uuid,
  sourceType: Text,
  sourceContent: Text,
});
const Attachment = record({
  attachmentId: Uuid,
  fileName: Text,
  uploadedBy: Text,
  uploadDate: DateTime,
});
const NameGuid = record({ guid: Uuid, name: Text });
const Versioned = record({ guid: Uuid, name: Text, version: Int, minorVersion: Int });
const Notice = record({
  id: Uuid,
  name: Text,
  url: Text,
  guid: Uuid,
  type: Text,
  purposes: List(NameGuid),
  privacyNoticeVersion: opt(Versioned),
  collectionPoint: opt(Versioned),
});
/** ConsentAPI_DataSubjectElementResponseDto: `value` is typed `object` by the document. */
const DataElement = record({
  name: Text,
  value: z.optional(z.unknown()),
  doNotCall: Bool,
  linked: Bool,
});

const dataSubjectShape = {
  id: SubjectIdField(),
  identifier: IdentifierField(),
  identifierType: Text,
  language: Text,
  createdDate: DateTime,
  lastUpdatedDate: DateTime,
  lastTransactionDate: DateTime,
  lastReceiptGuid: Uuid,
  testDataSubject: Bool,
  doNotCall: Bool,
  dataElements: List(DataElement),
  latestGeoLocation: opt(Geolocation),
  consentGroups: List(z.string()),
  latestSource: opt(Source),
  notices: List(Notice),
  attachments: List(Attachment),
};

/** ConsentAPI_DataSubjectResponseDto: a data subject at identity level. */
const V4DataSubject = record(dataSubjectShape);

/** ConsentAPI_DataSubjectProfileResponseDto: one purpose ("profile") of a data subject. */
const V4Profile = record({
  id: Uuid,
  identifier: IdentifierField(),
  lastReceiptId: Uuid,
  name: Text,
  version: Int,
  status: Text,
  firstTransactionDate: DateTime,
  lastTransactionDate: DateTime,
  withdrawalDate: DateTime,
  reactivationDate: DateTime,
  consentDate: DateTime,
  expiryDate: DateTime,
  totalTransactionCount: Int,
  topicsList: List(z.string()),
  topics: List(record({ id: Uuid, name: Text })),
  customPreferencesMap: opt(z.record(z.string(), z.unknown())),
  customPreferences: List(
    record({ id: Uuid, name: Text, options: List(record({ id: Uuid, name: Text })) }),
  ),
  lastTransactionCollectionPointId: Uuid,
  lastTransactionCollectionPointVersion: Int,
  purposeNote: opt(record({ noteId: Uuid, noteType: Text, noteLanguage: Text, noteText: Text })),
  lastUpdatedDate: DateTime,
  lastInteractionDate: DateTime,
  attributes: opt(z.record(z.string(), z.unknown())),
  geolocation: opt(Geolocation),
  attachments: List(Attachment),
  source: opt(Source),
});

/** ConsentAPI_EmailLinkTokenResponseDto (magic-link-tokens-v4). */
const V4LinkToken = record({
  token: LinkTokenField(),
  identifier: IdentifierField(),
  createdDate: DateTime,
  expiryDate: DateTime,
});

/** ConsentAPI_DataSubjectInformationResponseDto: the data subject with purposes and tokens. */
const V4DataSubjectDetails = record({
  ...dataSubjectShape,
  profiles: List(V4Profile),
  linkTokens: List(V4LinkToken),
  consentStrings: List(
    record({ type: Text, content: Text, receivedDate: DateTime, interactionDate: DateTime }),
  ),
});

/** ConsentAPI_LinkedIdentityGroupDto (data-subject-groups-v4): a data subject in a group. */
const V4GroupMembership = record({
  id: Uuid,
  name: Text,
  identifier: IdentifierField(),
  isPrimary: Bool,
  addedDate: DateTime,
});

/** A v4 `…SliceDto`: `content`, the page's place, and the token for the next page. */
export const v4Slice = <T extends z.ZodMiniType>(item: T) =>
  record({
    content: z.array(item),
    number: Int,
    size: Int,
    first: Bool,
    last: Bool,
    numberOfElements: Int,
    empty: Bool,
    requestContinuation: Text,
    pageable: opt(z.record(z.string(), z.unknown())),
    sort: opt(z.record(z.string(), z.unknown())),
  });

/** A legacy `Page…`/`…SliceDto`: like a slice, some with totals, none with a continuation. */
const legacyPage = <T extends z.ZodMiniType>(item: T) =>
  record({
    content: z.array(item),
    number: Int,
    size: Int,
    first: Bool,
    last: Bool,
    numberOfElements: Int,
    empty: Bool,
    totalPages: Int,
    totalElements: Int,
  });

// ---- Legacy schemas.

/** data-subjects-v1: DataSubjectProfileDto, whose fields are capitalised in the document. */
const V1Profile = record({
  Id: SubjectIdField(),
  Language: Text,
  Identifier: IdentifierField(),
  LinkToken: LinkTokenField(),
  LastUpdatedDate: DateTime,
  CreatedDate: DateTime,
  TestDataSubject: Bool,
  doNotCall: Bool,
  DataElements: List(
    record({ Name: Text, Value: z.optional(z.unknown()), DoNotCall: Bool, Linked: Bool }),
  ),
  Purposes: List(
    record({
      Id: Uuid,
      LastReceiptId: Uuid,
      Name: Text,
      Version: Int,
      Status: Text,
      FirstTransactionDate: DateTime,
      LastTransactionDate: DateTime,
      WithdrawalDate: DateTime,
      ConsentDate: DateTime,
      ExpiryDate: DateTime,
      TotalTransactionCount: Int,
      LastTransactionCollectionPointId: Uuid,
      LastUpdatedDate: DateTime,
    }),
  ),
});

/** data-subjects-v2: DataSubjectDtoV2 (`dataElements` is a name → value map there). */
const V2DataSubject = record({
  id: SubjectIdField(),
  identifier: IdentifierField(),
  identifierType: Text,
  language: Text,
  lastUpdatedDate: DateTime,
  createdDate: DateTime,
  linkToken: LinkTokenField(),
  testDataSubject: Bool,
  doNotCall: Bool,
  dataElements: opt(z.record(z.string(), z.unknown())),
  dataElementsMetaData: List(
    record({ name: Text, value: z.optional(z.unknown()), linked: Bool, doNotCall: Bool }),
  ),
});

/** data-subjects-v3: DataSubjectProfilePurposeDto. */
const V3Purpose = record({
  id: Uuid,
  lastReceiptId: Uuid,
  name: Text,
  version: Int,
  status: Text,
  firstTransactionDate: DateTime,
  lastTransactionDate: DateTime,
  withdrawalDate: DateTime,
  consentDate: DateTime,
  expiryDate: DateTime,
  totalTransactionCount: Int,
  lastTransactionCollectionPointId: Uuid,
  lastUpdatedDate: DateTime,
  topics: List(record({ id: Uuid, name: Text })),
});

/** data-subjects-v3: DataSubjectProfileDto, one data subject with its purposes. */
const V3Profile = record({
  id: SubjectIdField(),
  language: Text,
  identifier: IdentifierField(),
  linkToken: LinkTokenField(),
  lastUpdatedDate: DateTime,
  createdDate: DateTime,
  testDataSubject: Bool,
  doNotCall: Bool,
  dataElements: List(record({ name: Text, value: z.optional(z.unknown()), doNotCall: Bool })),
  purposes: List(V3Purpose),
});

/** link-tokens-v1: LinkTokenDto (capitalised fields). */
const V1LinkToken = record({
  DataSubjectId: SubjectIdField(false),
  LinkToken: LinkTokenField(),
  UrlEncodedLinkToken: LinkTokenField(),
  ExpiryDate: DateTime,
  CreatedDate: DateTime,
});

const V2DataSubjectEntry = record({
  id: SubjectIdField(),
  identifier: IdentifierField(),
  identifierType: Text,
  isPrimary: Bool,
  canBePrimary: Bool,
  addedDate: DateTime,
  numberOfLinkedGroups: Int,
});

/** linked-identity-groups-v2: LinkedIdentityGroupDto_Page, a group in a listing. */
const V2GroupListed = record({
  id: Uuid,
  groupName: Text,
  numberOfDataSubjects: Int,
  createdDate: DateTime,
  lastModifiedDate: DateTime,
  primaryDataSubjectId: SubjectIdField(),
  primaryDataSubjectIdentifier: IdentifierField(),
  primaryDataSubjectIdentifierType: Text,
  isPrimary: Bool,
  primaryDataSubjects: List(record({ id: SubjectIdField(), identifier: IdentifierField() })),
});

/** linked-identity-groups-v2: LinkedIdentityGroupDto_Detailed, one group with its members. */
const V2GroupDetailed = record({
  id: Uuid,
  groupName: Text,
  createdDate: DateTime,
  primaryDataSubject: opt(V2DataSubjectEntry),
  primaryDataSubjects: List(V2DataSubjectEntry),
  dataSubjects: List(V2DataSubjectEntry),
});

// ---- Operations.

/** Where a parameter travels, and what the document says of its value. */
export interface ContractParam {
  readonly name: string;
  readonly in: 'header' | 'query' | 'path';
  readonly required: boolean;
  readonly type: 'string' | 'integer' | 'boolean';
  readonly format?: 'uuid' | 'date-time';
  readonly minimum?: number;
  readonly maximum?: number;
  readonly values?: readonly string[];
  /** The document's `default`, as the text it travels as (`false`, `lastUpdatedDate,desc`). */
  readonly default?: string;
}

/** One documented operation the console calls. */
export interface ContractOperation {
  readonly operationId: string;
  readonly document: VendorDocument;
  readonly method: 'GET';
  /** Below the service host, `{name}` for a path parameter, exactly as documented. */
  readonly path: string;
  readonly params: readonly ContractParam[];
  /** The vendor's name of the 200 answer's schema. */
  readonly answerName: string;
  readonly answer: z.ZodMiniType;
  /** True for v4 slices: `content` plus paging, continued with `requestContinuation`. */
  readonly slice: boolean;
  /**
   * True when the document declares a 404 whose body is a JSON string ("Data Subject Not Found").
   * Only such an answer means "not found"; any other 404 is a question the platform does not know.
   */
  readonly notFound: boolean;
}

const identifierHeader = (required = true): ContractParam => ({
  name: 'identifier',
  in: 'header',
  required,
  type: 'string',
});
const continuationHeader: ContractParam = {
  name: 'requestContinuation',
  in: 'header',
  required: false,
  type: 'string',
};
const page: ContractParam = {
  name: 'page',
  in: 'query',
  required: false,
  type: 'integer',
  minimum: 0,
};
const size = (maximum: number): ContractParam => ({
  name: 'size',
  in: 'query',
  required: false,
  type: 'integer',
  minimum: 1,
  maximum,
});
const sort = (values: readonly string[], defaultValue?: string): ContractParam => ({
  name: 'sort',
  in: 'query',
  required: false,
  type: 'string',
  values,
  ...(defaultValue ? { default: defaultValue } : {}),
});
const date = (name: string, required: boolean, where: 'query' = 'query'): ContractParam => ({
  name,
  in: where,
  required,
  type: 'string',
  format: 'date-time',
});
const uuid = (name: string, where: 'query' | 'path', required: boolean): ContractParam => ({
  name,
  in: where,
  required,
  type: 'string',
  format: 'uuid',
});
const flag = (name: string, defaultValue?: 'false'): ContractParam => ({
  name,
  in: 'query',
  required: false,
  type: 'boolean',
  ...(defaultValue ? { default: defaultValue } : {}),
});
const v4Paging = (sortValues: readonly string[], sortDefault?: string): ContractParam[] => [
  continuationHeader,
  page,
  size(V4_MAX_PAGE_SIZE),
  sort(sortValues, sortDefault),
];

/** The purpose statuses the v4 purpose-updates listing filters by (its `status` enum). */
export const V4_PURPOSE_STATUSES = [
  'ACTIVE',
  'PENDING',
  'WITHDRAWN',
  'OPT_OUT',
  'EXPIRED',
  'NO_CONSENT',
  'ALWAYS_ACTIVE',
  'HARD_OPT_OUT',
  'EXTEND',
  'CHANGE_PREFERENCES',
  'NOT_OPT_OUT',
  'OPT_IN',
  'IMPLICIT',
] as const;

/** Every documented operation the console calls, v4 first. */
export const PLATFORM_CONTRACT: readonly ContractOperation[] = [
  {
    operationId: 'getDataSubjectBasicDetailsV4',
    document: 'data-subjects-v4',
    ...PLATFORM_OPERATIONS.getDataSubjectBasicDetailsV4,
    params: [identifierHeader(), flag('isDNCInclude', 'false')],
    answerName: 'ConsentAPI_DataSubjectResponseDto',
    answer: V4DataSubject,
    slice: false,
    notFound: true,
  },
  {
    operationId: 'getDataSubjectDetailsV4',
    document: 'data-subjects-v4',
    ...PLATFORM_OPERATIONS.getDataSubjectDetailsV4,
    params: [
      identifierHeader(),
      flag('includeConsentGroups'),
      flag('includeAttachments'),
      flag('includeNotices'),
      flag('includeConsentStrings', 'false'),
      flag('isDNCInclude', 'false'),
    ],
    answerName: 'ConsentAPI_DataSubjectInformationResponseDto',
    answer: V4DataSubjectDetails,
    slice: false,
    notFound: true,
  },
  {
    operationId: 'getDataSubjectsV4',
    document: 'data-subjects-v4',
    ...PLATFORM_OPERATIONS.getDataSubjectsV4,
    params: [
      date('fromDate', true),
      date('toDate', true),
      flag('isDNCInclude', 'false'),
      ...v4Paging(['lastModifiedDate,asc', 'lastModifiedDate,desc'], 'lastModifiedDate,desc'),
    ],
    answerName: 'ConsentAPI_DataSubjectResponseSliceDto',
    answer: v4Slice(V4DataSubject),
    slice: true,
    notFound: true,
  },
  {
    operationId: 'getDataSubjectProfileV4',
    document: 'data-subjects-v4',
    ...PLATFORM_OPERATIONS.getDataSubjectProfileV4,
    params: [identifierHeader(), uuid('purposeGuid', 'path', true)],
    answerName: 'ConsentAPI_DataSubjectProfileResponseDto',
    answer: V4Profile,
    slice: false,
    notFound: true,
  },
  {
    operationId: 'getAllProfilesByDataSubjectV4',
    document: 'data-subjects-v4',
    ...PLATFORM_OPERATIONS.getAllProfilesByDataSubjectV4,
    params: [
      identifierHeader(),
      ...v4Paging(['lastUpdatedDate,asc', 'lastUpdatedDate,desc'], 'lastUpdatedDate,desc'),
    ],
    answerName: 'ConsentAPI_DataSubjectProfileResponseSliceDto',
    answer: v4Slice(V4Profile),
    slice: true,
    notFound: true,
  },
  {
    operationId: 'getDataSubjectProfilesV4',
    document: 'data-subjects-v4',
    ...PLATFORM_OPERATIONS.getDataSubjectProfilesV4,
    params: [
      uuid('collectionPointId', 'query', false),
      uuid('purposeId', 'query', false),
      { name: 'status', in: 'query', required: false, type: 'string', values: V4_PURPOSE_STATUSES },
      date('updatedSince', true),
      date('updatedUntil', true),
      ...v4Paging(['lastUpdatedDate,asc', 'lastUpdatedDate,desc'], 'lastUpdatedDate,desc'),
    ],
    answerName: 'ConsentAPI_DataSubjectProfileResponseSliceDto',
    answer: v4Slice(V4Profile),
    slice: true,
    notFound: true,
  },
  {
    operationId: 'getEmailLinkTokenByDataSubjectV4',
    document: 'magic-link-tokens-v4',
    ...PLATFORM_OPERATIONS.getEmailLinkTokenByDataSubjectV4,
    params: [identifierHeader()],
    answerName: 'ConsentAPI_EmailLinkTokenResponseDto',
    answer: V4LinkToken,
    slice: false,
    notFound: true,
  },
  {
    operationId: 'getEmailLinkTokensListV4',
    document: 'magic-link-tokens-v4',
    ...PLATFORM_OPERATIONS.getEmailLinkTokensListV4,
    params: [
      date('fromDate', true),
      date('toDate', true),
      ...v4Paging(['expiryDate,asc', 'expiryDate,desc'], 'expiryDate,asc'),
    ],
    answerName: 'ConsentAPI_EmailLinkTokenSliceDto',
    answer: v4Slice(V4LinkToken),
    slice: true,
    notFound: true,
  },
  {
    operationId: 'getLinkedIdentityGroupsByDataSubjectV4',
    document: 'data-subject-groups-v4',
    ...PLATFORM_OPERATIONS.getLinkedIdentityGroupsByDataSubjectV4,
    params: [identifierHeader(), uuid('linkedIdentityGroupId', 'query', false)],
    answerName: 'array of ConsentAPI_LinkedIdentityGroupDto',
    answer: z.array(V4GroupMembership),
    slice: false,
    notFound: true,
  },
  {
    operationId: 'getLinkedIdentityGroupMembersV4',
    document: 'data-subject-groups-v4',
    ...PLATFORM_OPERATIONS.getLinkedIdentityGroupMembersV4,
    params: [
      uuid('dataSubjectGroupId', 'path', true),
      ...v4Paging(['addedDate,asc', 'addedDate,desc']),
    ],
    answerName: 'ConsentAPI_LinkedIdentityGroupDtoSliceDto',
    answer: v4Slice(V4GroupMembership),
    slice: true,
    notFound: true,
  },
  // Legacy: the documents declare no 404 for these; a 404 is never "not found" for them.
  {
    operationId: 'getDataSubjectProfileUsingGET',
    document: 'data-subjects-v1',
    ...PLATFORM_OPERATIONS.getDataSubjectProfileUsingGET,
    params: [
      identifierHeader(false),
      uuid('purposeGuid', 'query', false),
      date('since', false),
      date('toDate', false),
      date('updatedSince', false),
      flag('isDNCInclude'),
      continuationHeader,
      page,
      size(50),
    ],
    answerName: 'DataSubjectProfileSliceDto',
    answer: legacyPage(V1Profile),
    slice: false,
    notFound: false,
  },
  {
    operationId: 'getDataSubjectsUsingGET',
    document: 'data-subjects-v2',
    ...PLATFORM_OPERATIONS.getDataSubjectsUsingGET,
    params: [
      identifierHeader(false),
      date('updatedSince', false),
      date('updatedUntil', false),
      flag('isDNCInclude'),
      page,
      size(2_000),
    ],
    answerName: 'DataSubjectSliceDtoV2',
    answer: legacyPage(V2DataSubject),
    slice: false,
    notFound: false,
  },
  {
    operationId: 'getV3DatasubjectsProfileUsingGet',
    document: 'data-subjects-v3',
    ...PLATFORM_OPERATIONS.getV3DatasubjectsProfileUsingGet,
    params: [identifierHeader(), flag('includeInstantLinkToken'), flag('isDNCInclude')],
    answerName: 'DSPreferneceCache_DataSubjectProfileDto',
    answer: V3Profile,
    slice: false,
    notFound: false,
  },
  {
    operationId: 'getV3DatasubjectProfilesUsingPOST',
    document: 'data-subjects-v3',
    ...PLATFORM_OPERATIONS.getV3DatasubjectProfilesUsingPOST,
    params: [
      date('updatedSince', false),
      date('updatedUntil', false),
      uuid('purposeGuid', 'query', false),
      identifierHeader(false),
      continuationHeader,
      page,
      size(100),
    ],
    answerName: 'DSPreferneceCache_DataSubjectProfilesSliceDto',
    answer: legacyPage(V3Profile),
    slice: false,
    notFound: false,
  },
  {
    operationId: 'getLinkTokensUsingGET',
    document: 'link-tokens-v1',
    ...PLATFORM_OPERATIONS.getLinkTokensUsingGET,
    params: [
      date('since', false),
      date('until', false),
      identifierHeader(false),
      page,
      size(2_000),
    ],
    answerName: 'PageLinkTokenDto',
    answer: legacyPage(V1LinkToken),
    slice: false,
    notFound: false,
  },
  {
    operationId: 'getLinkedIdentityGroupsUsingGET',
    document: 'linked-identity-groups-v2',
    ...PLATFORM_OPERATIONS.getLinkedIdentityGroupsUsingGET,
    params: [
      { name: 'primaryDataSubjectIdentifier', in: 'header', required: false, type: 'string' },
      continuationHeader,
      page,
      size(100),
    ],
    answerName: 'PageLinkedIdentityGroupDto_Page',
    answer: legacyPage(V2GroupListed),
    slice: false,
    notFound: false,
  },
  {
    operationId: 'getLinkedIdentityGroupUsingGET',
    document: 'linked-identity-groups-v2',
    ...PLATFORM_OPERATIONS.getLinkedIdentityGroupUsingGET,
    params: [uuid('linkedIdentityGroupId', 'path', true), flag('displayOrganizations')],
    answerName: 'LinkedIdentityGroupDto_Detailed',
    answer: V2GroupDetailed,
    slice: false,
    notFound: false,
  },
];

/** The documented operation with this vendor id. */
export function contractOperation(
  operationId: string | null | undefined,
): ContractOperation | undefined {
  return PLATFORM_CONTRACT.find((operation) => operation.operationId === operationId);
}

/** The documented operation at `method` `path` (a template with `{name}` placeholders). */
export function contractOperationAt(method: string, path: string): ContractOperation | undefined {
  const shape = (text: string) => text.replace(/\{[^}]+\}/g, '{}');
  return PLATFORM_CONTRACT.find(
    (operation) => operation.method === method && shape(operation.path) === shape(path),
  );
}

/**
 * What the platform's not-found answers name: the documents describe them as "Data Subject Not
 * Found" and "Unable to find a datasubject with given identifier", and the console's lookups ask
 * only for data subjects, their purposes and profiles, link tokens and linked identity groups.
 */
const NAMES_WHAT_IS_MISSING = /data ?subject|purpose|profile|token|group|identifier/i;

/**
 * True when a 404's body is the documented not-found answer: JSON whose value is a string (the
 * documents give `application/json` with `type: string`, e.g. "Data Subject Not Found") that names
 * what was not found. An empty body, an HTML page, a JSON object, or a bare reason phrase such as
 * "Not Found" is not: every gateway and proxy sends those for a path it does not know, so they
 * cannot say the platform looked. Calling a wrong address "no such data subject" would be the
 * worse mistake (an admin would believe a person's data is absent), so such a 404 is reported as a
 * configuration problem (docs/platform-contract.md, "Errors").
 */
export function isDocumentedNotFound(contentType: string | undefined, body: string): boolean {
  if (!contentType || !/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType.trim()))
    return false;
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'string' && NAMES_WHAT_IS_MISSING.test(value);
  } catch {
    return false;
  }
}
