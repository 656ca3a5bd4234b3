import { describe, expect, it } from 'vitest';
import { sortableId } from './sortable-id';

describe('sortableId', () => {
  it('sorts ids of one millisecond in the order they were made', () => {
    const ids = Array.from({ length: 500 }, () => sortableId(1_790_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts by time first', () => {
    const later = sortableId(1_790_000_000_001);
    const earlier = sortableId(1_790_000_000_000);
    expect(earlier < later).toBe(true);
  });

  it('is a version 7 UUID', () => {
    expect(sortableId(Date.UTC(2026, 10, 22))).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('keeps order past 4,096 ids in one millisecond, and into the next millisecond', () => {
    const ms = 1_790_000_000_500;
    const ids = Array.from({ length: 10_000 }, () => sortableId(ms));
    ids.push(sortableId(ms + 1), sortableId(ms + 1), sortableId(ms + 2));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
