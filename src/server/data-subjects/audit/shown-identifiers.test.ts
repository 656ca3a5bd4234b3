// Which data subjects an answer showed, on the shapes the platform answers with (slices with
// `content`, bare lists, single records, linked identity groups with members and identifier
// lists), within fixed bounds for huge or hostile answers.
import { describe, expect, it } from 'vitest';
import { countRecords, isIdentifierField, SHOWN_LIMITS, shownSubjects } from './shown-identifiers';

describe('shownSubjects', () => {
  it('collects the identifiers of a slice and counts its content', () => {
    const slice = {
      content: [
        { identifier: 'ada.lovelace@example.com', identifierType: 'Email', purposes: [] },
        { identifier: 'grace.hopper@example.com', identifierType: 'Email' },
        { identifier: 'ada.lovelace@example.com' },
      ],
      number: 0,
      size: 50,
      requestContinuation: 'abc',
    };
    const shown = shownSubjects(slice);
    expect(shown.identifiers.sort()).toEqual([
      'ada.lovelace@example.com',
      'grace.hopper@example.com',
    ]);
    expect(shown.recordCount).toBe(3);
    expect(shown.truncated).toBe(false);
  });

  it('finds identifiers in groups, member lists and nested records', () => {
    const groups = [
      {
        id: 'g1',
        primaryDataSubjectIdentifier: 'ada.lovelace@example.com',
        members: [{ identifier: 'alan.turing@example.com' }],
        memberIdentifiers: ['katherine.johnson@example.com'],
        primaryDataSubjects: [{ identifier: 'ADA.LOVELACE@example.com' }],
      },
    ];
    const shown = shownSubjects(groups);
    expect(shown.identifiers.sort()).toEqual([
      'ADA.LOVELACE@example.com',
      'ada.lovelace@example.com',
      'alan.turing@example.com',
      'katherine.johnson@example.com',
    ]);
    expect(shown.recordCount).toBe(1);
    expect(countRecords({ identifier: 'x' })).toBe(1);
    expect(countRecords([1, 2])).toBe(2);
    expect(countRecords(null)).toBe(0);
  });

  it('takes only identifier-bearing fields', () => {
    expect(isIdentifierField('identifier')).toBe(true);
    expect(isIdentifierField('memberIdentifiers')).toBe(true);
    expect(isIdentifierField('primaryDataSubjectIdentifier')).toBe(true);
    expect(isIdentifierField('identifierType')).toBe(false);
    expect(isIdentifierField('purposeGuid')).toBe(false);
    expect(shownSubjects({ name: 'ada.lovelace@example.com' }).identifiers).toEqual([]);
  });

  it('stops at its bounds on a huge or deeply nested answer, and says so', () => {
    const huge = {
      content: Array.from({ length: SHOWN_LIMITS.maxNodes + 10 }, (_, i) => ({
        identifier: `s${i}@example.com`,
      })),
    };
    const shown = shownSubjects(huge);
    expect(shown.truncated).toBe(true);
    expect(shown.identifiers.length).toBeLessThanOrEqual(SHOWN_LIMITS.maxIdentifiers);
    expect(shown.recordCount).toBe(SHOWN_LIMITS.maxNodes + 10);

    let deep: unknown = { identifier: 'deep@example.com' };
    for (let i = 0; i < 10_000; i += 1) deep = { next: deep };
    expect(shownSubjects(deep)).toMatchObject({ identifiers: [], truncated: true });
  });
});
