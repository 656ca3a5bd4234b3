// The console's description of the platform (docs/platform-openapi.json, generated from the zod
// contract) against a table of facts written down by hand from the vendor's published OpenAPI
// documents: for each operation the console calls, its method, path and operation id, every
// parameter the document lists (where it travels, whether it is required, its format or range),
// and the statuses it declares. The description may leave out optional parameters the console
// never sends; it may not move one, invent one, drop a required one or declare another status.
import { describe, expect, it } from 'vitest';
import { platformOpenApi } from './platform-openapi';

/** [name, where it travels, required, format or `min..max` when the document gives one]. */
type Fact = readonly [string, 'header' | 'query' | 'path', boolean, string?];

interface OperationFacts {
  /** The vendor's OpenAPI document, by name. */
  readonly document: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly operationId: string;
  readonly params: readonly Fact[];
  readonly statuses: readonly number[];
}

const VENDOR_FACTS: readonly OperationFacts[] = [
  {
    document: 'data-subjects v4',
    method: 'GET',
    path: '/rest/api/consent/v4/datasubjects',
    operationId: 'getDataSubjectsV4',
    params: [
      ['fromDate', 'query', true, 'date-time'],
      ['toDate', 'query', true, 'date-time'],
      ['isDNCInclude', 'query', false],
      ['requestContinuation', 'header', false],
      ['page', 'query', false],
      ['size', 'query', false, '1..50'],
      ['sort', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 404, 429, 500],
  },
  {
    document: 'data-subjects v4',
    method: 'GET',
    path: '/rest/api/consent/v4/datasubjects/basic-details',
    operationId: 'getDataSubjectBasicDetailsV4',
    params: [
      ['identifier', 'header', true],
      ['isDNCInclude', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 404, 429, 500],
  },
  {
    document: 'data-subjects v4',
    method: 'GET',
    path: '/rest/api/consent/v4/datasubjects/details',
    operationId: 'getDataSubjectDetailsV4',
    params: [
      ['identifier', 'header', true],
      ['includeConsentGroups', 'query', false],
      ['includeAttachments', 'query', false],
      ['includeNotices', 'query', false],
      ['includeConsentStrings', 'query', false],
      ['isDNCInclude', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 404, 429, 500],
  },
  {
    document: 'data-subjects v4',
    method: 'GET',
    path: '/rest/api/consent/v4/datasubjects/ds-profiles',
    operationId: 'getAllProfilesByDataSubjectV4',
    params: [
      ['identifier', 'header', true],
      ['requestContinuation', 'header', false],
      ['page', 'query', false],
      ['size', 'query', false, '1..50'],
      ['sort', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 404, 429, 500],
  },
  {
    document: 'data-subjects v4',
    method: 'GET',
    path: '/rest/api/consent/v4/datasubjects/profiles',
    operationId: 'getDataSubjectProfilesV4',
    params: [
      ['collectionPointId', 'query', false, 'uuid'],
      ['purposeId', 'query', false, 'uuid'],
      ['status', 'query', false],
      ['updatedSince', 'query', true, 'date-time'],
      ['updatedUntil', 'query', true, 'date-time'],
      ['requestContinuation', 'header', false],
      ['page', 'query', false],
      ['size', 'query', false, '1..50'],
      ['sort', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 404, 429, 500],
  },
  {
    document: 'data-subjects v4',
    method: 'GET',
    path: '/rest/api/consent/v4/datasubjects/profiles/{purposeGuid}',
    operationId: 'getDataSubjectProfileV4',
    params: [
      ['identifier', 'header', true],
      ['purposeGuid', 'path', true, 'uuid'],
    ],
    statuses: [200, 400, 401, 403, 404, 429, 500],
  },
  {
    document: 'magic-link-tokens v4',
    method: 'GET',
    path: '/rest/api/consent/v4/datasubjects/linktokens',
    operationId: 'getEmailLinkTokenByDataSubjectV4',
    params: [['identifier', 'header', true]],
    statuses: [200, 400, 401, 403, 404, 429, 500],
  },
  {
    document: 'magic-link-tokens v4',
    method: 'GET',
    path: '/rest/api/consent/v4/linktokens',
    operationId: 'getEmailLinkTokensListV4',
    params: [
      ['fromDate', 'query', true, 'date-time'],
      ['toDate', 'query', true, 'date-time'],
      ['requestContinuation', 'header', false],
      ['page', 'query', false],
      ['size', 'query', false, '1..50'],
      ['sort', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 404, 429, 500],
  },
  {
    document: 'data-subject-groups v4',
    method: 'GET',
    path: '/rest/api/consent/v4/linkedidentitygroups',
    operationId: 'getLinkedIdentityGroupsByDataSubjectV4',
    params: [
      ['identifier', 'header', true],
      ['linkedIdentityGroupId', 'query', false, 'uuid'],
    ],
    statuses: [200, 400, 401, 403, 404, 429, 500],
  },
  {
    document: 'data-subject-groups v4',
    method: 'GET',
    path: '/rest/api/consent/v4/linkedidentitygroups/{dataSubjectGroupId}/members',
    operationId: 'getLinkedIdentityGroupMembersV4',
    params: [
      ['dataSubjectGroupId', 'path', true, 'uuid'],
      ['requestContinuation', 'header', false],
      ['page', 'query', false],
      ['size', 'query', false, '1..50'],
      ['sort', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 404, 429, 500],
  },
  {
    document: 'data-subjects (v1)',
    method: 'GET',
    path: '/api/consentmanager/v1/datasubjects/profiles',
    operationId: 'getDataSubjectProfileUsingGET',
    params: [
      ['since', 'query', false, 'date-time'],
      ['toDate', 'query', false, 'date-time'],
      ['updatedSince', 'query', false, 'date-time'],
      ['identifier', 'query', false],
      ['purposeGuid', 'query', false, 'uuid'],
      ['collectionPointGuid', 'query', false, 'uuid'],
      ['collectionPointName', 'query', false],
      ['properties', 'query', false],
      ['includeEffectiveStatus', 'query', false],
      ['identifier', 'header', false],
      ['dataElementName', 'header', false],
      ['dataElementValue', 'header', false],
      ['linkedIdentityGroupId', 'query', false, 'uuid'],
      ['includeConsentAttachments', 'query', false],
      ['isDNCInclude', 'query', false],
      ['includeDSWithNoOrg', 'query', false],
      ['includeGeolocation', 'query', false],
      ['requestContinuation', 'header', false],
      ['page', 'query', false],
      ['size', 'query', false, '1..50'],
      ['sort', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 429, 500],
  },
  {
    document: 'data-subjects v2',
    method: 'GET',
    path: '/api/consentmanager/v2/datasubjects',
    operationId: 'getDataSubjectsUsingGET',
    params: [
      ['page', 'query', false],
      ['size', 'query', false, '1..2000'],
      ['updatedSince', 'query', false, 'date-time'],
      ['updatedUntil', 'query', false, 'date-time'],
      ['identifier', 'header', false],
      ['id', 'query', false, 'uuid'],
      ['dataElementName', 'header', false],
      ['dataElementValue', 'header', false],
      ['language', 'query', false],
      ['properties', 'query', false],
      ['includeDataSubjectsWithOutPurposeTransactions', 'query', false],
      ['isDNCInclude', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 429, 500],
  },
  {
    document: 'data-subjects v3',
    method: 'GET',
    path: '/rest/api/preferences/v3/datasubject-profiles',
    operationId: 'getV3DatasubjectProfilesUsingPOST',
    params: [
      ['updatedSince', 'query', false, 'date-time'],
      ['updatedUntil', 'query', false, 'date-time'],
      ['collectionPointGuid', 'query', false, 'uuid'],
      ['purposeGuid', 'query', false, 'uuid'],
      ['identifier', 'header', false],
      ['dataElementName', 'header', false],
      ['dataElementValue', 'header', false],
      ['requestContinuation', 'header', false],
      ['page', 'query', false],
      ['size', 'query', false, '1..100'],
      ['sort', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 429, 500],
  },
  {
    document: 'data-subjects v3',
    method: 'GET',
    path: '/rest/api/preferences/v3/datasubjects/profile',
    operationId: 'getV3DatasubjectsProfileUsingGet',
    params: [
      ['identifier', 'header', true],
      ['includeInstantLinkToken', 'query', false],
      ['isDNCInclude', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 429, 500],
  },
  {
    document: 'magic-link-tokens (v1)',
    method: 'GET',
    path: '/api/consentmanager/v1/linktokens',
    operationId: 'getLinkTokensUsingGET',
    params: [
      ['since', 'query', false, 'date-time'],
      ['until', 'query', false, 'date-time'],
      ['identifier', 'header', false],
      ['page', 'query', false],
      ['size', 'query', false, '1..2000'],
      ['sort', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 429, 500],
  },
  {
    document: 'data-subject-groups (v2)',
    method: 'GET',
    path: '/api/consentmanager/v2/linkedidentitygroups',
    operationId: 'getLinkedIdentityGroupsUsingGET',
    params: [
      ['primaryDataSubjectIdentifier', 'header', false],
      ['primaryDataSubjectIdentifierType', 'header', false],
      ['requestContinuation', 'header', false],
      ['displayOrganizations', 'query', false],
      ['page', 'query', false],
      ['size', 'query', false, '1..100'],
      ['sort', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 429, 500],
  },
  {
    document: 'data-subject-groups (v2)',
    method: 'GET',
    path: '/api/consentmanager/v2/linkedidentitygroups/{linkedIdentityGroupId}',
    operationId: 'getLinkedIdentityGroupUsingGET',
    params: [
      ['linkedIdentityGroupId', 'path', true, 'uuid'],
      ['displayOrganizations', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 429, 500],
  },
  {
    document: 'OAuth token',
    method: 'POST',
    path: '/api/access/v1/oauth/token',
    operationId: 'GetOAuthToken',
    params: [],
    statuses: [200, 400, 401, 403, 404, 429, 500],
  },
  {
    document: 'audit (activity log)',
    method: 'GET',
    path: '/api/audit/v4/audits/event-types',
    operationId: 'getEventTypeFilterOptionsGET',
    params: [
      ['modules', 'query', false],
      ['objectTypes', 'query', false],
    ],
    statuses: [200, 400, 401, 403, 429, 500],
  },
];

interface DescribedParam {
  name: string;
  in: string;
  required: boolean;
  schema: { format?: string; minimum?: number; maximum?: number };
}
type DescribedOperation = {
  operationId: string;
  parameters?: DescribedParam[];
  responses: Record<string, unknown>;
};

const description = platformOpenApi() as {
  paths: Record<string, Record<string, DescribedOperation>>;
};

function described(facts: OperationFacts): DescribedOperation | undefined {
  return description.paths[facts.path]?.[facts.method.toLowerCase()];
}

describe('the platform description against the vendor documents’ facts', () => {
  it('has exactly the operations of the table, at their documented methods, paths and ids', () => {
    const operations = Object.entries(description.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(
        ([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`,
      ),
    );
    expect(operations.sort()).toEqual(
      VENDOR_FACTS.map((each) => `${each.method} ${each.path} ${each.operationId}`).sort(),
    );
  });

  it.each(VENDOR_FACTS.map((facts) => [facts.operationId, facts] as const))(
    '%s: every parameter where the document puts it, every required one, the documented statuses',
    (_, facts) => {
      const operation = described(facts)!;
      const params = operation.parameters ?? [];
      for (const param of params) {
        const fact = facts.params.find(
          ([name, where]) => name === param.name && where === param.in,
        );
        expect(fact, `${param.in} ${param.name} is in ${facts.document}`).toBeDefined();
        expect(param.required, `${param.name} required`).toBe(fact![2]);
        const note = fact![3];
        if (note === 'uuid' || note === 'date-time') expect(param.schema.format).toBe(note);
        if (note?.includes('..')) {
          const [min, max] = note.split('..').map(Number);
          expect([param.schema.minimum, param.schema.maximum], param.name).toEqual([min, max]);
        }
      }
      for (const [name, where] of facts.params.filter(([, , required]) => required)) {
        expect(
          params.some((param) => param.name === name && param.in === where),
          `required ${where} ${name}`,
        ).toBe(true);
      }
      expect(Object.keys(operation.responses).map(Number).sort()).toEqual([...facts.statuses]);
    },
  );
});
