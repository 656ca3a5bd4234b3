import { describe, expect, it } from 'vitest';
import { EventTypesResponseSchema, UpstreamEventTypesSchema } from '../../shared/event-types';
import {
  CanonicalTextMemo,
  eventTypesResponseJson,
  isCanonicalEventTypeList,
} from './event-types-json';

const AT = '2026-01-02T03:04:05.000Z';

/** What the schema path alone would answer: the definition the fast path must match. */
function bySchema(text: string) {
  return { items: UpstreamEventTypesSchema.parse(JSON.parse(text)), fetchedAt: AT };
}

describe('eventTypesResponseJson', () => {
  it.each([
    ['complete records', '[{"code":1,"value":"A","objectTypeName":"O","moduleName":"M"}]'],
    ['missing fields', '[{"code":2},{"value":"B"},{}]'],
    ['an empty list', ' [ ] '],
    [
      'names with quotes, commas and unicode',
      '[{"value":"Purpose \\"Marketing\\" Withdrawn, Bulk é"}]',
    ],
    ['an unknown field, stripped', '[{"code":3,"value":"C","extra":{"secret":1}}]'],
    ['a null field, read as missing', '[{"code":null,"value":"D"}]'],
    ['a mistyped field, read as missing', '[{"code":"7","value":8,"moduleName":"M"}]'],
    ['a fractional code, read as missing', '[{"code":1.5,"value":"E"}]'],
  ])('answers exactly what the schema would for %s', (_, text) => {
    const json = eventTypesResponseJson(text, AT);
    expect(json).toBeDefined();
    const answer = JSON.parse(json as string);
    expect(EventTypesResponseSchema.parse(answer)).toEqual(answer);
    expect(answer).toEqual(bySchema(text));
  });

  it.each([
    ['not JSON', '<html>'],
    ['an object instead of a list', '{"items":[]}'],
    ['a list of non-objects', '[1,2]'],
  ])('refuses %s', (_, text) => {
    expect(eventTypesResponseJson(text, AT)).toBeUndefined();
  });

  it('reuses the upstream text only for lists the schema would return unchanged', () => {
    expect(isCanonicalEventTypeList([{ code: 1, value: 'A' }])).toBe(true);
    expect(isCanonicalEventTypeList([{ code: 1, other: 'x' }])).toBe(false);
    expect(isCanonicalEventTypeList([{ code: null }])).toBe(false);
    expect(isCanonicalEventTypeList([[]])).toBe(false);
  });

  it('judges every new text afresh when a memo remembers the last canonical one', () => {
    const memo = { memo: new CanonicalTextMemo(1_000), key: 'all' };
    const canonical = '[{"code":1,"value":"A"}]';
    expect(JSON.parse(eventTypesResponseJson(canonical, AT, memo) as string).items).toEqual([
      { code: 1, value: 'A' },
    ]);
    expect(memo.memo.has('all', canonical)).toBe(true);
    // The same key, a different answer: an unknown field is still stripped, a bad one refused.
    const withExtra = '[{"code":1,"value":"A","token":"x"}]';
    expect(JSON.parse(eventTypesResponseJson(withExtra, AT, memo) as string).items).toEqual([
      { code: 1, value: 'A' },
    ]);
    expect(eventTypesResponseJson('[1]', AT, memo)).toBeUndefined();
    expect(eventTypesResponseJson('[1]', AT, memo)).toBeUndefined();
  });
});

describe('CanonicalTextMemo', () => {
  it('keeps one text per key and forgets the oldest past its size bound', () => {
    const memo = new CanonicalTextMemo(10);
    memo.remember('a', '[1,2,3]');
    memo.remember('a', '[4]');
    expect(memo.has('a', '[1,2,3]')).toBe(false);
    expect(memo.has('a', '[4]')).toBe(true);
    memo.remember('b', '[5,6]');
    expect(memo.has('a', '[4]')).toBe(true);
    // 3 + 5 + 7 characters is over 10: the oldest go until the newest fits.
    memo.remember('c', '[7,8,9]');
    expect(memo.has('a', '[4]')).toBe(false);
    expect(memo.has('b', '[5,6]')).toBe(false);
    expect(memo.has('c', '[7,8,9]')).toBe(true);
    memo.remember('d', 'x'.repeat(11));
    expect(memo.has('d', 'x'.repeat(11))).toBe(false);
  });
});
