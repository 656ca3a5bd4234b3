// The data-subject operations catalog as data: the ten v4 operations of the platform's migration
// guide in its order, each mapped to the documented operation it runs (data-subject-contract.ts,
// with the reason for the mapping), and the earlier-version operations they replace. The BFF
// builds upstream calls only from it, the mock serves it, and the SPA builds its forms from it.
import * as z from 'zod/mini';
import { PROBLEM_TYPES } from './problem';
import {
  contractOperation,
  LIST_RANGE_DAYS,
  PURPOSE_UPDATES_RANGE_DAYS,
  V4_MAX_PAGE_SIZE,
  V4_PURPOSE_STATUSES,
} from './data-subject-contract';

/** Where a parameter travels on the wire. */
export const PARAM_LOCATIONS = ['header', 'path', 'query'] as const;
export type ParamLocation = (typeof PARAM_LOCATIONS)[number];

/**
 * What a parameter's value must look like:
 * - `identifier`: a data-subject identifier (e-mail, phone, customer id): 1–256 characters, no
 *   control characters; hashed in the audit trail, never logged;
 * - `uuid`: a GUID such as a purpose or collection point id;
 * - `id`: an opaque id of letters, digits and `._~-` (safe in a path segment);
 * - `date-time`: ISO 8601, a date or a date and time with a zone; sent as UTC with milliseconds;
 * - `integer`: a whole number within `min`…`max`;
 * - `enum`: one of `values`;
 * - `boolean`: `true` or `false` (the form sends a flag only when it is ticked, so the platform's
 *   default applies otherwise).
 */
const PARAM_FORMATS = [
  'identifier',
  'uuid',
  'id',
  'date-time',
  'integer',
  'enum',
  'boolean',
] as const;
export type ParamFormat = (typeof PARAM_FORMATS)[number];

/** API versions of the operations. */
const OPERATION_VERSIONS = ['v4', 'v1', 'v2', 'v3'] as const;

/**
 * What an operation's answer holds, so the SPA can name its records. The answer's shape itself is
 * the documented schema of the operation (data-subject-contract.ts), found by `operationId`.
 */
const ANSWER_KINDS = [
  'subject',
  'subject-purposes',
  'subject-page',
  'purpose',
  'purpose-page',
  'link-token',
  'link-token-page',
  'group-list',
  'member-page',
  'group',
] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

const OperationParamSchema = z.object({
  /** The name in lookups (`params`) and in the form. */
  name: z.string(),
  label: z.string(),
  location: z.enum(PARAM_LOCATIONS),
  /** The header, query or `{placeholder}` name on the wire. */
  wireName: z.string(),
  format: z.enum(PARAM_FORMATS),
  required: z.boolean(),
  description: z.string(),
  /** `enum` only. */
  values: z.optional(z.array(z.string())),
  /** `integer` only. */
  min: z.optional(z.int()),
  max: z.optional(z.int()),
  /** The platform's documented default, applied by the platform when the parameter is not sent. */
  default: z.optional(z.string()),
  /** True for a refinement the common lookup does without: the form folds it under "Options". */
  advanced: z.optional(z.boolean()),
});
export type OperationParam = z.infer<typeof OperationParamSchema>;

const LegacyEquivalentSchema = z.object({
  /** Id of a legacy operation of the catalog. */
  operation: z.string(),
  /** Legacy parameter name -> the v4 parameter whose value it takes. */
  params: z.record(z.string(), z.string()),
  /** What to expect when comparing the two. */
  note: z.string(),
  /**
   * Where the two documents name the same thing differently: a field of a legacy record -> the v4
   * field (`groupName` -> `name`, `purposes[]` -> `profiles[]`), or `(records)` when a list nested
   * in the legacy record holds what v4 returns as its records (`purposes[]` -> `(records)`).
   * Capitalised v1 names need no entry: `Identifier` compares with `identifier`.
   */
  fields: z.optional(z.record(z.string(), z.string())),
});
export type LegacyEquivalent = z.infer<typeof LegacyEquivalentSchema>;

