// The console reads the real platform tolerantly, whatever the mock keeps to: the mock answers only
// what the documents allow (docs/platform-openapi.json), but a platform that sends `null` for a
// documented string, or leaves every field out, must still be shown, not refused as a malformed
// answer. Each operation's answer from the mock is turned into those shapes and fed to the lookup.
import { describe, expect, it } from 'vitest';
import { answerLookup } from '../../mocks/data/data-subject-answers';
import { anchorDay, generateDataSubjects } from '../../mocks/data/data-subjects';
import { contractOperation } from '../../shared/data-subject-contract';
import { fieldSchema, isOptionalSchema, schemaKind } from '../../shared/schema-fields';
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
import type { UpstreamClient } from '../upstream/upstream-client';
import { DataSubjectLookups } from './data-subject-lookups';

const NOW = Date.parse('2026-03-15T12:00:00Z');
const DAY = 86_400_000;

/**
 * `value` with every documented optional field that holds text, a number or a boolean set to
 * `null` (lists and records are kept, and the fields inside them nulled in turn): `how` `null`.
 * With `how` `absent`, those fields are left out instead.
 */
function degrade(schema: unknown, value: unknown, how: 'null' | 'absent'): unknown {
  if (Array.isArray(value) && schemaKind(schema) === 'array') {
    return value.map((item) => degrade(fieldSchema(schema, 0), item, how));
  }
  if (value && typeof value === 'object' && schemaKind(schema) === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
      const declared = fieldSchema(schema, key);
      const leaf = field === null || typeof field !== 'object';
      if (declared && isOptionalSchema(declared) && leaf) {
        if (how === 'null') result[key] = null;
        continue;
      }
      result[key] = declared ? degrade(declared, field, how) : field;
    }
    return result;
  }
  return value;
}

function requiredParams(operation: DataSubjectOperation): Record<string, string> {
  const values: Record<string, string> = {};
  for (const param of operation.params.filter((each) => each.required)) {
    if (param.format === 'identifier') values[param.name] = DEMO_IDENTIFIERS[0];
    if (param.format === 'uuid') {
      values[param.name] = /group/i.test(param.name) ? DEMO_LINKED_GROUP_ID : DEMO_PURPOSE_GUID;
    }
    if (param.format === 'date-time') {
      values[param.name] = new Date(
        param.name === operation.dateRange?.to ? NOW : NOW - 6 * DAY,
      ).toISOString();
    }
  }
  if (operation.id === 'v1-datasubject-profiles') values.identifier = DEMO_IDENTIFIERS[0];
  if (operation.id === 'v2-linked-groups')
    values.primaryDataSubjectIdentifier = DEMO_IDENTIFIERS[0];
  return values;
}

/** A lookup whose platform answers `body` with 200. */
function lookupsAnswering(body: unknown) {
  const upstream = {
    send: async () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  } as unknown as UpstreamClient;
  return new DataSubjectLookups({ operations: BUILT_IN_OPERATIONS, upstream, now: () => NOW });
}

describe('answers from a platform that sends null for, or leaves out, documented fields', () => {
  const set = generateDataSubjects(anchorDay(NOW));

  it.each(
    BUILT_IN_OPERATIONS.flatMap((operation) =>
      (['null', 'absent'] as const).map((how) => [operation.id, how, operation] as const),
    ),
  )('%s with every optional value %s is shown as sent', async (_, how, operation) => {
    const params = requiredParams(operation);
    const answer = answerLookup(operation.id as DataSubjectOperationId, set, params);
    expect(answer.status, `the mock's answer to ${operation.id}`).toBe(200);
    const contract = contractOperation(operation.operationId)!;
    const body = degrade(contract.answer, (answer as { body: unknown }).body, how);
    // Something was degraded: a record's own field, not only paging.
    expect(JSON.stringify(body)).not.toBe(JSON.stringify((answer as { body: unknown }).body));

    const lookups = lookupsAnswering(body);
    const shown = await lookups.send(lookups.prepare({ operation: operation.id, params }));
    expect(shown.data).toEqual(body);
    // A slice whose `last` and token are null or missing is not continued.
    expect(shown.continuation).toBeUndefined();
  });
});
