// Contract tests: every request the BFF builds for every catalog operation, and every answer the
// built-in mock gives, conform to the console's description of the platform's documented contract
// (shared/data-subject-contract.ts). A catalog operation whose method and path the contract does
// not have fails here, as does a parameter sent where the documents do not put it, a value out of
// the documented range, or a mock answer with a field the documents do not name.
import { describe, expect, it } from 'vitest';
import { answerLookup } from '../../mocks/data/data-subject-answers';
import { generateDataSubjects, anchorDay } from '../../mocks/data/data-subjects';
import {
  PLATFORM_CONTRACT,
  contractOperation,
  contractOperationAt,
  type ContractOperation,
  type ContractParam,
} from '../../shared/data-subject-contract';
import {
  DEMO_IDENTIFIERS,
  DEMO_LINKED_GROUP_ID,
  DEMO_PURPOSE_GUID,
} from '../../shared/data-subject-demo';
import {
  BUILT_IN_OPERATIONS,
  type DataSubjectOperation,
  type DataSubjectOperationId,
} from '../../shared/data-subject-operations';
import { matchModuleRule } from '../../shared/rate-limits';
import type { UpstreamClient } from '../upstream/upstream-client';
import { DataSubjectLookups } from './data-subject-lookups';

const NOW = Date.parse('2026-03-15T12:00:00Z');
const DAY = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A valid value for every parameter of `operation`, optional ones included. */
function sampleParams(operation: DataSubjectOperation): Record<string, string> {
  const values: Record<string, string> = {};
  for (const param of operation.params) {
    switch (param.format) {
      case 'identifier':
        values[param.name] = DEMO_IDENTIFIERS[0];
        break;
      case 'uuid':
        values[param.name] =
          param.name === 'linkedIdentityGroupId' ? DEMO_LINKED_GROUP_ID : DEMO_PURPOSE_GUID;
        break;
      case 'date-time':
        values[param.name] = new Date(
          param.name === operation.dateRange?.to ? NOW : NOW - 6 * DAY,
        ).toISOString();
        break;
      case 'integer':
        values[param.name] = String(param.max ?? 1);
        break;
      case 'enum':
        values[param.name] = param.values?.[0] ?? '';
        break;
      case 'id':
        values[param.name] = 'x';
        break;
      case 'boolean':
        values[param.name] = 'true';
        break;
    }
  }
  return values;
}

/** Why `value` does not meet the documented `param`, or null. */
function wireProblem(param: ContractParam, value: string): string | null {
  if (param.format === 'uuid' && !UUID.test(value)) return 'is not a UUID';
  if (param.format === 'date-time' && Number.isNaN(Date.parse(value))) return 'is not a date-time';
  if (param.type === 'integer') {
    const number = Number(value);
    if (!Number.isInteger(number)) return 'is not an integer';
    if (param.minimum !== undefined && number < param.minimum) return 'is below the minimum';
    if (param.maximum !== undefined && number > param.maximum) return 'is above the maximum';
  }
  if (param.type === 'boolean' && value !== 'true' && value !== 'false') return 'is not a boolean';
  if (param.values && !param.values.includes(value)) return 'is not one of the documented values';
  return null;
}