const DataSubjectOperationSchema = z.object({
  id: z.string(),
  version: z.enum(OPERATION_VERSIONS),
  /** Row of the migration guide's list of ten v4 operations (v4 operations only). */
  row: z.nullable(z.int()),
  group: z.string(),
  title: z.string(),
  /** What the operation returns, in plain words. */
  returns: z.string(),
  method: z.literal('GET'),
  /** Below the upstream base URL; `{wireName}` for each path parameter. */
  path: z.string(),
  /** True when the vendor's documents give this method and path (always, for the built-in catalog). */
  documented: z.boolean(),
  /** The vendor's operation id of the documented operation it runs. */
  operationId: z.nullable(z.string()),
  /** The vendor document that describes it, in words ("the vendor's data-subjects v4 …"). */
  source: z.nullable(z.string()),
  /** v4 only: why this row of the migration guide runs this documented operation. */
  decision: z.optional(z.string()),
  /** True when DATA_SUBJECT_OPERATIONS_FILE changed the path or a parameter's location. */
  overridden: z.boolean(),
  params: z.array(OperationParamSchema),
  answer: z.enum(ANSWER_KINDS),
  /** Id of the module rate-limit rule that counts the path; null: account limits only. */
  moduleRule: z.nullable(z.string()),
  /** v4 only: the earlier-version operations it replaces. */
  legacy: z.array(LegacyEquivalentSchema),
  /** Why there is no legacy equivalent, or a caveat about the ones listed. */
  legacyNote: z.nullable(z.string()),
  /** Two `date-time` parameters that bound a range: from ≤ to, at most `maxDays` apart. */
  dateRange: z.optional(z.object({ from: z.string(), to: z.string(), maxDays: z.int() })),
  /** Paging with a continuation token: where it travels and where the answer has it. */
  continuation: z.optional(
    z.object({
      location: z.enum(PARAM_LOCATIONS),
      wireName: z.string(),
      responseField: z.string(),
    }),
  ),
  /** A caveat from the migration guide, shown next to the operation. */
  note: z.optional(z.string()),
});
export type DataSubjectOperation = z.infer<typeof DataSubjectOperationSchema>;

/** `GET /api/data-subjects/operations`. */
export const DataSubjectCatalogSchema = z.object({
  operations: z.array(DataSubjectOperationSchema),
});
export type DataSubjectCatalog = z.infer<typeof DataSubjectCatalogSchema>;

/** Longest identifier the console sends (the platform states none; real ones are far shorter). */
export const IDENTIFIER_MAX_LENGTH = 256;
/** Longest continuation token the console passes back. */
export const CONTINUATION_MAX_LENGTH = 2_048;

const V4_DOC = {
  subjects: 'the vendor’s data-subjects v4 OpenAPI document',
  tokens: 'the vendor’s magic-link-tokens v4 OpenAPI document',
  groups: 'the vendor’s data-subject-groups v4 OpenAPI document',
} as const;

// Parameters used by several operations.
const identifier = (
  description = 'The data subject: e-mail address, phone number or other id',
  required = true,
): OperationParam => ({
  name: 'identifier',
  label: 'Identifier',
  location: 'header',
  wireName: 'identifier',
  format: 'identifier',
  required,
  description,
});
const uuidParam = (
  name: string,
  label: string,
  location: ParamLocation,
  required: boolean,
  description: string,
  wireName = name,
): OperationParam => ({
  name,
  label,
  location,
  wireName,
  format: 'uuid',
  required,
  description,
});
const dateParam = (
  name: string,
  label: string,
  description: string,
  required = true,
): OperationParam => ({
  name,
  label,
  location: 'query',
  wireName: name,
  format: 'date-time',
  required,
  description,
});
const sizeParam = (
  max: number,
  description = `Records per page, at most ${max}`,
): OperationParam => ({
  name: 'size',
  label: 'Page size',
  location: 'query',
  wireName: 'size',
  format: 'integer',
  required: false,
  description,
  min: 1,
  max,
});
const pageParam = (): OperationParam => ({
  name: 'page',
  label: 'Page',
  location: 'query',
  wireName: 'page',
  format: 'integer',
  required: false,
  description: 'Page number, from 0',
  min: 0,
  max: 100_000,
});
/** A documented optional flag in the query: sent only when set, else the platform's default. */
const flagParam = (
  name: string,
  label: string,
  description: string,
  defaultValue?: 'false' | 'true',
): OperationParam => ({
  name,
  label,
  location: 'query',
  wireName: name,
  format: 'boolean',
  required: false,
  description,
  ...(defaultValue ? { default: defaultValue } : {}),
  advanced: true,
});
/**
 * `isDNCInclude`: the data-subjects v4 document gives it a default of false; the v2 and v3
 * documents declare it without one (`legacy`).
 */
