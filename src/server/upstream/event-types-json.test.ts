import { describe, expect, it } from 'vitest';
import { EventTypesResponseSchema } from '../../shared/event-types';
import { checkedEventTypesJson, eventTypesBody } from './event-types-json';

const AT = '2026-01-02T03:04:05.000Z';

/** The answer body for `text`; undefined when it is not a list. */
function eventTypesResponseJson(text: string, fetchedAt: string): string | undefined {
  const itemsJson = checkedEventTypesJson(Buffer.from(text));
  return itemsJson === undefined ? undefined : eventTypesBody(itemsJson, fetchedAt).body.toString();
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
});
