// The accountability report's evidence sentence: what a data-protection officer reads about the
// chain, in the same words and the same time notation as the audit page.
import { describe, expect, it } from 'vitest';
import { evidenceSummary } from './accountability-report';
import type { AuditVerification } from './audit-evidence-store';

const walk = (entries: number, ok = true): AuditVerification => ({
  at: '2026-12-02T01:36:45.737Z',
  ok,
  entries,
  brokenAt: ok ? null : 3,
  detail: ok ? '' : 'entry 3 was changed',
  source: 'daily job',
});

describe('evidenceSummary', () => {
  it('says not verified yet when the only walk was of an empty trail, as the audit page does', () => {
    expect(evidenceSummary(walk(0), false, null)).toBe(
      'The chain has not been verified yet (run “verify now” on the audit page); no signed checkpoint has been taken yet.',
    );
  });

  it('writes times in UTC as people read them, not as ISO strings', () => {
    const text = evidenceSummary(walk(12), true, { seq: 12, at: '2026-12-02T01:40:00.000Z' });
    expect(text).toBe(
      'Verified intact on 2026-12-02 01:36:45 UTC (12 entries), after the period ended; newest signed checkpoint: entry 12, 2026-12-02 01:40:00 UTC.',
    );
    expect(evidenceSummary(walk(12, false), true, null)).toMatch(
      /^The last verification, 2026-12-02 01:36:45 UTC, found the chain broken: entry 3 was changed;/,
    );
  });
});