const dncParam = (legacy = false): OperationParam =>
  flagParam(
    'isDNCInclude',
    'Include data subjects on the Do Not Call list',
    'Without it, the platform leaves out a data subject that is on its Do Not Call list',
    legacy ? undefined : 'false',
  );
/** `sort` of a slice: the documented enum (field,direction) and its default, if it has one. */
const sortParam = (values: readonly string[], defaultValue?: string): OperationParam => ({
  name: 'sort',
  label: 'Order',
  location: 'query',
  wireName: 'sort',
  format: 'enum',
  required: false,
  description: 'The order the platform returns the records in',
  values: [...values],
  ...(defaultValue ? { default: defaultValue } : {}),
  advanced: true,
});
/** `page` of a legacy listing, folded under Options: "Load more" on the comparison sets it. */
const legacyPageParam = (): OperationParam => ({ ...pageParam(), advanced: true });

/** Every v4 slice pages with the `requestContinuation` header and answer field. */
const V4_CONTINUATION = {
  location: 'header',
  wireName: 'requestContinuation',
  responseField: 'requestContinuation',
} as const;

/** Purpose statuses the mock's data uses: the first six of the documented ones. */
export const PURPOSE_STATUSES = V4_PURPOSE_STATUSES.slice(
  0,
  6,
) as readonly (typeof V4_PURPOSE_STATUSES)[number][];

// Method and path are the documented operation's (data-subject-contract.ts, by operationId): the
// catalog adds what the page needs to it, and never writes a platform path a second time.
type BuiltIn = Omit<DataSubjectOperation, 'overridden' | 'id' | 'method' | 'path'> & {
  id: DataSubjectOperationId;
};

/** A built-in operation with the method and path of the documented operation it runs. */
function documented(operation: BuiltIn): DataSubjectOperation {
  const contract = contractOperation(operation.operationId);
  if (!contract || contract.method !== 'GET') {
    throw new Error(`${operation.id}: no documented GET operation ${operation.operationId}`);
  }
  return { ...operation, method: contract.method, path: contract.path, overridden: false };
}