/** Problems of a built request against the documented operation. */
function requestProblems(
  contract: ContractOperation,
  call: {
    pathParams?: Record<string, string>;
    query?: ReadonlyArray<readonly [string, string]>;
    headers?: Record<string, string>;
  },
): string[] {
  const problems: string[] = [];
  const sent: Array<{ where: ContractParam['in']; name: string; value: string }> = [
    ...Object.entries(call.pathParams ?? {}).map(([name, value]) => ({
      where: 'path' as const,
      name,
      value,
    })),
    ...(call.query ?? []).map(([name, value]) => ({ where: 'query' as const, name, value })),
    ...Object.entries(call.headers ?? {}).map(([name, value]) => ({
      where: 'header' as const,
      name,
      value,
    })),
  ];
  for (const { where, name, value } of sent) {
    const param = contract.params.find(
      (candidate) =>
        candidate.in === where &&
        (where === 'header'
          ? candidate.name.toLowerCase() === name.toLowerCase()
          : candidate.name === name),
    );
    if (!param) {
      problems.push(`${where} ${name} is not a documented parameter`);
      continue;
    }
    const problem = wireProblem(param, value);
    if (problem) problems.push(`${where} ${name} ${problem}`);
  }
  for (const param of contract.params.filter((candidate) => candidate.required)) {
    if (
      !sent.some(
        (each) => each.where === param.in && each.name.toLowerCase() === param.name.toLowerCase(),
      )
    ) {
      problems.push(`required ${param.in} ${param.name} is missing`);
    }
  }
  const placeholders = [...contract.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  for (const name of placeholders) {
    if (!call.pathParams?.[name!]) problems.push(`path {${name}} is not filled`);
  }
  return problems;
}

/** zod-mini internals, just enough to walk an object schema's declared fields. */
interface SchemaDef {
  readonly type: string;
  readonly shape?: Record<string, { _zod: { def: SchemaDef } }>;
  readonly innerType?: { _zod: { def: SchemaDef } };
  readonly element?: { _zod: { def: SchemaDef } };
}

/** Paths in `value` whose field the schema does not declare: what the documents do not name. */
function undocumentedFields(def: SchemaDef, value: unknown, path = ''): string[] {
  if (value === null || value === undefined) return [];
  if (def.type === 'optional' || def.type === 'nullable') {
    return undocumentedFields(def.innerType!._zod.def, value, path);
  }
  if (def.type === 'array' && Array.isArray(value)) {
    return value.flatMap((item) => undocumentedFields(def.element!._zod.def, item, `${path}[]`));
  }
  if (def.type === 'object' && def.shape && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => {
      const field = def.shape![key];
      return field
        ? undocumentedFields(field._zod.def, item, `${path}.${key}`)
        : [`${path}.${key}`];
    });
  }
  return [];
}

/** A BFF whose upstream is the mock's answer function, recording each call. */
function lookupsAgainstMock() {
  const set = generateDataSubjects(anchorDay(NOW));
  const calls: Array<{ path: string; call: unknown }> = [];
  const upstream = {
    send: async (
      operation: Parameters<UpstreamClient['send']>[0],
      call: NonNullable<Parameters<UpstreamClient['send']>[1]>,
    ) => {
      calls.push({ path: operation.path, call });
      const catalog = BUILT_IN_OPERATIONS.find((each) => each.id === operation.id)!;
      const values: Record<string, string> = {};
      for (const param of catalog.params) {
        const value =
          param.location === 'path'
            ? call.pathParams?.[param.wireName]
            : param.location === 'query'
              ? call.query?.find(([name]) => name === param.wireName)?.[1]
              : call.headers?.[param.wireName];
        if (value !== undefined) values[param.name] = value;
      }
      const answer = answerLookup(
        operation.id as DataSubjectOperationId,
        set,
        values,
        call.headers?.requestContinuation,
      );
      return {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify('body' in answer ? answer.body : { message: answer.message }),
      };
    },
  } as unknown as UpstreamClient;
  return {
    lookups: new DataSubjectLookups({ operations: BUILT_IN_OPERATIONS, upstream, now: () => NOW }),
    calls,
  };
}

