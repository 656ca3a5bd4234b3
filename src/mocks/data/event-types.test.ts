// What a consumer of the mock's data set relies on: the same rows every run, unique codes at
// 10,000+ rows, realistic gaps, and names that exercise CSV quoting.
import { describe, expect, it } from 'vitest';
import { EventTypeSchema } from '../../shared/event-types';
import { DEFAULT_EVENT_TYPE_COUNT, generateEventTypes, MAX_EVENT_TYPE_COUNT } from './event-types';

function presentCodes(rows: ReturnType<typeof generateEventTypes>): number[] {
  return rows.flatMap((row) => (row.code === undefined ? [] : [row.code]));
}

describe('generateEventTypes', () => {
  it('is deterministic: the same count gives the same rows', () => {
    expect(generateEventTypes()).toEqual(generateEventTypes());
    expect(generateEventTypes(10_000)).toEqual(generateEventTypes(10_000));
  });

  it('serves several hundred rows by default over at least ten modules', () => {
    const rows = generateEventTypes();
    expect(rows).toHaveLength(DEFAULT_EVENT_TYPE_COUNT);
    expect(rows.length).toBeGreaterThanOrEqual(300);
    const modules = new Set(rows.flatMap((row) => (row.moduleName ? [row.moduleName] : [])));
    expect(modules.size).toBeGreaterThanOrEqual(12);
    const objectTypes = new Set(rows.flatMap((row) => row.objectTypeName ?? []));
    expect(objectTypes.size).toBeGreaterThanOrEqual(modules.size * 3);
  });

  it('keeps a row and its code when the count grows (a smaller set is a prefix)', () => {
    expect(generateEventTypes(10_000).slice(0, DEFAULT_EVENT_TYPE_COUNT)).toEqual(
      generateEventTypes(),
    );
  });

  it('gives 10,000 distinct integer codes without duplicates', () => {
    const codes = presentCodes(generateEventTypes(10_100));
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.length).toBeGreaterThanOrEqual(10_000);
    expect(codes.every((code) => Number.isInteger(code) && code > 0 && code < 2 ** 31)).toBe(true);
  });

  it('has no duplicate codes even at the largest size', () => {
    const codes = presentCodes(generateEventTypes(MAX_EVENT_TYPE_COUNT));
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('leaves out each optional field in a few records (about 2-3% in all)', () => {
    const rows = generateEventTypes();
    const without = (field: keyof (typeof rows)[number]) =>
      rows.filter((row) => !(field in row)).length;
    expect(without('moduleName')).toBeGreaterThan(0);
    expect(without('objectTypeName')).toBeGreaterThan(0);
    expect(without('value')).toBeGreaterThan(0);
    expect(without('code')).toBeGreaterThan(0);
    const incomplete = rows.filter((row) => Object.keys(row).length < 4).length;
    expect(incomplete / rows.length).toBeGreaterThan(0.015);
    expect(incomplete / rows.length).toBeLessThan(0.04);
  });

  it('produces records the shared schema reads unchanged', () => {
    for (const row of generateEventTypes()) expect(EventTypeSchema.parse(row)).toEqual(row);
  });

  it('has names with a comma or double quotes, but never in module or object type names', () => {
    const rows = generateEventTypes();
    expect(rows.some((row) => row.value?.includes(','))).toBe(true);
    expect(rows.some((row) => row.value?.includes('"'))).toBe(true);
    expect(rows.map((row) => row.value)).toContain('Purpose "Marketing" Withdrawn, Bulk');
    const big = generateEventTypes(10_000);
    expect(big.some((row) => row.moduleName?.includes(','))).toBe(false);
    expect(big.some((row) => row.objectTypeName?.includes(','))).toBe(false);
  });

  it('gives unique names within a module', () => {
    const rows = generateEventTypes(10_000).filter((row) => row.value && row.moduleName);
    const keys = rows.map((row) => `${row.moduleName}\u0000${row.value}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('rejects a count outside 0..MAX', () => {
    expect(generateEventTypes(0)).toEqual([]);
    expect(() => generateEventTypes(-1)).toThrow(RangeError);
    expect(() => generateEventTypes(1.5)).toThrow(RangeError);
    expect(() => generateEventTypes(MAX_EVENT_TYPE_COUNT + 1)).toThrow(RangeError);
  });
});