/** The ten v4 operations of the migration guide, in its order. */
const V4_OPERATIONS: readonly BuiltIn[] = [
  {
    id: 'v4-basic-details',
    version: 'v4',
    row: 1,
    group: 'Data subject',
    title: 'Basic details',
    returns:
      'The data subject at identity level: identifier, dates, data elements, notices. No purposes.',
    documented: true,
    operationId: 'getDataSubjectBasicDetailsV4',
    source: V4_DOC.subjects,
    decision:
      'Row 1 asks for an identifier and returns identity-level details without consent information; the document’s basic-details operation is exactly that.',
    params: [identifier(), dncParam()],
    answer: 'subject',
    moduleRule: 'v4-basic-details-minute',
    legacy: [
      {
        operation: 'v2-datasubjects',
        params: { identifier: 'identifier', isDNCInclude: 'isDNCInclude' },
        note: 'Both return the data subject without purposes; v2 wraps it in a page and keeps data elements as a name → value map.',
      },
    ],
    legacyNote: null,
  },
  {
    id: 'v4-details',
    version: 'v4',
    row: 2,
    group: 'Data subject',
    title: 'Details with purposes',
    returns:
      'Everything in basic details, plus the data subject’s purposes (profiles) and link tokens.',
    documented: true,
    operationId: 'getDataSubjectDetailsV4',
    source: V4_DOC.subjects,
    decision:
      'Row 2 expands row 1 with purpose information; the document’s details operation returns the basic details plus profiles (purposes) and link tokens.',
    params: [
      identifier(),
      flagParam(
        'includeConsentGroups',
        'Include consent groups',
        'Adds the data subject’s consent (data subject group) information',
      ),
      flagParam(
        'includeAttachments',
        'Include attachments',
        'Adds the data subject’s attachment information',
      ),
      flagParam(
        'includeNotices',
        'Include notices',
        'Adds the collection points’ notice information',
      ),
      flagParam(
        'includeConsentStrings',
        'Include consent strings',
        'Adds the consent strings the data subject gave',
        'false',
      ),
      dncParam(),
    ],
    answer: 'subject-purposes',
    moduleRule: 'v4-details-minute',
    legacy: [
      {
        operation: 'v3-datasubject-profile',
        params: { identifier: 'identifier', isDNCInclude: 'isDNCInclude' },
        note: 'Both carry the purposes: v3 calls them purposes, v4 profiles.',
        fields: { 'purposes[]': 'profiles[]' },
      },
    ],
    legacyNote: null,
  },
  {
    id: 'v4-data-subjects',
    version: 'v4',
    row: 3,
    group: 'Data subject',
    title: 'Data subjects changed in a date range',
    returns: `Every data subject last changed in a date range of at most ${LIST_RANGE_DAYS} days, one page at a time.`,
    documented: true,
    operationId: 'getDataSubjectsV4',
    source: V4_DOC.subjects,
    decision: `Row 3 needs no identifier and states no behaviour. Rows 1, 2, 4 and 5 take the four identifier-based data-subject reads of the document (ds-profiles requires an identifier, so it is row 5), which leaves the list of data subjects as the one data-subject read without an identifier. The document requires fromDate and toDate for it (at most ${LIST_RANGE_DAYS} days apart), so the console asks for them; the documents win over the guide's "none".`,
    params: [
      dateParam('fromDate', 'From', 'Start of the range'),
      dateParam('toDate', 'To', 'End of the range'),
      sizeParam(V4_MAX_PAGE_SIZE),
      sortParam(['lastModifiedDate,desc', 'lastModifiedDate,asc'], 'lastModifiedDate,desc'),
      dncParam(),
    ],
    answer: 'subject-page',
    moduleRule: null,
    legacy: [
      {
        operation: 'v2-datasubjects',
        params: { updatedSince: 'fromDate', updatedUntil: 'toDate', isDNCInclude: 'isDNCInclude' },
        note: 'v2 lists data subjects updated in the range with page numbers and totals; v4 pages with a continuation token.',
      },
      {
        operation: 'v3-datasubject-profiles',
        params: { updatedSince: 'fromDate', updatedUntil: 'toDate' },
        note: 'v3 lists data-subject profiles updated in the range, with their purposes.',
      },
    ],
    legacyNote: null,
    dateRange: { from: 'fromDate', to: 'toDate', maxDays: LIST_RANGE_DAYS },
    continuation: V4_CONTINUATION,
  },
  {
    id: 'v4-purpose-profile',
    version: 'v4',
    row: 4,
    group: 'Purposes',
    title: 'One purpose of a data subject',
    returns: 'The data subject’s record of one purpose: status, dates, topics and preferences.',
    documented: true,
    operationId: 'getDataSubjectProfileV4',
    source: V4_DOC.subjects,
    decision:
      'Row 4 takes an identifier and a purpose GUID; the document’s profiles/{purposeGuid} operation takes exactly those (the identifier as a header, the GUID in the path).',
    params: [
      identifier(),
      uuidParam('purposeGuid', 'Purpose GUID', 'path', true, 'The purpose to return'),
    ],
    answer: 'purpose',
    moduleRule: 'v4-purpose-profile-minute',
    legacy: [
      {
        operation: 'v1-datasubject-profiles',
        params: { identifier: 'identifier', purposeGuid: 'purposeGuid' },
        note: 'v1 returns the data subject’s profile filtered to this purpose; v4 only the purpose record.',
        fields: { 'purposes[]': '(records)' },
      },
    ],
    legacyNote: null,
  },
  {
    id: 'v4-purposes',
    version: 'v4',
    row: 5,
    group: 'Purposes',
    title: 'All purposes of a data subject',
    returns: 'Every purpose record of one data subject, one page at a time.',
    documented: true,
    operationId: 'getAllProfilesByDataSubjectV4',
    source: V4_DOC.subjects,
    decision:
      'Row 5 takes an identifier and returns all purpose information of that data subject, "similar to v1 and v3"; the document’s ds-profiles operation lists every profile (purpose) of one data subject.',
    params: [
      identifier(),
      sizeParam(V4_MAX_PAGE_SIZE),
      sortParam(['lastUpdatedDate,desc', 'lastUpdatedDate,asc'], 'lastUpdatedDate,desc'),
    ],
    answer: 'purpose-page',
    moduleRule: 'v4-ds-profiles-minute',
    legacy: [
      {
        operation: 'v1-datasubject-profiles',
        params: { identifier: 'identifier' },
        note: 'v1 returns the profile with its purposes nested; v4 lists the purpose records themselves.',
        fields: { 'purposes[]': '(records)' },
      },
      {
        operation: 'v3-datasubject-profile',
        params: { identifier: 'identifier' },
        note: 'v3 returns the profile with its purposes nested; v4 lists the purpose records themselves.',
        fields: { 'purposes[]': '(records)' },
      },
    ],
    legacyNote: null,
    continuation: V4_CONTINUATION,
  },
  {
    id: 'v4-purposes-by-date',
    version: 'v4',
    row: 6,
    group: 'Purposes',
    title: 'Purposes updated in a date range',
    returns: `Purpose records of all data subjects updated in a range of at most ${PURPOSE_UPDATES_RANGE_DAYS} days, optionally for one collection point, purpose or status.`,
    documented: true,
    operationId: 'getDataSubjectProfilesV4',
    source: V4_DOC.subjects,
    decision:
      'Row 6 takes updatedSince and updatedUntil and filters by last collection point, purpose and status; the document’s profiles operation has exactly these parameters.',
    params: [
      dateParam('updatedSince', 'Updated since', 'Start of the range'),
      dateParam('updatedUntil', 'Updated until', 'End of the range'),
      uuidParam(
        'collectionPointId',
        'Last collection point GUID',
        'query',
        false,
        'Only purposes last collected at this collection point',
      ),
      uuidParam('purposeId', 'Purpose GUID', 'query', false, 'Only this purpose'),
      {
        name: 'status',
        label: 'Status',
        location: 'query',
        wireName: 'status',
        format: 'enum',
        required: false,
        description: 'Only purposes in this status',
        values: [...V4_PURPOSE_STATUSES],
      },
      sizeParam(V4_MAX_PAGE_SIZE),
      sortParam(['lastUpdatedDate,desc', 'lastUpdatedDate,asc'], 'lastUpdatedDate,desc'),
    ],
    answer: 'purpose-page',
    moduleRule: null,
    legacy: [],
    legacyNote:
      'Not applicable: the migration guide says no v1, v2 or v3 operation extracts purposes by date range.',
    dateRange: {
      from: 'updatedSince',
      to: 'updatedUntil',
      maxDays: PURPOSE_UPDATES_RANGE_DAYS,
    },
    continuation: V4_CONTINUATION,
  },
  {
    id: 'v4-link-token',
    version: 'v4',
    row: 7,
    group: 'Link tokens',
    title: 'Link token of a data subject',
    returns: 'The e-mail link token of one data subject, with its dates.',
    documented: true,
    operationId: 'getEmailLinkTokenByDataSubjectV4',
    source: V4_DOC.tokens,
    decision:
      'Row 7 returns the link token of one data subject by identifier; the link-token document’s operation under datasubjects/linktokens does that.',
    params: [identifier()],
    answer: 'link-token',
    moduleRule: null,
    legacy: [
      {
        operation: 'v1-link-tokens',
        params: { identifier: 'identifier' },
        note: 'v1 lists the data subject’s link tokens page by page with capitalised field names; v4 returns its one token.',
        fields: { linkToken: 'token' },
      },
    ],
    legacyNote: null,
  },
  {
    id: 'v4-link-tokens',
    version: 'v4',
    row: 8,
    group: 'Link tokens',
    title: 'All link tokens in a date range',
    returns: `All link tokens in a date range of at most ${LIST_RANGE_DAYS} days, one page at a time.`,
    documented: true,
    operationId: 'getEmailLinkTokensListV4',
    source: V4_DOC.tokens,
    decision:
      'Row 8 takes fromDate and toDate and pages with a continuation token; the link-token document’s list operation does, with the token as the requestContinuation header.',
    params: [
      dateParam('fromDate', 'From', 'Start of the range'),
      dateParam('toDate', 'To', 'End of the range'),
      sizeParam(V4_MAX_PAGE_SIZE),
      sortParam(['expiryDate,asc', 'expiryDate,desc'], 'expiryDate,asc'),
    ],
    answer: 'link-token-page',
    moduleRule: null,
    legacy: [
      {
        operation: 'v1-link-tokens',
        params: { since: 'fromDate', until: 'toDate' },
        note: 'v1 lists link tokens created in the range with page numbers and totals; v4 pages with a continuation token.',
        fields: { linkToken: 'token' },
      },
    ],
    legacyNote: null,
    dateRange: { from: 'fromDate', to: 'toDate', maxDays: LIST_RANGE_DAYS },
    continuation: V4_CONTINUATION,
  },
  {
    id: 'v4-linked-groups',
    version: 'v4',
    row: 9,
    group: 'Linked identity groups',
    title: 'Linked identity groups of a data subject',
    returns: 'The data subject’s memberships of linked identity groups, and whether it is primary.',
    documented: true,
    operationId: 'getLinkedIdentityGroupsByDataSubjectV4',
    source: V4_DOC.groups,
    decision:
      'Row 9 returns the linked identity groups of a data subject by identifier; the group document’s GET on linkedidentitygroups takes the identifier header and returns its group associations.',
    params: [
      identifier('The data subject whose groups to list'),
      {
        ...uuidParam(
          'linkedIdentityGroupId',
          'Linked identity group id',
          'query',
          false,
          'Only the data subject’s membership of this group',
        ),
        advanced: true,
      },
    ],
    answer: 'group-list',
    moduleRule: null,
    legacy: [
      {
        operation: 'v2-linked-groups',
        params: { primaryDataSubjectIdentifier: 'identifier' },
        note: 'v2 takes the identifier as primaryDataSubjectIdentifier, names the group groupName and pages with page numbers.',
        fields: { groupName: 'name' },
      },
    ],
    legacyNote: null,
  },
  {
    id: 'v4-linked-group',
    version: 'v4',
    row: 10,
    group: 'Linked identity groups',
    title: 'Members of a linked identity group',
    returns: 'The members of one linked identity group, primary ones marked, one page at a time.',
    documented: true,
    operationId: 'getLinkedIdentityGroupMembersV4',
    source: V4_DOC.groups,
    decision:
      'Row 10 takes only a linked identity group id; the one v4 read of a group by its id is the members operation (the id travels in the path as dataSubjectGroupId).',
    params: [
      uuidParam(
        'linkedIdentityGroupId',
        'Linked identity group id',
        'path',
        true,
        'The group to return',
        'dataSubjectGroupId',
      ),
      sizeParam(V4_MAX_PAGE_SIZE),
      // The document gives the enum without a default.
      sortParam(['addedDate,desc', 'addedDate,asc']),
    ],
    answer: 'member-page',
    moduleRule: null,
    legacy: [
      {
        operation: 'v2-linked-group',
        params: { linkedIdentityGroupId: 'linkedIdentityGroupId' },
        note: 'v2 returns the group with its data subjects nested; v4 lists the members themselves.',
        fields: { 'dataSubjects[]': '(records)' },
      },
    ],
    legacyNote: null,
    continuation: V4_CONTINUATION,
  },
];

