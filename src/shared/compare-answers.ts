// What differs between a v4 answer and its legacy equivalent, for the migration view: fields only
// one side has, lists of different length, and values that disagree. Compared by documented field
// path over all records, so a legacy answer wrapped in a page compares with a bare v4 record, v1's
// capitalised names compare with v4's, and the catalog's field map lines up what the two documents
// name differently (a group's `groupName` and `name`, v3's nested purposes and v4's profiles).
// Fields v4 carries under another shape are "reshaped", not left out (see reshaped-fields.ts);
// listings whose records carry an id compare values record by record, matched by that id.
import { isRecord, PAGING_FIELDS } from './answer-shape';
import { findReshaped, type Reshaped } from './reshaped-fields';

/** The differences between two answers. */
export interface AnswerComparison {
  /** Field paths v4 has and the legacy answer does not: what v4 adds. */
  readonly onlyInV4: string[];
  /** Field paths only the legacy answer has and v4 has under no other shape: what v4 leaves out. */
  readonly onlyInLegacy: string[];
  /** Legacy fields v4 carries under another shape, and where. */
  readonly reshaped: Reshaped[];
  /** Field paths both have. */
  readonly inBoth: string[];
  /** Lists whose lengths differ (`(records)` is the answer's own list of records). */
  readonly counts: Array<{ path: string; v4: number; legacy: number }>;
  /** Fields in both with values only one side has (a few of them, each side). */
  readonly values: Array<{ path: string; v4: string[]; legacy: string[] }>;
  /** Paging fields each side has (requestContinuation, page and size…). */
  readonly paging: { v4: string[]; legacy: string[] };
  /**
   * How two listings' records were paired for `values`: by a field both sides' records all carry,
   * with how many records each side has that the other does not (not compared). Absent when the
   * answers are compared as wholes.
   */
  readonly matched?: { by: string; both: number; onlyV4: number; onlyLegacy: number };
}

/** Fields that name a record, in the order tried for pairing two listings' records. */
const RECORD_KEYS = ['id', 'identifier', 'token'] as const;

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

function collectAnswer(data: unknown): Collected & { listed: boolean; list: unknown[] } {
  const { list, paging, listed } = records(data);
  const into: Collected = { values: new Map(), counts: new Map(), paging };
  into.counts.set(RECORDS_PATH, list.length);
  for (const record of list) collect(record, '', into);
  return { ...into, listed, list };
}

const keyOf = (record: unknown, by: string): string | undefined => {
  const value = isRecord(record) ? record[by] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
};

/**
 * The field that names every record of both listings, when both hold more than one record between
 * them: pages of two listings hold different people, and their values only compare person by person.
 */
function pairingKey(left: readonly unknown[], right: readonly unknown[]): string | undefined {
  if (left.length + right.length <= 2) return undefined;
  return RECORD_KEYS.find((by) =>
    [...left, ...right].every((record) => keyOf(record, by) !== undefined),
  );
}

/** Values one record has and its partner lacks, per field path, over every pair of records. */
function pairedValues(
  left: readonly unknown[],
  right: readonly unknown[],
  by: string,
  inBoth: readonly string[],
): { values: AnswerComparison['values']; matched: NonNullable<AnswerComparison['matched']> } {
  const partners = new Map(right.map((record) => [keyOf(record, by)!, record]));
  const found = new Map<string, { v4: Set<string>; legacy: Set<string> }>();
  let both = 0;
  for (const record of left) {
    const partner = partners.get(keyOf(record, by)!);
    if (partner === undefined) continue;
    both += 1;
    const a = collectAnswer(record);
    const b = collectAnswer(partner);
    for (const path of inBoth) {
      const va = a.values.get(path);
      const vb = b.values.get(path);
      if (!va || !vb || path.endsWith('[]')) continue;
      const entry = found.get(path) ?? { v4: new Set(), legacy: new Set() };
      for (const value of surplus(va, vb)) entry.v4.add(value);
      for (const value of surplus(vb, va)) entry.legacy.add(value);
      found.set(path, entry);
    }
  }
  const values = [...found]
    .filter(([, entry]) => entry.v4.size > 0 || entry.legacy.size > 0)
    .map(([path, entry]) => ({
      path,
      v4: [...entry.v4].slice(0, 3),
      legacy: [...entry.legacy].slice(0, 3),
    }));
  return {
    values,
    matched: { by, both, onlyV4: left.length - both, onlyLegacy: right.length - both },
  };
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
  const onlyInV4 = sorted([...leftPaths].filter((path) => !rightPaths.has(path)));
  const legacyOnly = sorted([...rightPaths].filter((path) => !leftPaths.has(path)));
  const reshaped = findReshaped(legacyOnly, onlyInV4, left.values);
  const reshapedPaths = (path: string) =>
    reshaped.some((item) => path === item.path || path.startsWith(`${item.path}.`));
  const common = {
    onlyInV4,
    onlyInLegacy: legacyOnly.filter((path) => !reshapedPaths(path)),
    reshaped,
    inBoth,
    counts,
    paging: { v4: left.paging, legacy: right.paging },
  };
  const by = left.listed && right.listed ? pairingKey(left.list, right.list) : undefined;
  if (by !== undefined) return { ...common, ...pairedValues(left.list, right.list, by, inBoth) };
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
  return { ...common, values };
}
