import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EventTypesResponseSchema, readEventTypes } from '../../shared/event-types';
import { checkedEventTypesBody, checkedEventTypesJson } from './event-types-json';

const AT = '2026-01-02T03:04:05.000Z';

/** The answer body for `text`; undefined when it is not a list. */
function eventTypesResponseJson(text: string, fetchedAt: string): string | undefined {
  return checkedEventTypesBody(Buffer.from(text), fetchedAt)?.body.toString();
}

describe('checkedEventTypesJson', () => {
  it.each([
    [
      'complete records',
      '[{"code":1,"value":"A","objectTypeName":"O","moduleName":"M"}]',
      [{ code: 1, value: 'A', objectTypeName: 'O', moduleName: 'M' }],
    ],
    ['missing fields', '[{"code":2},{"value":"B"},{}]', [{ code: 2 }, { value: 'B' }, {}]],
    ['an empty list', ' [ ] ', []],
    [
      'names with quotes, commas and unicode',
      '[{"value":"Purpose \\"Marketing\\" Withdrawn, Bulk é"}]',
      [{ value: 'Purpose "Marketing" Withdrawn, Bulk é' }],
    ],
    [
      'an unknown field, stripped',
      '[{"code":3,"value":"C","extra":{"secret":1}}]',
      [{ code: 3, value: 'C' }],
    ],
    ['a null field, read as missing', '[{"code":null,"value":"D"}]', [{ value: 'D' }]],
    [
      'a mistyped field, read as missing',
      '[{"code":"7","value":8,"moduleName":"M"}]',
      [{ moduleName: 'M' }],
    ],
    ['a fractional code, read as missing', '[{"code":1.5,"value":"E"}]', [{ value: 'E' }]],
  ])('answers the validated list for %s', (_, text, items) => {
    const json = eventTypesResponseJson(text, AT);
    expect(json).toBeDefined();
    const answer = JSON.parse(json as string);
    expect(answer).toEqual({ items, fetchedAt: AT });
    expect(EventTypesResponseSchema.parse(answer)).toEqual(answer);
  });

  it.each([
    ['not JSON', '<html>'],
    ['an object instead of a list', '{"items":[]}'],
    ['a list of non-objects', '[1,2]'],
  ])('refuses %s', (_, text) => {
    expect(eventTypesResponseJson(text, AT)).toBeUndefined();
  });

  it('serves the answer as it came when reading changes nothing, whatever its spacing and escapes', () => {
    const text =
      '[ {"moduleName":"M","code":1,"objectTypeName":"O","value":"Caf\\u00e9 \\"A\\""},\n {"value":"é"}, {} ]\n';
    const bytes = Buffer.from(text);
    const json = checkedEventTypesJson(bytes);
    expect(json?.toString()).toBe(text);
    expect(JSON.parse(json!.toString())).toEqual([
      { code: 1, value: 'Café "A"', objectTypeName: 'O', moduleName: 'M' },
      { value: 'é' },
      {},
    ]);
  });

  it.each([
    ['an unknown field', '[{"code":1,"extra":"x"}]', '[{"code":1}]'],
    ['a mistyped field', '[{"code":1,"value":2}]', '[{"code":1}]'],
    ['a null field', '[{"code":1,"value":null}]', '[{"code":1}]'],
    ['a code of -0', '[{"code":-0}]', '[{"code":0}]'],
    ['a "__proto__" member', '[{"code":1,"__proto__":{"value":"x"}}]', '[{"code":1}]'],
    [
      'bytes that are not UTF-8',
      Buffer.from([
        0x5b, 0x7b, 0x22, 0x76, 0x61, 0x6c, 0x75, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x5d,
      ]),
      '[{"value":"\ufffd"}]',
    ],
  ])('writes the list anew when the answer has %s', (_, input, expected) => {
    const json = checkedEventTypesJson(Buffer.isBuffer(input) ? input : Buffer.from(input));
    // Bytes, not text: decoding would hide a byte that is not UTF-8.
    expect(json).toEqual(Buffer.from(expected));
  });

  it('serves what writing the checked list anew would serve, for every field value', () => {
    // The values as they appear in the answer's text: -0 and 1.0 have no JSON.stringify form.
    const values = ['42', '-0', '0', '1.0', '1.5', '"A"', '""', 'null', 'true', '[]', '{"code":1}'];
    let records = [''];
    for (const field of ['code', 'value', 'objectTypeName', 'moduleName']) {
      records = records.flatMap((record) => [
        record,
        ...values.map((value) => `${record}${record ? ',' : ''}"${field}":${value}`),
      ]);
    }
    expect(records).toHaveLength(12 ** 4);
    let asSent = 0;
    const different: string[] = [];
    for (const record of records) {
      const text = `[{${record}}]`;
      const json = checkedEventTypesJson(Buffer.from(text))!.toString();
      if (json === text) asSent += 1;
      // What the console served before it ever passed an answer on as sent. isDeepStrictEqual
      // tells -0 from 0, so a -0 passed on would be caught here.
      const anew: unknown = JSON.parse(JSON.stringify(readEventTypes(JSON.parse(text))));
      if (!isDeepStrictEqual(JSON.parse(json), anew)) different.push(text);
    }
    expect(different).toEqual([]);
    // Both ways were taken: records with only right fields went as sent, the others anew.
    expect(asSent).toBeGreaterThan(100);
    expect(asSent).toBeLessThan(records.length / 2);
  });
});