const LEGACY = {
  v1: 'the vendor’s data-subjects (v1) OpenAPI document',
  v2: 'the vendor’s data-subjects v2 OpenAPI document',
  v3: 'the vendor’s data-subjects v3 OpenAPI document',
  tokens: 'the vendor’s magic-link-tokens (v1) OpenAPI document',
  groups: 'the vendor’s data-subject-groups (v2) OpenAPI document',
} as const;

/** The earlier-version operations the v4 ones replace, for the comparison view. */
const LEGACY_OPERATIONS: readonly BuiltIn[] = [
  {
    id: 'v1-datasubject-profiles',
    version: 'v1',
    row: null,
    group: 'Legacy',
    title: 'v1 data-subject profiles',
    returns: 'The data subject’s profile with all its purposes (or one purpose), page by page.',
    documented: true,
    operationId: 'getDataSubjectProfileUsingGET',
    source: LEGACY.v1,
    params: [
      identifier(),
      uuidParam('purposeGuid', 'Purpose GUID', 'query', false, 'Only this purpose'),
      legacyPageParam(),
      sizeParam(50, 'Profiles per page, at most 50'),
    ],
    answer: 'subject-page',
    moduleRule: 'v1-datasubject-profiles-quota',
    legacy: [],
    legacyNote: null,
  },
  {
    id: 'v2-datasubjects',
    version: 'v2',
    row: null,
    group: 'Legacy',
    title: 'v2 data subjects',
    returns: 'Data subjects, by identifier or updated in a date range, page by page.',
    documented: true,
    operationId: 'getDataSubjectsUsingGET',
    source: LEGACY.v2,
    params: [
      identifier('Only this data subject', false),
      dateParam('updatedSince', 'Updated since', 'Start of the range', false),
      dateParam('updatedUntil', 'Updated until', 'End of the range', false),
      // The v2 document gives no default; the comparison passes the v4 lookup's choice on.
      dncParam(true),
      legacyPageParam(),
      sizeParam(2_000),
    ],
    answer: 'subject-page',
    moduleRule: 'v2-datasubjects-quota',
    legacy: [],
    legacyNote: null,
  },
  {
    id: 'v3-datasubject-profile',
    version: 'v3',
    row: null,
    group: 'Legacy',
    title: 'v3 data-subject profile',
    returns: 'The data subject’s profile with its purposes.',
    documented: true,
    operationId: 'getV3DatasubjectsProfileUsingGet',
    source: LEGACY.v3,
    params: [identifier(), dncParam(true)],
    answer: 'subject-purposes',
    moduleRule: 'v3-datasubjects-quota',
    legacy: [],
    legacyNote: null,
  },
  {
    id: 'v3-datasubject-profiles',
    version: 'v3',
    row: null,
    group: 'Legacy',
    title: 'v3 data-subject profiles',
    returns: 'Data-subject profiles updated in a date range, with their purposes, page by page.',
    documented: true,
    operationId: 'getV3DatasubjectProfilesUsingPOST',
    source: LEGACY.v3,
    params: [
      dateParam('updatedSince', 'Updated since', 'Start of the range', false),
      dateParam('updatedUntil', 'Updated until', 'End of the range', false),
      legacyPageParam(),
      sizeParam(100),
    ],
    answer: 'subject-page',
    moduleRule: null,
    legacy: [],
    legacyNote: null,
  },
  {
    id: 'v1-link-tokens',
    version: 'v1',
    row: null,
    group: 'Legacy',
    title: 'v1 link tokens',
    returns: 'Link tokens of a data subject or created in a date range, page by page.',
    documented: true,
    operationId: 'getLinkTokensUsingGET',
    source: LEGACY.tokens,
    params: [
      identifier('Only this data subject’s tokens', false),
      dateParam('since', 'Since', 'Start of the range', false),
      dateParam('until', 'Until', 'End of the range', false),
      legacyPageParam(),
      sizeParam(2_000),
    ],
    answer: 'link-token-page',
    moduleRule: null,
    legacy: [],
    legacyNote: null,
  },
  {
    id: 'v2-linked-groups',
    version: 'v2',
    row: null,
    group: 'Legacy',
    title: 'v2 linked identity groups',
    returns: 'The linked identity groups of a primary data subject, page by page.',
    documented: true,
    operationId: 'getLinkedIdentityGroupsUsingGET',
    source: LEGACY.groups,
    params: [
      {
        ...identifier('The primary data subject of the groups'),
        name: 'primaryDataSubjectIdentifier',
        label: 'Primary data subject identifier',
        wireName: 'primaryDataSubjectIdentifier',
      },
      legacyPageParam(),
      sizeParam(100),
    ],
    answer: 'group-list',
    moduleRule: null,
    legacy: [],
    legacyNote: null,
  },
  {
    id: 'v2-linked-group',
    version: 'v2',
    row: null,
    group: 'Legacy',
    title: 'v2 linked identity group',
    returns: 'One linked identity group with its data subjects.',
    documented: true,
    operationId: 'getLinkedIdentityGroupUsingGET',
    source: LEGACY.groups,
    params: [
      uuidParam(
        'linkedIdentityGroupId',
        'Linked identity group id',
        'path',
        true,
        'The group to return',
      ),
    ],
    answer: 'group',
    moduleRule: null,
    legacy: [],
    legacyNote: null,
  },
];

