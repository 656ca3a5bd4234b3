// The plain reader of event types against the schema it stands in for: every combination of
// hostile field values, and lists that are not lists, must come out as the schema reads them.
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

/** Every combination of FIELD_VALUES over the four fields, each without and with an extra field. */
function everyRecord(): Record<string, unknown>[] {
  let records: Record<string, unknown>[] = [{}, { extra: 'dropped' }];
  for (const field of FIELDS) {
    records = records.flatMap((record) =>
      FIELD_VALUES.map((value) => (value === 'absent' ? record : { ...record, [field]: value })),
    );
  }
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
    expect(records).toHaveLength(2 * 17 ** 4);
    const read = readEventTypes(records);
    expect(read).toEqual(bySchema(records));
    // Not vacuous: some fields were kept, and some mistyped ones read as missing.
    expect(read?.filter((item) => item.code === 42 && item.value === '12')).not.toHaveLength(0);
    expect(read?.filter((item) => Object.keys(item).length === 0)).not.toHaveLength(0);
    // Only the four fields, and only with a value (gathered first: one expect per field of
    // 83,521 records took seconds).
    const strays = (read ?? []).flatMap((item) =>
      Object.entries(item).filter(
        ([key, value]) => !(FIELDS as readonly string[]).includes(key) || value === undefined,
      ),
    );
    expect(strays).toEqual([]);
    // 167,042 records read twice and compared: seconds of work, more on a busy machine; the
    // deadline only bounds a hang (how fast the reader is, the bench measures).
  }, 60_000);

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
