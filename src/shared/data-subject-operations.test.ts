// The operations catalog: the ten v4 operations of the migration guide in order, each at its
// documented path with the documented required parameters, ranges and page sizes, legacy
// equivalents that exist, and module limits that are the ones the rules match for each path.
import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_OPERATIONS,
  DATA_SUBJECT_OPERATION_IDS,
  DataSubjectCatalogSchema,
  findOperation,
} from './data-subject-operations';
import { matchModuleRule } from './rate-limits';

const v4 = BUILT_IN_OPERATIONS.filter((operation) => operation.version === 'v4');
const legacy = BUILT_IN_OPERATIONS.filter((operation) => operation.version !== 'v4');
const required = (id: string) =>
  findOperation(BUILT_IN_OPERATIONS, id)!
    .params.filter((param) => param.required)
    .map((param) => param.name);

describe('the data-subject operations catalog', () => {
  it('is valid against its own schema, with the ids listed once', () => {
    expect(DataSubjectCatalogSchema.parse({ operations: BUILT_IN_OPERATIONS }).operations).toEqual(
      BUILT_IN_OPERATIONS,
    );
    expect(BUILT_IN_OPERATIONS.map((operation) => operation.id)).toEqual([
      ...DATA_SUBJECT_OPERATION_IDS,
    ]);
  });

  it('has the ten v4 operations of the migration guide in order, with the documented required parameters', () => {
    expect(v4.map((operation) => operation.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(v4.map((operation) => required(operation.id))).toEqual([
      ['identifier'],
      ['identifier'],
      // The guide says none; the document of the data-subject list requires the range.
      ['fromDate', 'toDate'],
      ['identifier', 'purposeGuid'],
      ['identifier'],
      ['updatedSince', 'updatedUntil'],
      ['identifier'],
      ['fromDate', 'toDate'],
      ['identifier'],
      ['linkedIdentityGroupId'],
    ]);
  });

  it('puts every operation at its documented path under the service host, with its vendor id', () => {
    expect(v4.map((operation) => [operation.path, operation.operationId])).toEqual([
      ['/rest/api/consent/v4/datasubjects/basic-details', 'getDataSubjectBasicDetailsV4'],
      ['/rest/api/consent/v4/datasubjects/details', 'getDataSubjectDetailsV4'],
      ['/rest/api/consent/v4/datasubjects', 'getDataSubjectsV4'],
      ['/rest/api/consent/v4/datasubjects/profiles/{purposeGuid}', 'getDataSubjectProfileV4'],
      ['/rest/api/consent/v4/datasubjects/ds-profiles', 'getAllProfilesByDataSubjectV4'],
      ['/rest/api/consent/v4/datasubjects/profiles', 'getDataSubjectProfilesV4'],
      ['/rest/api/consent/v4/datasubjects/linktokens', 'getEmailLinkTokenByDataSubjectV4'],
      ['/rest/api/consent/v4/linktokens', 'getEmailLinkTokensListV4'],
      ['/rest/api/consent/v4/linkedidentitygroups', 'getLinkedIdentityGroupsByDataSubjectV4'],
      [
        '/rest/api/consent/v4/linkedidentitygroups/{dataSubjectGroupId}/members',
        'getLinkedIdentityGroupMembersV4',
      ],
    ]);
    expect(BUILT_IN_OPERATIONS.every((operation) => operation.documented)).toBe(true);
    expect(legacy.every((operation) => operation.operationId !== null)).toBe(true);
  });

  it('bounds the documented date ranges and page sizes', () => {
    const ranges = v4
      .filter((operation) => operation.dateRange)
      .map((operation) => [operation.id, operation.dateRange?.maxDays]);
    expect(ranges).toEqual([
      ['v4-data-subjects', 7],
      ['v4-purposes-by-date', 30],
      ['v4-link-tokens', 7],
    ]);
    for (const operation of v4) {
      const size = operation.params.find((param) => param.name === 'size');
      if (size) expect(size.max).toBe(50);
    }
  });

  it('sends identifier as a header named identifier, purposeGuid in the path, dates in the query', () => {
    for (const operation of BUILT_IN_OPERATIONS) {
      for (const param of operation.params) {
        if (param.name === 'identifier') {
          expect([param.location, param.wireName]).toEqual(['header', 'identifier']);
        }
        if (param.format === 'date-time') expect(param.location).toBe('query');
      }
    }
    const purpose = findOperation(BUILT_IN_OPERATIONS, 'v4-purpose-profile')!;
    expect(purpose.params.find((param) => param.name === 'purposeGuid')?.location).toBe('path');
  });

  it('fills every path placeholder from a required path parameter, and nothing else', () => {
    for (const operation of BUILT_IN_OPERATIONS) {
      const placeholders = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const pathParams = operation.params.filter((param) => param.location === 'path');
      expect(pathParams.map((param) => param.wireName)).toEqual(placeholders);
      expect(pathParams.every((param) => param.required)).toBe(true);
    }
  });

  it('names the module rule that matches for each path (account limits only where none does)', () => {
    for (const operation of BUILT_IN_OPERATIONS) {
      expect([operation.id, operation.moduleRule]).toEqual([
        operation.id,
        matchModuleRule(operation.method, operation.path)?.id ?? null,
      ]);
    }
    // The four soft per-path rules count the four identifier-based data-subject reads.
    expect(
      v4.filter((operation) => operation.moduleRule !== null).map((operation) => operation.row),
    ).toEqual([1, 2, 4, 5]);
  });

  it('points every v4 operation at legacy equivalents that exist, or says why there is none', () => {
    for (const operation of v4) {
      if (operation.legacy.length === 0) {
        expect(operation.legacyNote).toMatch(/^Not applicable/);
      }
      for (const equivalent of operation.legacy) {
        const target = findOperation(legacy, equivalent.operation);
        expect(target, `${operation.id} -> ${equivalent.operation}`).toBeDefined();
        for (const [legacyParam, v4Param] of Object.entries(equivalent.params)) {
          expect(target!.params.some((param) => param.name === legacyParam)).toBe(true);
          expect(operation.params.some((param) => param.name === v4Param)).toBe(true);
        }
      }
    }
    expect(findOperation(v4, 'v4-purposes-by-date')?.legacy).toEqual([]);
  });
});
