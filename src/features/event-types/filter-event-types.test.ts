// Filtering, faceting and sorting as the user of the event-types table sees them.
import { describe, expect, it } from 'vitest';
import { eventTypesCsv } from './export-event-types';
import type { EventType } from '../../shared/event-types';
import {
  NOT_SET,
  collectFacetUniverse,
  filterEventTypes,
  prepareEventTypes,
  sortEventTypes,
  type EventTypeFilters,
  type FacetOption,
  orderFacetOptions,
} from './filter-event-types';

const ITEMS: EventType[] = [
  { code: 101, value: 'Consent given', objectTypeName: 'Purpose', moduleName: 'Consent' },
  { code: 102, value: 'Consent withdrawn', objectTypeName: 'Purpose', moduleName: 'Consent' },
  { code: 201, value: 'Request created', objectTypeName: 'Request', moduleName: 'DSAR' },
  { code: 202, value: 'Request closed', objectTypeName: 'Request', moduleName: 'DSAR' },
  { code: 301, value: 'Cookie banner shown', objectTypeName: 'Domain', moduleName: 'Cookies' },
  { code: 999, value: 'Orphan event', objectTypeName: 'Purpose' },
  { value: 'No code at all', moduleName: 'Consent' },
  { code: 12, moduleName: '   ' },
];

const rows = prepareEventTypes(ITEMS);
const universe = collectFacetUniverse(rows);
const NO_FILTERS: EventTypeFilters = { q: '', modules: [], objectTypes: [] };

function run(filters: Partial<EventTypeFilters>) {
  return filterEventTypes(rows, universe, { ...NO_FILTERS, ...filters });
}
function names(result: { rows: readonly { value: string | undefined }[] }) {
  return result.rows.map((row) => row.value);
}
function counts(options: FacetOption[]) {
  return Object.fromEntries(options.map((option) => [option.value, option.count]));
}

describe('prepareEventTypes', () => {
  it('reads blank names as missing', () => {
    expect(rows[7]?.moduleName).toBeUndefined();
    expect(rows[7]?.value).toBeUndefined();
  });
});

describe('collectFacetUniverse', () => {
  it('lists values alphabetically with "(not set)" last', () => {
    expect(universe.modules).toEqual(['Consent', 'Cookies', 'DSAR', NOT_SET]);
    expect(universe.objectTypes).toEqual(['Domain', 'Purpose', 'Request', NOT_SET]);
  });
});

describe('filterEventTypes', () => {
  it('shows everything without filters', () => {
    expect(run({}).rows).toHaveLength(ITEMS.length);
  });

  it('ORs the values within one facet', () => {
    expect(names(run({ modules: ['Consent', 'Cookies'] }))).toEqual([
      'Consent given',
      'Consent withdrawn',
      'Cookie banner shown',
      'No code at all',
    ]);
  });

  it('ANDs across facets', () => {
    expect(names(run({ modules: ['Consent'], objectTypes: ['Purpose'] }))).toEqual([
      'Consent given',
      'Consent withdrawn',
    ]);
  });

  it('ANDs search with facets', () => {
    expect(names(run({ modules: ['Consent', 'DSAR'], q: 'closed' }))).toEqual(['Request closed']);
  });

  it('filters records missing the field through "(not set)"', () => {
    expect(names(run({ modules: [NOT_SET] }))).toEqual(['Orphan event', undefined]);
    expect(names(run({ objectTypes: [NOT_SET] }))).toEqual(['No code at all', undefined]);
  });

  it('searches names case-insensitively as a substring', () => {
    expect(names(run({ q: 'CONSENT W' }))).toEqual(['Consent withdrawn']);
    expect(names(run({ q: '  request ' }))).toEqual(['Request created', 'Request closed']);
  });

  it('searches codes as text, so a number matches any code containing it', () => {
    expect(names(run({ q: '20' }))).toEqual(['Request created', 'Request closed']);
    expect(names(run({ q: '12' }))).toEqual([undefined]);
    expect(names(run({ q: '999' }))).toEqual(['Orphan event']);
  });

  it('counts each facet against search and the other facet, not its own selection', () => {
    const result = run({ modules: ['Consent'] });
    // Module counts ignore the module selection, so ticking "DSAR" visibly would add 2 rows.
    expect(counts(result.modules)).toEqual({ Consent: 3, Cookies: 1, DSAR: 2, [NOT_SET]: 2 });
    // Object-type counts honour the module selection.
    expect(counts(result.objectTypes)).toEqual({ Domain: 0, Purpose: 2, Request: 0, [NOT_SET]: 1 });
  });

  it('narrows facet counts by search', () => {
    const result = run({ q: 'request' });
    expect(counts(result.modules)).toEqual({ Consent: 0, Cookies: 0, DSAR: 2, [NOT_SET]: 0 });
  });

  it('marks selected values and keeps a selected value absent from the data', () => {
    const result = run({ modules: ['Consent', 'Retired module'] });
    expect(result.modules.filter((option) => option.selected).map((o) => o.value)).toEqual([
      'Consent',
      'Retired module',
    ]);
    expect(result.modules.at(-1)).toEqual({ value: 'Retired module', count: 0, selected: true });
  });

  it('keeps the order of the rows it is given', () => {
    const sorted = sortEventTypes(rows, { column: 'code', direction: 'desc' });
    expect(filterEventTypes(sorted, universe, { ...NO_FILTERS, modules: ['DSAR'] }).rows).toEqual([
      rows[3],
      rows[2],
    ]);
  });
});

