// A shared link must reproduce the view, and a mangled one must still open a sensible page.
import { describe, expect, it } from 'vitest';
import { FILTER_LIMITS } from '../../shared/filter-values';
import {
  DEFAULT_VIEW_STATE,
  hasActiveFilters,
  parseViewState,
  serialiseViewState,
  type EventTypesViewState,
} from './event-types-url-state';
import { NOT_SET } from './filter-event-types';

function parse(search: string): EventTypesViewState {
  return parseViewState(new URLSearchParams(search));
}

describe('event-types URL state', () => {
  it('reads an empty query as the default view', () => {
    expect(parse('')).toEqual(DEFAULT_VIEW_STATE);
  });

  it('reads every part of a view', () => {
    expect(
      parse(
        '?q=consent&module=A&module=B&objectType=X&objectType=%28not+set%29&sort=module&dir=desc',
      ),
    ).toEqual({
      q: 'consent',
      modules: ['A', 'B'],
      objectTypes: ['X', NOT_SET],
      sort: { column: 'moduleName', direction: 'desc' },
    });
  });

  it('round-trips a view through the URL', () => {
    const view: EventTypesViewState = {
      q: 'request & more',
      modules: ['Consent', 'Data, Subject'],
      objectTypes: [NOT_SET],
      sort: { column: 'value', direction: 'asc' },
    };
    const search = serialiseViewState(view).toString();
    expect(search).toBe(
      'q=request+%26+more&module=Consent&module=Data%2C+Subject&objectType=%28not+set%29&sort=name&dir=asc',
    );
    expect(parse(search)).toEqual(view);
  });

  it('leaves defaults out of the URL', () => {
    expect(serialiseViewState(DEFAULT_VIEW_STATE).toString()).toBe('');
  });

  it('uses readable sort names for every column', () => {
    for (const [name, column] of [
      ['code', 'code'],
      ['name', 'value'],
      ['objectType', 'objectTypeName'],
      ['module', 'moduleName'],
    ] as const) {
      expect(parse(`sort=${name}`).sort).toEqual({ column, direction: 'asc' });
    }
  });

  it('drops an unknown sort column and an unknown direction', () => {
    expect(parse('sort=password&dir=desc').sort).toBeNull();
    expect(parse('sort=code&dir=sideways').sort).toEqual({ column: 'code', direction: 'asc' });
    expect(parse('dir=desc').sort).toBeNull();
  });

  it('drops facet values that fail validation, keeping the valid ones', () => {
    const tooLong = 'x'.repeat(FILTER_LIMITS.maxLength + 1);
    const view = parse(
      `module=&module=%20&module=ok&module=${tooLong}&module=bad%07bell&objectType=fine`,
    );
    expect(view.modules).toEqual(['ok']);
    expect(view.objectTypes).toEqual(['fine']);
  });

  it('drops repeated values and values beyond the limit', () => {
    const many = Array.from({ length: FILTER_LIMITS.maxValues + 5 }, (_, i) => `module=m${i}`);
    const view = parse(['module=m0', ...many].join('&'));
    expect(view.modules).toHaveLength(FILTER_LIMITS.maxValues);
    expect(view.modules[0]).toBe('m0');
    expect(view.modules[1]).toBe('m1');
  });

  it('drops search text with control characters or beyond the length limit', () => {
    expect(parse('q=a%00b').q).toBe('');
    expect(parse(`q=${'y'.repeat(FILTER_LIMITS.maxLength + 1)}`).q).toBe('');
  });

  it('ignores parameters it does not know', () => {
    expect(parse('page=3&foo=bar')).toEqual(DEFAULT_VIEW_STATE);
  });

  it('says whether any filter narrows the rows', () => {
    expect(hasActiveFilters(DEFAULT_VIEW_STATE)).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_VIEW_STATE, q: '  ' })).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_VIEW_STATE, q: 'a' })).toBe(true);
    expect(hasActiveFilters({ ...DEFAULT_VIEW_STATE, objectTypes: ['X'] })).toBe(true);
  });
});
