// The event-types table's data work, kept pure so it is fast to test and cheap to memoise: records
// are prepared once per fetch, sorted once per sort order, then filtered and faceted per keystroke.
import type { EventType, EventTypeColumnKey } from '../../shared/event-types';

/** The facet value and URL value that stand for "this record has no value for the field". */
export const NOT_SET = '(not set)';

/** An event type made ready for the table: blank fields read as missing, search text precomputed. */
export interface EventTypeRow {
  /** Position in the fetched list: a stable identity even for records without a code. */
  readonly id: string;
  readonly code: number | undefined;
  readonly value: string | undefined;
  readonly objectTypeName: string | undefined;
  readonly moduleName: string | undefined;
  /** Lower-cased name, so a keystroke does not lower-case 10,000 names again. */
  readonly searchName: string;
  /** The code as text, so "12" finds 12, 120 and 312. */
  readonly searchCode: string;
}

export interface SortState {
  column: EventTypeColumnKey;
  direction: 'asc' | 'desc';
}

/** What the user asked for: search text and the selected values of each facet. */
export interface EventTypeFilters {
  q: string;
  modules: readonly string[];
  objectTypes: readonly string[];
}

export interface FacetOption {
  /** The value as it appears in the data and the URL; {@link NOT_SET} for missing. */
  value: string;
  /** Matching records if this value were the facet's only selection, given the other filters. */
  count: number;
  selected: boolean;
}

export interface FilterResult {
  rows: EventTypeRow[];
  modules: FacetOption[];
  objectTypes: FacetOption[];
}

/** Every value each facet can take in the fetched list, in display order. */
export interface FacetUniverse {
  modules: string[];
  objectTypes: string[];
}

function present(text: string | undefined): string | undefined {
  // A blank name carries no more meaning than a missing one: show and filter it the same way.
  return text === undefined || text.trim() === '' ? undefined : text;
}

/** Normalises fetched records once per fetch. */
export function prepareEventTypes(items: readonly EventType[]): EventTypeRow[] {
  return items.map((item, index) => {
    const value = present(item.value);
    return {
      id: String(index),
      code: item.code,
      value,
      objectTypeName: present(item.objectTypeName),
      moduleName: present(item.moduleName),
      searchName: value?.toLowerCase() ?? '',
      searchCode: item.code === undefined ? '' : String(item.code),
    };
  });
}

/** The facet bucket of a field; a real value spelled "(not set)" shares the missing bucket. */
function facetKey(value: string | undefined): string {
  return value ?? NOT_SET;
}

// Built at import, which for the event-types page is while its list is still on the way: the
// first Intl object of a page loads the browser's locale data (src/lib/format.ts), and here that
// happens before the list arrives rather than in the render that shows it.
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Facet values in alphabetical order, with {@link NOT_SET} last. */
function orderFacetValues(values: ReadonlySet<string>): string[] {
  const named = [...values].filter((value) => value !== NOT_SET).sort(collator.compare);
  return values.has(NOT_SET) ? [...named, NOT_SET] : named;
}

/** Collects the values each facet offers, once per fetch. */
export function collectFacetUniverse(rows: readonly EventTypeRow[]): FacetUniverse {
  const modules = new Set<string>();
  const objectTypes = new Set<string>();
  for (const row of rows) {
    modules.add(facetKey(row.moduleName));
    objectTypes.add(facetKey(row.objectTypeName));
  }
  return { modules: orderFacetValues(modules), objectTypes: orderFacetValues(objectTypes) };
}

/** Sorts rows by one column; records missing that field come last in both directions. */
export function sortEventTypes(
  rows: readonly EventTypeRow[],
  sort: SortState | null,
): readonly EventTypeRow[] {
  if (sort === null) return rows;
  const { column, direction } = sort;
  const factor = direction === 'asc' ? 1 : -1;
  // Array.prototype.sort is stable, so equal values keep the upstream's order.
  return [...rows].sort((a, b) => {
    const left = a[column];
    const right = b[column];
    if (left === undefined || right === undefined) {
      if (left === right) return 0;
      return left === undefined ? 1 : -1;
    }
    if (typeof left === 'number' && typeof right === 'number') return (left - right) * factor;
    return collator.compare(String(left), String(right)) * factor;
  });
}

function matchesSearch(row: EventTypeRow, needle: string): boolean {
  return needle === '' || row.searchName.includes(needle) || row.searchCode.includes(needle);
}

function toOptions(
  universe: readonly string[],
  counts: Map<string, number>,
  selected: ReadonlySet<string>,
): FacetOption[] {
  const options = universe.map((value) => ({
    value,
    count: counts.get(value) ?? 0,
    selected: selected.has(value),
  }));
  // A value selected through a shared link may not exist in today's data; list it anyway so the
  // user can see why nothing matches and uncheck it.
  for (const value of selected) {
    if (!universe.includes(value)) options.push({ value, count: 0, selected: true });
  }
  return options;
}

/**
 * Applies search and facets to already-sorted rows, keeping their order, and counts each facet's
 * values. Semantics: OR within a facet, AND across facets and search. A facet's counts honour the
 * search and the *other* facet, not its own selection, so they say what ticking a value would add.
 */
export function filterEventTypes(
  rows: readonly EventTypeRow[],
  universe: FacetUniverse,
  filters: EventTypeFilters,
): FilterResult {
  const needle = filters.q.trim().toLowerCase();
  const modules = new Set(filters.modules);
  const objectTypes = new Set(filters.objectTypes);
  const moduleCounts = new Map<string, number>();
  const objectTypeCounts = new Map<string, number>();
  const matching: EventTypeRow[] = [];

  // One pass over the rows does the filtering and both facets' counts: 10,000 rows per keystroke.
  for (const row of rows) {
    if (!matchesSearch(row, needle)) continue;
    const moduleValue = facetKey(row.moduleName);
    const objectTypeValue = facetKey(row.objectTypeName);
    const moduleOk = modules.size === 0 || modules.has(moduleValue);
    const objectTypeOk = objectTypes.size === 0 || objectTypes.has(objectTypeValue);
    if (objectTypeOk) moduleCounts.set(moduleValue, (moduleCounts.get(moduleValue) ?? 0) + 1);
    if (moduleOk) {
      objectTypeCounts.set(objectTypeValue, (objectTypeCounts.get(objectTypeValue) ?? 0) + 1);
    }
    if (moduleOk && objectTypeOk) matching.push(row);
  }

  return {
    rows: matching,
    modules: toOptions(universe.modules, moduleCounts, modules),
    objectTypes: toOptions(universe.objectTypes, objectTypeCounts, objectTypes),
  };
}

/**
 * A facet's options as the filter lists them: the selected values first (so they stay in view,
 * a value from a shared link included), then the values that match something, then the ones
 * that match nothing now; each group keeps the universe's order.
 */
export function orderFacetOptions(options: readonly FacetOption[]): FacetOption[] {
  const rank = (option: FacetOption) => (option.selected ? 0 : option.count > 0 ? 1 : 2);
  return [...options].sort((a, b) => rank(a) - rank(b));
}
