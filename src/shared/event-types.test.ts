// The plain reader of event types against the schema it stands in for: every hostile value of
// every field beside every kind of neighbour, and lists that are not lists, must come out as the
// schema reads them.
import { describe, expect, it } from 'vitest';
import {
  EventTypesResponseReader,
  EventTypesResponseSchema,
  readEventTypes,
  UpstreamEventTypesSchema,
} from './event-types';

/** Values a field may hold in an answer, right or wrong for any of the four fields. */
const FIELD_VALUES: unknown[] = [
  'absent',
  42,
  -7,
  0,
  -0,
  1.5,
  2 ** 53,
  -(2 ** 53) + 1,
  '',
  'Consent Withdrawn',
  '12',
  null,
  true,
  [],
  [3],
  {},
  { code: 1 },
];

const FIELDS = ['code', 'value', 'objectTypeName', 'moduleName'] as const;

/**
 * One value of each kind the reader tells apart, for the fields beside the one under test: absent,
 * kept as the code and refused as a name, and the other way round. The reader judges each field by
 * its own value alone (keeps() in event-types.ts), and a record by whether every field is kept, so
 * these three kinds stand for every value a neighbouring field may hold.
 */
const NEIGHBOUR_VALUES: unknown[] = ['absent', 42, 'Consent Withdrawn'];

/** A record with `values[i]` as FIELDS[i], leaving out the absent ones. */
function recordOf(values: readonly unknown[], extra: boolean): Record<string, unknown> {
  const record: Record<string, unknown> = extra ? { extra: 'dropped' } : {};
  FIELDS.forEach((field, index) => {
    if (values[index] !== 'absent') record[field] = values[index];
  });
  return record;
}

/**
 * Every FIELD_VALUE in every field, beside every combination of NEIGHBOUR_VALUES in the other
 * three, each without and with an extra field: 4 × 17 × 3³ × 2 records. Exhaustive for what the
 * reader decides, and small enough that no machine's speed decides the test (the full product of
 * 17⁴ × 2 records took seconds, and a busy machine ran it past the deadline).
 */
function everyRecord(): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  const neighbours = NEIGHBOUR_VALUES.flatMap((a) =>
    NEIGHBOUR_VALUES.flatMap((b) => NEIGHBOUR_VALUES.map((c) => [a, b, c])),
  );
  FIELDS.forEach((_, index) => {
    for (const value of FIELD_VALUES) {
      for (const others of neighbours) {
        const values = [...others.slice(0, index), value, ...others.slice(index)];
        records.push(recordOf(values, false), recordOf(values, true));
      }
    }
  });
  return records;
}

/** What the schema makes of `value`: its data, or undefined when it refuses it. */
function bySchema(value: unknown) {
  const parsed = UpstreamEventTypesSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

describe('readEventTypes', () => {
  it('reads every combination of field values as the schema does', () => {
    const records = everyRecord();
    expect(records).toHaveLength(4 * FIELD_VALUES.length * NEIGHBOUR_VALUES.length ** 3 * 2);
    const read = readEventTypes(records);
    expect(read).toEqual(bySchema(records));
    // Not vacuous: some fields were kept, and some mistyped ones read as missing.
    expect(read?.filter((item) => item.code === 42 && item.value === '12')).not.toHaveLength(0);
    expect(read?.filter((item) => Object.keys(item).length === 0)).not.toHaveLength(0);
    // Only the four fields, and only with a value (gathered first: one expect per record is slow).
    const strays = (read ?? []).flatMap((item) =>
      Object.entries(item).filter(
        ([key, value]) => !(FIELDS as readonly string[]).includes(key) || value === undefined,
      ),
    );
    expect(strays).toEqual([]);
  });

  it.each([
    ['an object instead of a list', { items: [] }],
    ['a string', '[]'],
    ['null', null],
    ['a number in the list', [{ code: 1 }, 2]],
    ['null in the list', [null]],
    ['a list in the list', [[{ code: 1 }]]],
    ['a string in the list', ['{"code":1}']],
  ])('refuses %s, as the schema does', (_, value) => {
    expect(bySchema(value)).toBeUndefined();
    expect(readEventTypes(value)).toBeUndefined();
  });

  it('reads a __proto__ key of an answer as an unknown field', () => {
    const answer = JSON.parse('[{"__proto__":{"code":5},"value":"A"}]') as unknown;
    expect(readEventTypes(answer)).toEqual([{ value: 'A' }]);
    expect(readEventTypes(answer)).toEqual(bySchema(answer));
  });

  it('keeps a record that reading would not change, and reads the others into new items', () => {
    const answer = JSON.parse(
      '[{"code":1,"value":"A","objectTypeName":"T","moduleName":"M"},{"value":"B"},{},' +
        '{"code":"2","value":"C"},{"value":"D","extra":true},{"code":1.5}]',
    ) as object[];
    const read = readEventTypes(answer) ?? [];
    expect(read.map((item, index) => item === answer[index])).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(read.slice(3)).toEqual([{ value: 'C' }, { value: 'D' }, {}]);
  });

  it('copies a record with an inherited field or a prototype of its own, as the schema reads it', () => {
    const inherited = Object.create({ extra: 1 }) as Record<string, unknown>;
    inherited.value = 'A';
    const classy = new (class Row {
      value = 'B';
    })();
    const read = readEventTypes([inherited, classy]) ?? [];
    expect(read).toEqual([{ value: 'A' }, { value: 'B' }]);
    expect(read[0]).not.toBe(inherited);
    expect(read[1]).not.toBe(classy);
    expect(read).toEqual(bySchema([inherited, classy]));
  });

  it('reads an empty list as an empty list', () => {
    expect(readEventTypes([])).toEqual([]);
  });
});

describe('EventTypesResponseReader', () => {
  const fetchedAt = '2026-01-02T03:04:05.000Z';

  it('reads an answer as EventTypesResponseSchema does', () => {
    const answer = {
      items: [{ code: 1, value: 'A', extra: 1 }, { code: '2' }, {}],
      fetchedAt,
      stale: { reason: 'Rate limited', status: 429, retryAfterSeconds: 30 },
    };
    expect(EventTypesResponseReader.parse(answer)).toEqual(EventTypesResponseSchema.parse(answer));
    expect(EventTypesResponseReader.parse(answer).items).toEqual([{ code: 1, value: 'A' }, {}, {}]);
  });

  it.each([
    ['items that are not a list', { items: {}, fetchedAt }],
    ['an entry that is not an object', { items: [1], fetchedAt }],
    ['no fetchedAt', { items: [] }],
    ['a fetchedAt that is not a time', { items: [], fetchedAt: 'yesterday' }],
    ['a stale mark without its status', { items: [], fetchedAt, stale: { reason: 'x' } }],
  ])('refuses %s, as the schema does', (_, answer) => {
    expect(EventTypesResponseSchema.safeParse(answer).success).toBe(false);
    expect(EventTypesResponseReader.safeParse(answer).success).toBe(false);
  });
});
