// What differs between a v4 answer and its legacy equivalent, for the migration view: fields only
// one side has, lists of different length, and values that disagree. Compared by documented field
// path over all records, so a legacy answer wrapped in a page compares with a bare v4 record, v1's
// capitalised names compare with v4's, and the catalog's field map lines up what the two documents
// name differently (a group's `groupName` and `name`, v3's nested purposes and v4's profiles).
import { isRecord, PAGING_FIELDS } from './answer-shape';

/** The differences between two answers. */
export interface AnswerComparison {
  /** Field paths v4 has and the legacy answer does not: what v4 adds. */
  readonly onlyInV4: string[];
  /** Field paths only the legacy answer has: what v4 leaves out. */
  readonly onlyInLegacy: string[];
  /** Field paths both have. */
  readonly inBoth: string[];
  /** Lists whose lengths differ (`(records)` is the answer's own list of records). */
  readonly counts: Array<{ path: string; v4: number; legacy: number }>;
  /** Fields in both with values only one side has (a few of them, each side). */
  readonly values: Array<{ path: string; v4: string[]; legacy: string[] }>;
  /** Paging fields each side has (requestContinuation, page and size…). */
  readonly paging: { v4: string[]; legacy: string[] };
}

/** The path of the answer's own list of records. */
export const RECORDS_PATH = '(records)';

interface Collected {
  readonly values: Map<string, string[]>;
  readonly counts: Map<string, number>;
  readonly paging: string[];
}

function records(data: unknown): { list: unknown[]; paging: string[]; listed: boolean } {
  if (Array.isArray(data)) return { list: data, paging: [], listed: true };
  if (isRecord(data)) {
    const paging = Object.keys(data).filter((key) => PAGING_FIELDS.has(key));
    if (Array.isArray(data.content)) return { list: data.content, paging, listed: true };
    const own = Object.fromEntries(Object.entries(data).filter(([key]) => !PAGING_FIELDS.has(key)));
    return { list: [own], paging, listed: false };
  }
  return { list: [data], paging: [], listed: false };
}

function collect(value: unknown, path: string, into: Collected): void {
  if (Array.isArray(value)) {
    const listPath = `${path}[]`;
    into.counts.set(listPath, (into.counts.get(listPath) ?? 0) + value.length);
    if (!into.values.has(listPath)) into.values.set(listPath, []);
    for (const item of value) {
      if (isRecord(item)) collect(item, listPath, into);
      else into.values.get(listPath)!.push(String(item));
    }
    return;
  }
  if (isRecord(value)) {
    for (const [key, item] of Object.entries(value))
      collect(item, path ? `${path}.${key}` : key, into);
    return;
  }
  const list = into.values.get(path) ?? [];
  list.push(value === null || value === undefined ? '—' : String(value));
  into.values.set(path, list);
}

function collectAnswer(data: unknown): Collected & { listed: boolean } {
  const { list, paging, listed } = records(data);
  const into: Collected = { values: new Map(), counts: new Map(), paging };
  into.counts.set(RECORDS_PATH, list.length);
  for (const record of list) collect(record, '', into);
  return { ...into, listed };
}

function paths(collected: Collected): Set<string> {
  return new Set(
    [...collected.values.keys(), ...collected.counts.keys()].filter((p) => p !== RECORDS_PATH),
  );
}

/**
 * Distinct values `a` has and `b` never has, at most three, for the summary. Sets, not counts: a
 * list of another length is reported once, under counts, not again for each of its fields.
 */
function surplus(a: readonly string[], b: readonly string[]): string[] {
  const other = new Set(b);
  return [...new Set(a)].filter((value) => !other.has(value)).slice(0, 3);
}

/** `Identifier` -> `identifier`, `URL` stays: v1 capitalises the names the others write in camel case. */
function camelKey(key: string): string {
  return /^[A-Z][a-z]/.test(key) ? key.charAt(0).toLowerCase() + key.slice(1) : key;
}

/** `value` with every object key in camel case. */
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [camelKey(key), camelKeys(item)]),
  );
}

/** The legacy answer with the catalog's field map applied (see LegacyEquivalent.fields). */
function alignLegacy(legacy: unknown, fields: Readonly<Record<string, string>> = {}): unknown {
  const data = camelKeys(legacy);
  const entries = Object.entries(fields);
  if (entries.length === 0) return data;
  const { list, listed } = records(data);
  let aligned = list;
  for (const [from, to] of entries) {
    const key = from.replace(/\[\]$/, '');
    if (to === RECORDS_MARK) {
      aligned = aligned.flatMap((record) =>
        isRecord(record) && Array.isArray(record[key]) ? (record[key] as unknown[]) : [],
      );
      continue;
    }
    const target = to.replace(/\[\]$/, '');
    aligned = aligned.map((record) => {
      if (!isRecord(record) || !(key in record)) return record;
      const { [key]: moved, ...rest } = record;
      return { ...rest, [target]: moved };
    });
  }
  const paging = isRecord(data)
    ? Object.fromEntries(Object.entries(data).filter(([key]) => PAGING_FIELDS.has(key)))
    : {};
  return listed || entries.some(([, to]) => to === RECORDS_MARK)
    ? { ...paging, content: aligned }
    : aligned[0];
}

/** The field map's mark for "the answer's own records". */
const RECORDS_MARK = '(records)';

/**
 * Compares a v4 answer with a legacy one; `fields` is the catalog's map of legacy names to v4
 * names for this pair.
 */
export function compareAnswers(
  v4: unknown,
  legacy: unknown,
  fields?: Readonly<Record<string, string>>,
): AnswerComparison {
  const left = collectAnswer(camelKeys(v4));
  const right = collectAnswer(alignLegacy(legacy, fields));
  const leftPaths = paths(left);
  const rightPaths = paths(right);
  const sorted = (items: Iterable<string>) => [...items].sort();
  const inBoth = sorted([...leftPaths].filter((path) => rightPaths.has(path)));
  const counts: AnswerComparison['counts'] = [];
  for (const path of [RECORDS_PATH, ...inBoth]) {
    const a = left.counts.get(path);
    const b = right.counts.get(path);
    if (a === undefined || b === undefined || a === b) continue;
    // A single record against a page holding one record is the same data.
    if (
      path === RECORDS_PATH &&
      (!left.listed || !right.listed) &&
      Math.min(a, b) === 1 &&
      Math.max(a, b) === 1
    )
      continue;
    counts.push({ path, v4: a, legacy: b });
  }
  const values: AnswerComparison['values'] = [];
  for (const path of inBoth) {
    const a = left.values.get(path);
    const b = right.values.get(path);
    if (!a || !b || path.endsWith('[]')) continue;
    const onlyV4 = surplus(a, b);
    const onlyLegacy = surplus(b, a);
    if (onlyV4.length > 0 || onlyLegacy.length > 0)
      values.push({ path, v4: onlyV4, legacy: onlyLegacy });
  }
  return {
    onlyInV4: sorted([...leftPaths].filter((path) => !rightPaths.has(path))),
    onlyInLegacy: sorted([...rightPaths].filter((path) => !leftPaths.has(path))),
    inBoth,
    counts,
    values,
    paging: { v4: left.paging, legacy: right.paging },
  };
}
