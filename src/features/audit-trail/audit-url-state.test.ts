// The audit trail's filters in the URL: shareable, forgiving of bad values, never the identifier.
import { describe, expect, it } from 'vitest';
import {
  auditQueryString,
  parseAuditFilters,
  serialiseAuditFilters,
  reversedPeriod,
} from './audit-url-state';

describe('audit filters in the URL', () => {
  it('round-trips the filters and drops what is invalid', () => {
    const params = new URLSearchParams(
      'since=2026-03-01&until=2026-03-31&user=admin&operation=v4-details&outcome=not-found&identifier=ada',
    );
    const filters = parseAuditFilters(params);
    expect(filters).toEqual({
      since: '2026-03-01',
      until: '2026-03-31',
      user: 'admin',
      operation: 'v4-details',
      outcome: 'not-found',
    });
    expect(serialiseAuditFilters(filters).toString()).toBe(
      'since=2026-03-01&until=2026-03-31&user=admin&operation=v4-details&outcome=not-found',
    );
    expect(parseAuditFilters(new URLSearchParams('outcome=maybe&since=yesterday'))).toEqual({});
    // A reversed period is kept as written, for the page to name it.
    const reversed = parseAuditFilters(new URLSearchParams('since=2026-03-02&until=2026-03-01'));
    expect(reversed).toEqual({ since: '2026-03-02', until: '2026-03-01' });
    expect(reversedPeriod(reversed)).toBe(true);
    expect(reversedPeriod({ since: '2026-03-01', until: '2026-03-01' })).toBe(false);
  });

  it('asks the API for whole local days', () => {
    const query = new URLSearchParams(
      auditQueryString({ since: '2026-03-01', until: '2026-03-01' }).slice(1),
    );
    const since = new Date(query.get('since')!);
    const until = new Date(query.get('until')!);
    expect([since.getDate(), since.getHours(), since.getMinutes()]).toEqual([1, 0, 0]);
    expect([until.getDate(), until.getHours(), until.getMinutes()]).toEqual([1, 23, 59]);
    expect(auditQueryString({})).toBe('');
  });
});