/** The built-in catalog: v4 operations in the guide's order, then the legacy ones. */
export const BUILT_IN_OPERATIONS: readonly DataSubjectOperation[] = [
  ...V4_OPERATIONS,
  ...LEGACY_OPERATIONS,
].map(documented);

/** Every operation id of the built-in catalog; an override file cannot add ids. */
export const DATA_SUBJECT_OPERATION_IDS = [
  'v4-basic-details',
  'v4-details',
  'v4-data-subjects',
  'v4-purpose-profile',
  'v4-purposes',
  'v4-purposes-by-date',
  'v4-link-token',
  'v4-link-tokens',
  'v4-linked-groups',
  'v4-linked-group',
  'v1-datasubject-profiles',
  'v2-datasubjects',
  'v3-datasubject-profile',
  'v3-datasubject-profiles',
  'v1-link-tokens',
  'v2-linked-groups',
  'v2-linked-group',
] as const;
export type DataSubjectOperationId = (typeof DATA_SUBJECT_OPERATION_IDS)[number];

/** "v4 · Basic details", or a legacy operation's title (which names its version). */
export function operationLabel(operation: Pick<DataSubjectOperation, 'version' | 'title'>): string {
  return operation.version === 'v4' ? `v4 · ${operation.title}` : operation.title;
}

/** The operation `id` of `operations`, if there is one. */
export function findOperation(
  operations: readonly DataSubjectOperation[],
  id: string,
): DataSubjectOperation | undefined {
  return operations.find((operation) => operation.id === id);
}

/** Problem types of the data-subject and audit routes (a view of PROBLEM_TYPES). */
export const DATA_SUBJECT_PROBLEM_TYPES = {
  notFound: PROBLEM_TYPES.dataSubjectNotFound,
  operationUnavailable: PROBLEM_TYPES.dataSubjectOperationUnavailable,
  auditUnavailable: PROBLEM_TYPES.auditUnavailable,
} as const;
