// Live changes folded into the loaded history: one row per incident, newest first, never older.
import { describe, expect, it } from 'vitest';
import { mergeIncident } from './merge-incident';
import { incident, T0 } from './test-support/fixtures';

const loaded = (items: ReturnType<typeof incident>[]) => ({
  pages: [{ items, nextCursor: null }],
  pageParams: [undefined],
});

describe('mergeIncident', () => {
  it('keeps one row per incident key: a newer version replaces the row', () => {
    const data = loaded([incident({ seq: 1, hits: 1 })]);
    const merged = mergeIncident(data, incident({ seq: 5, hits: 2 }), {});
    expect(merged?.pages[0]?.items).toEqual([incident({ seq: 5, hits: 2 })]);
  });

  it('ignores an older version arriving late (a replay after a live update)', () => {
    const data = loaded([incident({ seq: 5, hits: 2 })]);
    expect(mergeIncident(data, incident({ seq: 3, hits: 1 }), {})).toBe(data);
  });

  it('puts a new incident on top, newest first, if the view’s filters let it in', () => {
    const older = incident({ key: 'a', firstSeen: new Date(T0 - 60_000).toISOString() });
    const data = loaded([older]);
    const fresh = incident({ key: 'b', seq: 9 });
    expect(mergeIncident(data, fresh, {})?.pages[0]?.items.map((i) => i.key)).toEqual(['b', 'a']);
    expect(mergeIncident(data, fresh, { period: 'HOUR' })).toBe(data);
  });

  it('leaves an unloaded view alone', () => {
    expect(mergeIncident(undefined, incident(), {})).toBeUndefined();
  });
});
