// The data-subject operations catalog (PRODUCT.md §6) as data: the ten v4 operations of
// upstream-api.md §4.2 in its order, and the earlier-version operations of §4.3 they replace. The
// BFF builds upstream calls only from it, the mock serves it, and the SPA builds its forms from it.
import * as z from 'zod/mini';

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
 * - `enum`: one of `values`.
 */
export const PARAM_FORMATS = ['identifier', 'uuid', 'id', 'date-time', 'integer', 'enum'] as const;
export type ParamFormat = (typeof PARAM_FORMATS)[number];

/** API versions of the operations. */
export const OPERATION_VERSIONS = ['v4', 'v1', 'v2', 'v3'] as const;

/**
 * How an operation's answer is shaped, so the BFF knows which schema validates it and the SPA how
 * to lay it out. The shapes are the console's assumption (upstream-api.md §2: "fields not shown").
 */
export const ANSWER_KINDS = [
  'subject',
  'subject-purposes',
  'profile-page',
  'purpose-page',
  'link-token',
  'link-token-page',
  'group-page',
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
});
export type OperationParam = z.infer<typeof OperationParamSchema>;

const LegacyEquivalentSchema = z.object({
  /** Id of a legacy operation of the catalog. */
  operation: z.string(),
  /** Legacy parameter name -> the v4 parameter whose value it takes. */
  params: z.record(z.string(), z.string()),
  /** What to expect when comparing the two. */
  note: z.string(),
});
export type LegacyEquivalent = z.infer<typeof LegacyEquivalentSchema>;