describe('the platform contract', () => {
  it('has every catalog operation at its documented method and path, with the vendor operation id', () => {
    for (const operation of BUILT_IN_OPERATIONS) {
      const contract = contractOperationAt(operation.method, operation.path);
      expect(contract, `${operation.id}: ${operation.method} ${operation.path}`).toBeDefined();
      expect(operation.operationId).toBe(contract?.operationId);
      expect(operation.documented).toBe(true);
    }
  });

  it('fails an operation whose path the documents do not have', () => {
    expect(contractOperationAt('GET', '/v4/datasubjects/basic-details')).toBeUndefined();
    expect(
      contractOperationAt('GET', '/rest/api/consent/v4/datasubjects/purposes'),
    ).toBeUndefined();
  });

  it('maps the ten v4 rows onto ten different documented v4 operations', () => {
    const v4 = BUILT_IN_OPERATIONS.filter((operation) => operation.version === 'v4');
    expect(v4.map((operation) => operation.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(new Set(v4.map((operation) => operation.operationId)).size).toBe(10);
    expect(v4.every((operation) => (operation.decision ?? '').length > 40)).toBe(true);
    expect(
      PLATFORM_CONTRACT.filter((each) => each.path.includes('/v4/'))
        .map((each) => each.operationId)
        .sort(),
    ).toEqual(v4.map((operation) => operation.operationId).sort());
  });

  it('keeps each catalog parameter where the documents put it, and every required one', () => {
    for (const operation of BUILT_IN_OPERATIONS) {
      const contract = contractOperation(operation.operationId)!;
      for (const param of operation.params) {
        const documented = contract.params.find((each) => each.name === param.wireName);
        expect(documented?.in, `${operation.id}.${param.name}`).toBe(param.location);
        if (param.format === 'boolean') expect(documented?.type).toBe('boolean');
        if (param.format === 'enum') {
          // Every value the form offers is documented (the documents' enum, exactly).
          expect([...(param.values ?? [])].sort(), `${operation.id}.${param.name}`).toEqual(
            [...(documented?.values ?? [])].sort(),
          );
        }
        // The default the form names is the documented one (and none where none is documented).
        expect(param.default, `${operation.id}.${param.name} default`).toBe(documented?.default);
        if (param.format === 'integer') {
          expect(param.max, `${operation.id}.${param.name} max`).toBeLessThanOrEqual(
            documented?.maximum ?? Number.MAX_SAFE_INTEGER,
          );
          expect(param.min).toBeGreaterThanOrEqual(documented?.minimum ?? 0);
        }
      }
      for (const documented of contract.params.filter((each) => each.required)) {
        const param = operation.params.find((each) => each.wireName === documented.name);
        expect(param?.required, `${operation.id} requires ${documented.name}`).toBe(true);
      }
      if (contract.slice) {
        expect(operation.continuation).toEqual({
          location: 'header',
          wireName: 'requestContinuation',
          responseField: 'requestContinuation',
        });
      }
    }
  });

  it('keeps the module rule of each path', () => {
    for (const operation of BUILT_IN_OPERATIONS) {
      expect(operation.moduleRule, operation.id).toBe(
        matchModuleRule(operation.method, operation.path)?.id ?? null,
      );
    }
  });
});

describe('requests the BFF builds', () => {
  it.each(BUILT_IN_OPERATIONS.map((operation) => [operation.id, operation] as const))(
    '%s: every parameter documented, in its place and range',
    async (_, operation) => {
      const { lookups } = lookupsAgainstMock();
      const prepared = lookups.prepare({
        operation: operation.id,
        params: sampleParams(operation),
      });
      const contract = contractOperation(operation.operationId)!;
      expect(requestProblems(contract, prepared.call)).toEqual([]);
    },
  );

  it('sends each option with each of its values only where the documents put it', () => {
    const { lookups } = lookupsAgainstMock();
    let checked = 0;
    for (const operation of BUILT_IN_OPERATIONS) {
      const contract = contractOperation(operation.operationId)!;
      const base = sampleParams(operation);
      for (const param of operation.params.filter((each) => each.advanced)) {
        const choices =
          param.format === 'enum'
            ? (param.values ?? [])
            : param.format === 'boolean'
              ? ['true', 'false']
              : [base[param.name]!];
        for (const value of choices) {
          const { call } = lookups.prepare({
            operation: operation.id,
            params: { ...base, [param.name]: value },
          });
          expect(requestProblems(contract, call), `${operation.id} ${param.name}=${value}`).toEqual(
            [],
          );
          const where =
            param.location === 'query'
              ? call.query?.find(([name]) => name === param.wireName)?.[1]
              : param.location === 'header'
                ? call.headers?.[param.wireName]
                : call.pathParams?.[param.wireName];
          expect(where, `${operation.id} ${param.name}`).toBe(value);
          checked += 1;
        }
      }
    }
    // isDNCInclude ×5, the details flags ×4, sort on five slices, row 9's group, legacy pages.
    expect(checked).toBeGreaterThan(30);
  });

  it('leaves an option out of the request when it is not set, so the platform default applies', () => {
    const { lookups } = lookupsAgainstMock();
    const { call } = lookups.prepare({
      operation: 'v4-details',
      params: { identifier: DEMO_IDENTIFIERS[0], isDNCInclude: '', includeNotices: '' },
    });
    expect(call.query).toEqual([]);
  });

  it('sends a continuation back as the requestContinuation header, on every paged v4 operation', async () => {
    const { lookups } = lookupsAgainstMock();
    for (const operation of BUILT_IN_OPERATIONS.filter((each) => each.continuation)) {
      const prepared = lookups.prepare({
        operation: operation.id,
        params: sampleParams(operation),
        continuation: '{"compositeToken": "jmxpAKZxe9nZkAoAAAAAAA=="}',
      });
      expect(prepared.call.headers?.requestContinuation).toBe(
        '{"compositeToken": "jmxpAKZxe9nZkAoAAAAAAA=="}',
      );
      expect(requestProblems(contractOperation(operation.operationId)!, prepared.call)).toEqual([]);
    }
  });
});

describe('answers the mock gives', () => {
  it.each(BUILT_IN_OPERATIONS.map((operation) => [operation.id, operation] as const))(
    '%s: the documented schema, no undocumented field, every page',
    async (_, operation) => {
      const { lookups } = lookupsAgainstMock();
      const contract = contractOperation(operation.operationId)!;
      // The required parameters only (the optional filters narrow the listings), and small pages,
      // so listings run over several of them.
      const sample = sampleParams(operation);
      const params = Object.fromEntries(
        operation.params
          .filter(
            (param) =>
              param.required || (param.name === 'purposeGuid' && operation.version === 'v1'),
          )
          .map((param) => [param.name, sample[param.name]!]),
      );
      if (operation.continuation) params.size = '3';
      let continuation: string | undefined;
      let pages = 0;
      do {
        const answer = await lookups.send(
          lookups.prepare({
            operation: operation.id,
            params,
            ...(continuation ? { continuation } : {}),
          }),
        );
        expect(contract.answer.safeParse(answer.data).success).toBe(true);
        expect(undocumentedFields(contract.answer._zod.def as SchemaDef, answer.data)).toEqual([]);
        if (contract.slice) {
          expect(answer.data).toMatchObject({
            content: expect.any(Array),
            number: pages,
            first: pages === 0,
            last: expect.any(Boolean),
            numberOfElements: expect.any(Number),
            empty: expect.any(Boolean),
          });
        }
        continuation = answer.continuation;
        pages += 1;
      } while (continuation && pages < 50);
      expect(continuation).toBeUndefined();
      if (operation.continuation && operation.id !== 'v4-purpose-profile') {
        expect(pages, 'listings run over several pages').toBeGreaterThan(1);
      }
    },
  );

  it('would notice a field the documents do not name, however deep', () => {
    const def = contractOperation('getDataSubjectDetailsV4')!.answer._zod.def as SchemaDef;
    expect(
      undocumentedFields(def, {
        identifier: 'x',
        surname: 'y',
        profiles: [{ id: 'z', colour: 1 }],
      }),
    ).toEqual(['.surname', '.profiles[].colour']);
  });

  it('answers an unknown data subject with the documented not-found string', () => {
    const set = generateDataSubjects(anchorDay(NOW));
    for (const operation of BUILT_IN_OPERATIONS.filter(
      (each) => each.version === 'v4' && each.params.some((param) => param.name === 'identifier'),
    )) {
      const answer = answerLookup(operation.id as DataSubjectOperationId, set, {
        ...sampleParams(operation),
        identifier: 'nobody@example.com',
      });
      expect(answer, operation.id).toEqual({ status: 404, body: 'Data Subject Not Found' });
    }
  });
});
