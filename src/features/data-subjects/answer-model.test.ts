// Laying an answer out: the record's fields, a table per list of records, paging kept apart.
import { describe, expect, it } from 'vitest';
import {
  describeAnswer,
  fieldLabel,
  inlineLabel,
  mergePages,
  pathLabel,
  summarise,
} from './answer-model';

describe('describeAnswer', () => {
  it('lists a subject’s fields and puts its profiles in a table, names first, ids last', () => {
    const model = describeAnswer({
      id: 'g',
      identifier: 'ada@example.com',
      profiles: [
        {
          id: 'p',
          consentDate: '2026-01-01T00:00:00Z',
          lastTransactionCollectionPointId: 'c',
          name: 'News',
          status: 'ACTIVE',
          purposeNote: 'an undocumented field',
        },
      ],
      latestGeoLocation: { country: 'GB' },
    });
    expect(model.fields.map((field) => field.label)).toEqual([
      'ID',
      'Identifier',
      'Latest geo location · Country',
    ]);
    expect(model.tables).toHaveLength(1);
    expect(model.tables[0]?.title).toBe('Profiles');
    expect(model.tables[0]?.columns.map((column) => column.key)).toEqual([
      'name',
      'status',
      'consentDate',
      'purposeNote',
      'id',
      'lastTransactionCollectionPointId',
    ]);
  });

  it('keeps a slice’s paging apart, its pageable and sort objects included', () => {
    const model = describeAnswer({
      content: [],
      first: true,
      last: false,
      empty: true,
      pageable: { pageNumber: 0 },
      sort: { sorted: true },
    });
    expect(model.fields).toEqual([]);
    expect(model.paging.map((field) => field.key)).toEqual([
      'first',
      'last',
      'empty',
      'pageable',
      'sort',
    ]);
  });

  it('titles the records of a listing and keeps paging fields apart', () => {
    const model = describeAnswer({ content: [{ token: 't' }], number: 0, size: 10 }, 'Link tokens');
    expect(model.tables[0]?.title).toBe('Link tokens');
    expect(model.fields).toEqual([]);
    expect(model.paging.map((field) => field.key)).toEqual(['number', 'size']);
  });

  it('shows an empty list as an empty table rather than a field', () => {
    expect(describeAnswer({ content: [] }, 'Groups').tables[0]?.rows).toEqual([]);
  });
});

describe('mergePages', () => {
  it('puts the records of every page one after another', () => {
    expect(
      mergePages([
        { content: [1, 2], requestContinuation: 'a' },
        { content: [3], requestContinuation: null },
      ]),
    ).toEqual({ content: [1, 2, 3], requestContinuation: null });
    expect(mergePages([{ a: 1 }])).toEqual({ a: 1 });
  });
});

describe('labels', () => {
  it('keeps an acronym’s capitals inside a sentence', () => {
    expect(['id', 'name', 'dataSubjectGuid'].map(fieldLabel).map(inlineLabel).join(', ')).toBe(
      'ID, name, data subject GUID',
    );
  });

  it('reads field names as words', () => {
    expect(fieldLabel('lastTransactionDate')).toBe('Last transaction date');
    expect(fieldLabel('linkedIdentityGroupId')).toBe('Linked identity group ID');
    expect(pathLabel('purposes[].lastCollectionPointName')).toBe(
      'Purposes › Last collection point name',
    );
    expect(
      summarise([{ identifier: '+44 20 7946 0100', linkedDate: '2026-02-01T10:00:00Z' }]),
    ).toBe('Identifier: +44 20 7946 0100, Linked date: 2026-02-01');
  });

  it('keeps each data element’s name beside its value, in v2’s map and v4’s list alike', () => {
    expect(summarise({ firstName: 'Ada', lastName: 'Lovelace', country: 'DE' })).toBe(
      'First name: Ada, Last name: Lovelace, Country: DE',
    );
    expect(summarise([{ name: 'firstName', value: 'Ada', doNotCall: false }])).toBe(
      'First name: Ada',
    );
  });
});
