// The incident filters as a shareable link, and which live incidents belong in a filtered view.
import { describe, expect, it } from 'vitest';
import {
  incidentMatches,
  parseIncidentFilters,
  serialiseIncidentFilters,
} from './incident-url-state';
import { incident, T0 } from './test-support/fixtures';

describe('incident filters in the URL', () => {
  it('round-trips a filtered view', () => {
    const filters = {
      since: '2025-01-06T09:00:00.000Z',
      until: '2025-01-06T10:00:00.000Z',
      period: 'HOUR' as const,
      rule: 'account-hour',
    };
    expect(parseIncidentFilters(serialiseIncidentFilters(filters))).toEqual(filters);
    expect(serialiseIncidentFilters({}).toString()).toBe('');
  });

  it('drops what a link should not carry instead of failing', () => {
    expect(
      parseIncidentFilters(
        new URLSearchParams(
          'since=yesterday&period=DAY&rule=%3Cscript%3E&until=2025-01-06T08:00:00Z',
        ),
      ),
    ).toEqual({ until: '2025-01-06T08:00:00Z' });
    // A range the wrong way round keeps its start only.
    expect(
      parseIncidentFilters(
        new URLSearchParams('since=2025-01-06T10:00:00Z&until=2025-01-06T09:00:00Z'),
      ),
    ).toEqual({ since: '2025-01-06T10:00:00Z' });
  });

  it('tells whether a live incident belongs in a view', () => {
    const seen = incident();
    expect(incidentMatches(seen, {})).toBe(true);
    expect(incidentMatches(seen, { period: 'HOUR' })).toBe(false);
    expect(incidentMatches(seen, { rule: 'account-minute' })).toBe(true);
    expect(incidentMatches(seen, { rule: 'unmatched' })).toBe(false);
    expect(incidentMatches({ ...seen, ruleId: null }, { rule: 'unmatched' })).toBe(true);
    expect(incidentMatches(seen, { since: new Date(T0 + 1).toISOString() })).toBe(false);
    expect(incidentMatches(seen, { until: new Date(T0 - 1).toISOString() })).toBe(false);
  });
});
