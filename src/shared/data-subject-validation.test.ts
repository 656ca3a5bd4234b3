// The lookup rules the BFF enforces and the form shows inline.
import { describe, expect, it } from 'vitest';
import { BUILT_IN_OPERATIONS, findOperation } from './data-subject-operations';
import { checkLookupParams, parseIsoDateTime } from './data-subject-validation';

const operation = (id: string) => findOperation(BUILT_IN_OPERATIONS, id)!;

describe('checkLookupParams', () => {
  it('trims the identifier and passes it on', () => {
    expect(
      checkLookupParams(operation('v4-details'), { identifier: '  ada@example.com ' }),
    ).toEqual({ values: { identifier: 'ada@example.com' }, errors: {} });
  });

  it.each([
    [{}, { identifier: 'is required' }],
    [{ identifier: '   ' }, { identifier: 'is required' }],
    [{ identifier: 'a\u0007b' }, { identifier: 'must not contain control characters' }],
    [{ identifier: 'a\u0085b' }, { identifier: 'must not contain control characters' }],
    [{ identifier: 'x'.repeat(257) }, { identifier: 'must be at most 256 characters' }],
    [{ identifier: '李@example.com' }, { identifier: expect.stringMatching(/Latin-1/) }],
    [{ identifier: 42 }, {}],
    [{ identifier: ['a'] }, { identifier: 'must be text' }],
    [{ identifier: 'a', other: 'b' }, { other: 'is not a parameter of this operation' }],
  ])('checks the identifier of %o', (params, errors) => {
    expect(checkLookupParams(operation('v4-details'), params).errors).toEqual(errors);
  });

  it('wants a UUID for purposeGuid and accepts any case', () => {
    const purpose = operation('v4-purpose-profile');
    expect(
      checkLookupParams(purpose, { identifier: 'a', purposeGuid: 'not-a-guid' }).errors,
    ).toEqual({ purposeGuid: expect.stringMatching(/^must be a UUID/) });
    expect(
      checkLookupParams(purpose, {
        identifier: 'a',
        purposeGuid: '6F1C2D3E-4A5B-4C6D-8E7F-9A0B1C2D3E4F',
      }).errors,
    ).toEqual({});
  });

  it('normalises dates to UTC, wants them in order and at most the documented days apart', () => {
    const tokens = operation('v4-link-tokens');
    expect(
      checkLookupParams(tokens, { fromDate: '2026-01-01', toDate: '2026-01-07T10:00:00+01:00' }),
    ).toEqual({
      values: { fromDate: '2026-01-01T00:00:00.000Z', toDate: '2026-01-07T09:00:00.000Z' },
      errors: {},
    });
    // A week to the millisecond is allowed; one more is not.
    expect(
      checkLookupParams(tokens, { fromDate: '2026-01-01', toDate: '2026-01-08T00:00:00Z' }).errors,
    ).toEqual({});
    expect(
      checkLookupParams(tokens, { fromDate: '2026-01-01', toDate: '2026-01-08T00:00:00.001Z' })
        .errors,
    ).toEqual({ toDate: 'must be at most 7 days after From' });
    expect(
      checkLookupParams(tokens, { fromDate: '2026-02-01', toDate: '2026-01-01' }).errors,
    ).toEqual({ toDate: 'must not be before From' });
    expect(
      checkLookupParams(operation('v4-purposes-by-date'), {
        updatedSince: '2026-01-01',
        updatedUntil: '2026-02-01',
      }).errors,
    ).toEqual({ updatedUntil: 'must be at most 30 days after Updated since' });
    expect(
      checkLookupParams(tokens, { fromDate: '2026-02-30', toDate: '2026-03-01' }).errors,
    ).toEqual({ fromDate: expect.stringMatching(/ISO 8601/) });
  });

  it('takes optional filters when given and leaves them out when empty', () => {
    const byDate = operation('v4-purposes-by-date');
    const base = { updatedSince: '2026-01-01', updatedUntil: '2026-01-31' };
    expect(checkLookupParams(byDate, { ...base, status: '', purposeId: '' }).values).toEqual({
      updatedSince: '2026-01-01T00:00:00.000Z',
      updatedUntil: '2026-01-31T00:00:00.000Z',
    });
    expect(checkLookupParams(byDate, { ...base, status: 'MAYBE' }).errors).toEqual({
      status: expect.stringMatching(/^must be one of ACTIVE/),
    });
  });

  it('bounds page sizes as documented: 50 for v4, the legacy documents’ own for legacy', () => {
    expect(
      checkLookupParams(operation('v4-purposes'), { identifier: 'a', size: '51' }).errors,
    ).toEqual({
      size: 'must be a whole number from 1 to 50',
    });
    const tokens = operation('v1-link-tokens');
    expect(checkLookupParams(tokens, { identifier: 'a', size: '0' }).errors).toEqual({
      size: 'must be a whole number from 1 to 2000',
    });
    expect(checkLookupParams(tokens, { identifier: 'a', page: '2', size: 50 }).values).toEqual({
      identifier: 'a',
      page: '2',
      size: '50',
    });
  });
});

describe('parseIsoDateTime', () => {
  it.each([
    ['2026-01-31', Date.UTC(2026, 0, 31)],
    ['2026-01-31T09:00Z', Date.UTC(2026, 0, 31, 9)],
    ['2026-01-31T09:00:00.123+02:00', Date.UTC(2026, 0, 31, 7, 0, 0, 123)],
    ['2026-01-31T09:00:00', undefined],
    ['2026-13-01', undefined],
    ['2026-02-29', undefined],
    ['31/01/2026', undefined],
  ])('reads %s', (text, expected) => {
    expect(parseIsoDateTime(text)).toBe(expected);
  });
});
