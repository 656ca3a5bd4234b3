// The migration view's differences: what v4 adds or leaves out, lists of another length and
// values that disagree, comparing a bare v4 record with a legacy page of records.
import { describe, expect, it } from 'vitest';
import { compareAnswers, RECORDS_PATH } from './compare-answers';

const purpose = (guid: string, status = 'ACTIVE') => ({ purposeGuid: guid, status });

describe('compareAnswers', () => {
  it('sees that v4 basic details leave out the purposes the legacy call has', () => {
    const v4 = { identifier: 'ada@example.com', language: 'en' };
    const legacy = {
      identifier: 'ada@example.com',
      language: 'en',
      purposes: [purpose('a'), purpose('b', 'WITHDRAWN')],
    };
    const diff = compareAnswers(v4, legacy);
    expect(diff.onlyInV4).toEqual([]);
    expect(diff.onlyInLegacy).toEqual([
      'purposes[]',
      'purposes[].purposeGuid',
      'purposes[].status',
    ]);
    expect(diff.inBoth).toEqual(['identifier', 'language']);
    expect(diff.counts).toEqual([]);
    expect(diff.values).toEqual([]);
  });

  it('unwraps a legacy page and compares its one record with the v4 record', () => {
    const v4 = { identifier: 'ada@example.com', purposes: [purpose('a')], purposeVersion: 2 };
    const legacy = {
      content: [{ identifier: 'ada@example.com', purposes: [purpose('a'), purpose('b')] }],
      number: 0,
      size: 20,
      totalElements: 1,
    };
    const diff = compareAnswers(v4, legacy);
    expect(diff.onlyInV4).toEqual(['purposeVersion']);
    expect(diff.counts).toEqual([{ path: 'purposes[]', v4: 1, legacy: 2 }]);
    expect(diff.values).toEqual([{ path: 'purposes[].purposeGuid', v4: [], legacy: ['b'] }]);
    expect(diff.paging).toEqual({ v4: [], legacy: ['number', 'size', 'totalElements'] });
  });

  it('counts records of two listings and pairs them by the token both carry', () => {
    const v4 = { content: [{ token: 't1' }, { token: 't2' }], requestContinuation: 'x' };
    const legacy = { content: [{ token: 't1' }], number: 0 };
    const diff = compareAnswers(v4, legacy);
    expect(diff.counts).toEqual([{ path: RECORDS_PATH, v4: 2, legacy: 1 }]);
    // t2 has no partner: one record only v4 holds, not a value that disagrees.
    expect(diff.values).toEqual([]);
    expect(diff.matched).toEqual({ by: 'token', both: 1, onlyV4: 1, onlyLegacy: 0 });
    expect(diff.paging).toEqual({ v4: ['requestContinuation'], legacy: ['number'] });
  });

  it('compares first pages holding different people record by record, not by position', () => {
    const person = (id: string, identifier: string, language = 'en') => ({
      id,
      identifier,
      language,
    });
    const v4 = { content: [person('1', 'alan.kay@example.com'), person('2', 'ada@example.com')] };
    const legacy = {
      content: [person('3', 'barbara.liskov@example.com'), person('2', 'ada@example.com', 'fr')],
      totalElements: 40,
    };
    const diff = compareAnswers(v4, legacy);
    expect(diff.values).toEqual([{ path: 'language', v4: ['en'], legacy: ['fr'] }]);
    expect(diff.matched).toEqual({ by: 'id', both: 1, onlyV4: 1, onlyLegacy: 1 });
  });

  it('tells renamed fields apart as added and left out', () => {
    const diff = compareAnswers({ linkedIdentityGroupId: 'g' }, { id: 'g' });
    expect(diff.onlyInV4).toEqual(['linkedIdentityGroupId']);
    expect(diff.onlyInLegacy).toEqual(['id']);
  });
});

describe('compareAnswers across the documents’ names', () => {
  it('compares v1’s capitalised fields and nested purposes with v4’s purpose records', () => {
    const v4 = { id: 'p1', name: 'News', status: 'ACTIVE', version: 2, identifier: 'a@x' };
    const v1 = {
      content: [
        {
          Identifier: 'a@x',
          Purposes: [{ Id: 'p1', Name: 'News', Status: 'WITHDRAWN', Version: 2 }],
        },
      ],
      totalElements: 1,
    };
    const result = compareAnswers(v4, v1, { 'purposes[]': '(records)' });
    expect(result.inBoth).toEqual(['id', 'name', 'status', 'version']);
    expect(result.onlyInV4).toEqual(['identifier']);
    expect(result.onlyInLegacy).toEqual([]);
    expect(result.values).toEqual([{ path: 'status', v4: ['ACTIVE'], legacy: ['WITHDRAWN'] }]);
  });

  it('lines up a field the two documents name differently', () => {
    const result = compareAnswers(
      [{ id: 'g', name: 'Home' }],
      { content: [{ id: 'g', groupName: 'Home' }] },
      {
        groupName: 'name',
      },
    );
    expect(result.inBoth).toEqual(['id', 'name']);
    expect(result.onlyInLegacy).toEqual([]);
  });
});

describe('compareAnswers with fields v4 carries under another shape', () => {
  it('finds v2’s data elements map in v4’s name/value entries, and only what is gone left out', () => {
    const v4 = {
      identifier: 'ada@example.com',
      dataElements: [
        { name: 'Country', value: 'DE' },
        { name: 'First name', value: 'Ada' },
      ],
    };
    const v2 = {
      content: [
        {
          identifier: 'ada@example.com',
          dataElements: { Country: 'DE', 'First name': 'Ada', Nickname: 'Countess' },
        },
      ],
    };
    const diff = compareAnswers(v4, v2);
    expect(diff.reshaped).toEqual([
      { path: 'dataElements.country', to: 'dataElements[]', how: 'entry', entry: 'Country' },
      { path: 'dataElements.first name', to: 'dataElements[]', how: 'entry', entry: 'First name' },
    ]);
    expect(diff.onlyInLegacy).toEqual(['dataElements.nickname']);
  });

  it('sees one link token become a list of them, and a list renamed with the same fields', () => {
    const v4 = {
      linkTokens: [{ token: 't', expiryDate: '2027-01-01' }],
      dataElements: [{ name: 'Country', value: 'DE', linked: false }],
    };
    const v3 = { linkToken: 't', dataElementsMetaData: [{ name: 'Country', value: 'DE' }] };
    const diff = compareAnswers(v4, v3);
    expect(diff.reshaped).toEqual([
      { path: 'dataElementsMetaData[]', to: 'dataElements[]', how: 'moved' },
      { path: 'linkToken', to: 'linkTokens[]', how: 'list' },
    ]);
    expect(diff.onlyInLegacy).toEqual([]);
  });

  it('keeps a list left out when v4’s list lacks one of its fields', () => {
    const diff = compareAnswers(
      { dataElements: [{ name: 'Country' }] },
      { dataElementsMetaData: [{ name: 'Country', consentGiven: true }] },
    );
    expect(diff.reshaped).toEqual([]);
    expect(diff.onlyInLegacy).toContain('dataElementsMetaData[].consentGiven');
  });
});