describe('sortEventTypes', () => {
  it('keeps the fetched order without a sort', () => {
    expect(sortEventTypes(rows, null)).toBe(rows);
  });

  it('sorts codes numerically with missing codes last, both ways', () => {
    const asc = sortEventTypes(rows, { column: 'code', direction: 'asc' }).map((r) => r.code);
    expect(asc).toEqual([12, 101, 102, 201, 202, 301, 999, undefined]);
    const desc = sortEventTypes(rows, { column: 'code', direction: 'desc' }).map((r) => r.code);
    expect(desc).toEqual([999, 301, 202, 201, 102, 101, 12, undefined]);
  });

  it('sorts text case-insensitively with missing values last, both ways', () => {
    const asc = sortEventTypes(rows, { column: 'moduleName', direction: 'asc' });
    expect(asc.map((r) => r.moduleName)).toEqual([
      'Consent',
      'Consent',
      'Consent',
      'Cookies',
      'DSAR',
      'DSAR',
      undefined,
      undefined,
    ]);
    const desc = sortEventTypes(rows, { column: 'moduleName', direction: 'desc' });
    expect(desc.map((r) => r.moduleName).slice(0, 3)).toEqual(['DSAR', 'DSAR', 'Cookies']);
    expect(desc.map((r) => r.moduleName).slice(-2)).toEqual([undefined, undefined]);
  });

  it('does not change the rows it was given', () => {
    const before = rows.map((r) => r.id);
    sortEventTypes(rows, { column: 'value', direction: 'desc' });
    expect(rows.map((r) => r.id)).toEqual(before);
  });
});

describe('orderFacetOptions', () => {
  it('lists selected values first, then matching ones, then the zero counts', () => {
    const ordered = orderFacetOptions([
      { value: 'A', count: 0, selected: false },
      { value: 'B', count: 4, selected: false },
      { value: 'C', count: 0, selected: true },
      { value: 'D', count: 2, selected: false },
      { value: 'E', count: 1, selected: true },
    ]);
    expect(ordered.map((option) => option.value)).toEqual(['C', 'E', 'B', 'D', 'A']);
  });
});

describe('the CSV export', () => {
  it('names its columns in words and keeps a negative code a number', () => {
    const csv = eventTypesCsv(
      prepareEventTypes([
        { code: -5, value: 'Negative', objectTypeName: 'Object', moduleName: 'Module' },
      ]),
    );
    expect(csv).toBe('Code,Name,Object type,Module\r\n-5,Negative,Object,Module\r\n');
  });
});
