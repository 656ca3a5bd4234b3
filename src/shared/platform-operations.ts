// Every platform operation the console knows, its method and path written once, by the vendor's
// operationId where its document gives one: the OAuth token endpoint (the OAuth token document),
// the event types (the audit document), the data-subject operations of every version (the
// data-subjects v1/v2/v3/v4, magic-link-tokens v1/v4 and data-subject-groups v2/v4 documents),
// and the paths the published rate-limit table names for operations the console has no document
// of. Plain data, so the browser bundle can read it without the schemas.
//
// Derived from it: the documented contract (data-subject-contract.ts adds parameters and answer
// schemas), the data-subject catalog (adds what the page needs), EVENT_TYPES_OPERATION, the
// rate-limit rules' paths, the operation templates integrations' reports are reduced to, the
// mock's routes, and the reporter package's template list (generated at its build).

/** A platform operation: its method and path below the service host (`{name}`: a path value). */
export interface PlatformOperation {
  readonly method: 'GET' | 'POST';
  readonly path: string;
}

/**
 * Documented operations, keyed by the vendor's operationId; `token` and the two group creations
 * (which the console never calls, and only recognises in integrations' reports) by a name of ours.
 */
export const PLATFORM_OPERATIONS = {
  token: { method: 'POST', path: '/api/access/v1/oauth/token' },
  getEventTypeFilterOptionsGET: { method: 'GET', path: '/api/audit/v4/audits/event-types' },
  getDataSubjectsV4: { method: 'GET', path: '/rest/api/consent/v4/datasubjects' },
  getDataSubjectBasicDetailsV4: {
    method: 'GET',
    path: '/rest/api/consent/v4/datasubjects/basic-details',
  },
  getDataSubjectDetailsV4: { method: 'GET', path: '/rest/api/consent/v4/datasubjects/details' },
  getAllProfilesByDataSubjectV4: {
    method: 'GET',
    path: '/rest/api/consent/v4/datasubjects/ds-profiles',
  },
  getDataSubjectProfilesV4: { method: 'GET', path: '/rest/api/consent/v4/datasubjects/profiles' },
  getDataSubjectProfileV4: {
    method: 'GET',
    path: '/rest/api/consent/v4/datasubjects/profiles/{purposeGuid}',
  },
  getEmailLinkTokenByDataSubjectV4: {
    method: 'GET',
    path: '/rest/api/consent/v4/datasubjects/linktokens',
  },
  getEmailLinkTokensListV4: { method: 'GET', path: '/rest/api/consent/v4/linktokens' },
  getLinkedIdentityGroupsByDataSubjectV4: {
    method: 'GET',
    path: '/rest/api/consent/v4/linkedidentitygroups',
  },
  createLinkedIdentityGroupV4: {
    method: 'POST',
    path: '/rest/api/consent/v4/linkedidentitygroups',
  },
  getLinkedIdentityGroupMembersV4: {
    method: 'GET',
    path: '/rest/api/consent/v4/linkedidentitygroups/{dataSubjectGroupId}/members',
  },
  getDataSubjectProfileUsingGET: {
    method: 'GET',
    path: '/api/consentmanager/v1/datasubjects/profiles',
  },
  getDataSubjectsUsingGET: { method: 'GET', path: '/api/consentmanager/v2/datasubjects' },
  getV3DatasubjectsProfileUsingGet: {
    method: 'GET',
    path: '/rest/api/preferences/v3/datasubjects/profile',
  },
  getV3DatasubjectProfilesUsingPOST: {
    method: 'GET',
    path: '/rest/api/preferences/v3/datasubject-profiles',
  },
  getLinkTokensUsingGET: { method: 'GET', path: '/api/consentmanager/v1/linktokens' },
  getLinkedIdentityGroupsUsingGET: {
    method: 'GET',
    path: '/api/consentmanager/v2/linkedidentitygroups',
  },
  createLinkedIdentityGroupV2: {
    method: 'POST',
    path: '/api/consentmanager/v2/linkedidentitygroups',
  },
  getLinkedIdentityGroupUsingGET: {
    method: 'GET',
    path: '/api/consentmanager/v2/linkedidentitygroups/{linkedIdentityGroupId}',
  },
} as const satisfies Record<string, PlatformOperation>;

/** A documented operation's key in PLATFORM_OPERATIONS. */
export type PlatformOperationId = keyof typeof PLATFORM_OPERATIONS;

/**
 * Paths the published rate-limit table's module rules name for operations the console has no
 * document of: requests to them are counted by their rule. A trailing `*` stands for one or more
 * segments; the method is the one integrations use (the rules themselves may count any method).
 */
export const LIMIT_PATHS = {
  consentReceipts: { method: 'POST', path: '/request/v1/consentreceipts' },
  consentReceiptsBulk: { method: 'POST', path: '/v1/consentreceipts/bulk' },
  preferences: { method: 'GET', path: '/v1/preferences' },
  webhook: { method: 'POST', path: '/integrationmanager/api/v1/webhook/*' },
  scim: { method: 'GET', path: '/api/scim/*' },
} as const satisfies Record<string, PlatformOperation>;

/** The token endpoint on the service host (client credentials). */
export const TOKEN_OPERATION = { id: 'token', ...PLATFORM_OPERATIONS.token } as const;

/**
 * Names people read for the operations the data-subject catalog does not name (its operations are
 * named there, data-subject-operations.ts): the token request, the event types, the group
 * creations and the rate-limit table's paths. Keyed like the tables above; shared/endpoint-name.ts
 * reads both.
 */
export const OTHER_OPERATION_NAMES: Readonly<
  Record<
    | 'token'
    | 'getEventTypeFilterOptionsGET'
    | 'createLinkedIdentityGroupV4'
    | 'createLinkedIdentityGroupV2'
    | keyof typeof LIMIT_PATHS,
    string
  >
> = {
  token: 'Token request',
  getEventTypeFilterOptionsGET: 'Event types',
  createLinkedIdentityGroupV4: 'v4 · Create a linked identity group',
  createLinkedIdentityGroupV2: 'v2 create a linked identity group',
  consentReceipts: 'Consent receipts',
  consentReceiptsBulk: 'Consent receipts in bulk',
  preferences: 'Preferences',
  webhook: 'Integration webhooks',
  scim: 'SCIM user provisioning',
};