export const DataSubjectOperationSchema = z.object({
  id: z.string(),
  version: z.enum(OPERATION_VERSIONS),
  /** Row of upstream-api.md §4.2 (v4 operations only). */
  row: z.nullable(z.int()),
  group: z.string(),
  title: z.string(),
  /** What the operation returns, in plain words (the "Behaviour" column of §4.2). */
  returns: z.string(),
  method: z.literal('GET'),
  /** Below the upstream base URL; `{wireName}` for each path parameter. */
  path: z.string(),
  /** True when upstream-api.md documents the path; false when it is the console's assumption. */
  documented: z.boolean(),
  /** True when DATA_SUBJECT_OPERATIONS_FILE changed the path or a parameter's location. */
  overridden: z.boolean(),
  params: z.array(OperationParamSchema),
  answer: z.enum(ANSWER_KINDS),
  /** Id of the module rule of upstream-api.md §8 that counts the path; null: account limits only. */
  moduleRule: z.nullable(z.string()),
  /** v4 only: the earlier-version operations it replaces (§4.3). */
  legacy: z.array(LegacyEquivalentSchema),
  /** Why there is no legacy equivalent, or a caveat about the ones listed. */
  legacyNote: z.nullable(z.string()),
  /** Two `date-time` parameters that bound a range: from ≤ to, at most `maxDays` apart. */
  dateRange: z.optional(z.object({ from: z.string(), to: z.string(), maxDays: z.int() })),
  /** Paging with a continuation token (§4.2 row 8): where it travels and where the answer has it. */
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

/** Longest identifier the console sends (the upstream states none; real ones are far shorter). */
export const IDENTIFIER_MAX_LENGTH = 256;
/** Longest continuation token the console passes back. */
export const CONTINUATION_MAX_LENGTH = 2_048;
/** Longest date range of a purposes or link-token listing, in days. */
export const MAX_RANGE_DAYS = 366;

// Parameters used by several operations.
const identifier = (
  description = 'The data subject: e-mail address, phone number or other id',
): OperationParam => ({
  name: 'identifier',
  label: 'Identifier',
  location: 'header',
  wireName: 'identifier',
  format: 'identifier',
  required: true,
  description,
});
const uuidParam = (
  name: string,
  label: string,
  location: ParamLocation,
  required: boolean,
  description: string,
): OperationParam => ({
  name,
  label,
  location,
  wireName: name,
  format: 'uuid',
  required,
  description,
});
const dateParam = (name: string, label: string, description: string): OperationParam => ({
  name,
  label,
  location: 'query',
  wireName: name,
  format: 'date-time',
  required: true,
  description,
});
const pageParams = (): OperationParam[] => [
  {
    name: 'page',
    label: 'Page',
    location: 'query',
    wireName: 'page',
    format: 'integer',
    required: false,
    description: 'Page number, from 0',
    min: 0,
    max: 100_000,
  },
  {
    name: 'size',
    label: 'Page size',
    location: 'query',
    wireName: 'size',
    format: 'integer',
    required: false,
    description: 'Records per page',
    min: 1,
    max: 1_000,
  },
];

/** Purpose statuses the purposes-by-date-range filter offers (an assumption: not shown upstream). */
export const PURPOSE_STATUSES = [
  'ACTIVE',
  'PENDING',
  'WITHDRAWN',
  'OPT_OUT',
  'EXPIRED',
  'NO_CONSENT',
] as const;

type BuiltIn = Omit<DataSubjectOperation, 'overridden' | 'id'> & { id: DataSubjectOperationId };

/** The ten v4 operations of upstream-api.md §4.2, in its order. */
const V4_OPERATIONS: readonly BuiltIn[] = [
  {
    id: 'v4-basic-details',
    version: 'v4',
    row: 1,
    group: 'Data subject',
    title: 'Basic details',
    returns:
      'The data subject at identity level: who it is, with no consent-level information (no purposes).',
    method: 'GET',
    path: '/v4/datasubjects/basic-details',
    documented: true,
    params: [identifier()],
    answer: 'subject',
    moduleRule: 'v4-basic-details-minute',
    legacy: [
      {
        operation: 'v2-datasubjects',
        params: { identifier: 'identifier' },
        note: 'The v2 data subject carries its purposes and consent details; v4 basic details leave them out.',
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
    returns: 'Everything in basic details, plus more details including the purposes.',
    method: 'GET',
    path: '/v4/datasubjects/details',
    documented: true,
    params: [identifier()],
    answer: 'subject-purposes',
    moduleRule: 'v4-details-minute',
    legacy: [
      {
        operation: 'v2-datasubjects',
        params: { identifier: 'identifier' },
        note: 'Both carry purposes; compare which purpose fields each one has.',
      },
    ],
    legacyNote: null,
  },
  {
    id: 'v4-ds-profiles',
    version: 'v4',
    row: 3,
    group: 'Profiles',
    title: 'Data-subject profiles',
    returns:
      'No behaviour is stated by the migration guide; the console shows whatever profiles the platform lists.',
    method: 'GET',
    path: '/v4/datasubjects/ds-profiles',
    documented: true,
    params: [],
    answer: 'profile-page',
    moduleRule: 'v4-ds-profiles-minute',
    legacy: [
      {
        operation: 'v3-datasubject-profiles',
        params: {},
        note: 'Both need no parameters; the pairing is the console’s reading of §4.3.',
      },
    ],
    legacyNote: null,
  },
  {
    id: 'v4-purpose-profile',
    version: 'v4',
    row: 4,
    group: 'Purposes',
    title: 'One purpose of a data subject',
    returns: 'The data subject’s information for one specific purpose.',
    method: 'GET',
    path: '/v4/datasubjects/profiles/{purposeGuid}',
    documented: true,
    params: [
      identifier(),
      uuidParam('purposeGuid', 'Purpose GUID', 'path', true, 'The purpose to return'),
    ],
    answer: 'subject-purposes',
    moduleRule: 'v4-purpose-profile-minute',
    legacy: [
      {
        operation: 'v1-datasubject-profiles',
        params: { identifier: 'identifier' },
        note: 'v1 returns every purpose of the data subject; v4 only the one asked for.',
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
    returns: 'All purpose information for a given data subject (similar to v1 and v3).',
    method: 'GET',
    path: '/v4/datasubjects/purposes',
    documented: false,
    params: [identifier()],
    answer: 'subject-purposes',
    moduleRule: null,
    legacy: [
      {
        operation: 'v1-datasubject-profiles',
        params: { identifier: 'identifier' },
        note: 'The migration guide calls this similar to v1.',
      },
      {
        operation: 'v3-datasubject-profile',
        params: { identifier: 'identifier' },
        note: 'The migration guide calls this similar to v3.',
      },
    ],
    legacyNote: null,
  },
  {
    id: 'v4-purposes-by-date',
    version: 'v4',
    row: 6,
    group: 'Purposes',
    title: 'Purposes updated in a date range',
    returns:
      'Purpose records of all data subjects last updated in a date range, optionally only for one collection point, purpose or status.',
    method: 'GET',
    path: '/v4/datasubjects/purpose-updates',
    documented: false,
    params: [
      dateParam('updatedSince', 'Updated since', 'Start of the range'),
      dateParam('updatedUntil', 'Updated until', 'End of the range'),
      uuidParam(
        'collectionPointGuid',
        'Last collection point GUID',
        'query',
        false,
        'Only purposes last collected at this collection point',
      ),
      uuidParam('purposeGuid', 'Purpose GUID', 'query', false, 'Only this purpose'),
      {
        name: 'status',
        label: 'Status',
        location: 'query',
        wireName: 'status',
        format: 'enum',
        required: false,
        description: 'Only purposes in this status',
        values: [...PURPOSE_STATUSES],
      },
    ],
    answer: 'purpose-page',
    moduleRule: null,
    legacy: [],
    legacyNote:
      'Not applicable: upstream-api.md §4.3 says no v1, v2 or v3 operation extracts purposes by date range.',
    dateRange: { from: 'updatedSince', to: 'updatedUntil', maxDays: MAX_RANGE_DAYS },
  },
  {
    id: 'v4-link-token',
    version: 'v4',
    row: 7,
    group: 'Link tokens',
    title: 'Link token of a data subject',
    returns: 'The link token of one data subject.',
    method: 'GET',
    path: '/v4/datasubjects/link-token',
    documented: false,
    params: [identifier()],
    answer: 'link-token',
    moduleRule: null,
    legacy: [
      {
        operation: 'v1-link-tokens',
        params: { identifier: 'identifier' },
        note: 'v1 lists the data subject’s link tokens page by page; v4 returns its one token.',
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
    returns:
      'All link tokens created in a date range, one page at a time (paging with a requestContinuation token).',
    method: 'GET',
    path: '/v4/datasubjects/link-tokens',
    documented: false,
    params: [
      dateParam('fromDate', 'From', 'Start of the range'),
      dateParam('toDate', 'To', 'End of the range'),
    ],
    answer: 'link-token-page',
    moduleRule: null,
    legacy: [
      {
        operation: 'v1-link-tokens',
        params: {},
        note: 'v1 lists the link tokens of one data subject (it needs an identifier) with page and size; v4 lists every data subject’s tokens in a date range.',
      },
    ],
    legacyNote: null,
    dateRange: { from: 'fromDate', to: 'toDate', maxDays: MAX_RANGE_DAYS },
    continuation: {
      location: 'query',
      wireName: 'requestContinuation',
      responseField: 'requestContinuation',
    },
  },
  {
    id: 'v4-linked-groups',
    version: 'v4',
    row: 9,
    group: 'Linked identity groups',
    title: 'Linked identity groups of a primary data subject',
    returns: 'The linked identity groups whose primary data subject has this identifier.',
    method: 'GET',
    path: '/v4/datasubjects/linked-identity-groups',
    documented: false,
    params: [identifier('The primary data subject of the groups')],
    answer: 'group-page',
    moduleRule: null,
    legacy: [
      {
        operation: 'v2-linked-groups',
        params: { primaryDataSubjectIdentifier: 'identifier' },
        note: 'v2 takes the identifier as primaryDataSubjectIdentifier and pages with page and size.',
      },
    ],
    legacyNote: null,
  },
  {
    id: 'v4-linked-group',
    version: 'v4',
    row: 10,
    group: 'Linked identity groups',
    title: 'One linked identity group',
    returns: 'One linked identity group with its members.',
    method: 'GET',
    path: '/v4/datasubjects/linked-identity-groups/{linkedIdentityGroupId}',
    documented: false,
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
    legacy: [
      {
        operation: 'v2-linked-group',
        params: { linkedIdentityGroupId: 'linkedIdentityGroupId' },
        note: 'The same group through v2.',
      },
    ],
    legacyNote: null,
  },
];

/** The earlier-version operations of upstream-api.md §4.3, for the migration view. */
const LEGACY_OPERATIONS: readonly BuiltIn[] = [
  {
    id: 'v1-datasubject-profiles',
    version: 'v1',
    row: null,
    group: 'Legacy',
    title: 'v1 data-subject profiles',
    returns: 'The data subject’s profiles with all their purposes, page by page.',
    method: 'GET',
    path: '/api/consentmanager/v1/datasubjects/profiles',
    documented: true,
    params: [identifier(), { ...pageParams()[1]!, description: 'Profiles per page' }],
    answer: 'profile-page',
    moduleRule: 'v1-datasubject-profiles-quota',
    legacy: [],
    legacyNote: null,
  },
  {
    id: 'v2-datasubjects',
    version: 'v2',
    row: null,
    group: 'Legacy',
    title: 'v2 data subject',
    returns: 'The data subject with its purposes and consent details.',
    method: 'GET',
    path: '/api/consentmanager/v2/datasubjects',
    documented: true,
    params: [identifier()],
    answer: 'subject-purposes',
    moduleRule: 'v2-datasubjects-quota',
    legacy: [],
    legacyNote: null,
    note: 'The identifier is optional in one example of the migration guide; the console always sends it.',
  },
  {
    id: 'v3-datasubject-profile',
    version: 'v3',
    row: null,
    group: 'Legacy',
    title: 'v3 data-subject profile',
    returns: 'The data subject’s profile with its purposes and preferences.',
    method: 'GET',
    path: '/rest/api/preferences/v3/datasubjects/profile',
    documented: true,
    params: [identifier()],
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
    returns: 'Data-subject profiles of the account, first page.',
    method: 'GET',
    path: '/rest/api/preferences/v3/datasubject-profiles',
    documented: true,
    params: [],
    answer: 'profile-page',
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
    returns: 'The data subject’s link tokens, page by page.',
    method: 'GET',
    path: '/api/consentmanager/v1/linktokens',
    documented: true,
    params: [identifier(), ...pageParams()],
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
    method: 'GET',
    path: '/api/consentmanager/v2/linkedidentitygroups',
    documented: true,
    params: [
      {
        ...identifier('The primary data subject of the groups'),
        name: 'primaryDataSubjectIdentifier',
        label: 'Primary data subject identifier',
        wireName: 'primaryDataSubjectIdentifier',
      },
      ...pageParams(),
    ],
    answer: 'group-page',
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
    returns: 'One linked identity group.',
    method: 'GET',
    path: '/api/consentmanager/v2/linkedidentitygroups/{linkedIdentityGroupId}',
    documented: true,
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

/** The built-in catalog: v4 operations in §4.2's order, then the legacy ones. */
export const BUILT_IN_OPERATIONS: readonly DataSubjectOperation[] = [
  ...V4_OPERATIONS,
  ...LEGACY_OPERATIONS,
].map((operation) => ({ ...operation, overridden: false }));

/** Every operation id of the built-in catalog; an override file cannot add ids. */
export const DATA_SUBJECT_OPERATION_IDS = [
  'v4-basic-details',
  'v4-details',
  'v4-ds-profiles',
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

/** Problem types of the data-subject and audit routes; clients switch on them. */
export const DATA_SUBJECT_PROBLEM_TYPES = {
  /** The platform knows no data subject (or record) for these parameters (404). */
  notFound: '/problems/data-subject-not-found',
  /** The lookup could not be written to the audit trail, so its answer was withheld (503). */
  auditUnavailable: '/problems/audit-unavailable',
} as const;
