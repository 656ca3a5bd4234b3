// Lays an upstream answer out as people read it: the record's own fields, then a table for each
// list of records (purposes, link tokens, groups, members). The documented fields come in a
// sensible order; fields the platform adds that the documents do not name are shown like the
// others, never dropped.
import { isRecord, PAGING_FIELDS } from '../../shared/answer-shape';

export { isRecord, PAGING_FIELDS };

/** One field of a record. */
export interface FieldEntry {
  readonly key: string;
  readonly label: string;
  readonly value: unknown;
}

/** A list of records shown as a table. */
export interface RecordTable {
  readonly key: string;
  readonly title: string;
  readonly columns: ReadonlyArray<{ readonly key: string; readonly label: string }>;
  readonly rows: ReadonlyArray<Record<string, unknown>>;
}

/** An answer, laid out. */
export interface AnswerModel {
  readonly fields: FieldEntry[];
  readonly tables: RecordTable[];
  readonly paging: FieldEntry[];
}

const ACRONYMS: Record<string, string> = { guid: 'GUID', id: 'ID', url: 'URL' };

/** `lastTransactionDate` -> "Last transaction date", `dataSubjectGuid` -> "Data subject GUID". */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .split(' ')
    .filter(Boolean)
    .map((word) => ACRONYMS[word] ?? word);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A label inside a sentence: "Linked date" -> "linked date"; "ID" or "GUID" keeps its capitals. */
export function inlineLabel(label: string): string {
  return /^[A-Z]{2}/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
}

/** `purposes[].lastCollectionPointName` -> "Purposes › Last collection point name". */
export function pathLabel(path: string): string {
  return path
    .split('.')
    .map((part) => fieldLabel(part.replace(/\[\]$/, '')))
    .join(' › ');
}

// Columns people look for first; anything else follows in the order the answer has it, and
// GUIDs come last (long, and rarely what one reads).
const COLUMN_ORDER = [
  'identifier',
  'primaryDataSubjectIdentifier',
  'name',
  'groupName',
  'status',
  'version',
  'isPrimary',
  'token',
  'value',
  'consentDate',
  'createdDate',
  'addedDate',
  'lastTransactionDate',
  'withdrawalDate',
  'expiryDate',
  'lastUpdatedDate',
  'topics',
  'dataElements',
];

function columnRank(key: string): number {
  const index = COLUMN_ORDER.indexOf(key);
  if (index >= 0) return index;
  return /guid$|id$/i.test(key) ? 1_000 : 500;
}

function tableOf(key: string, title: string, rows: Array<Record<string, unknown>>): RecordTable {
  const seen: string[] = [];
  for (const row of rows)
    for (const column of Object.keys(row)) if (!seen.includes(column)) seen.push(column);
  const columns = seen
    .map((column, index) => ({ column, index }))
    .sort((a, b) => columnRank(a.column) - columnRank(b.column) || a.index - b.index)
    .map(({ column }) => ({ key: column, label: fieldLabel(column) }));
  return { key, title, columns, rows };
}

const isRecordList = (value: unknown): value is Array<Record<string, unknown>> =>
  Array.isArray(value) && value.length > 0 && value.every(isRecord);

/**
 * Lays out `data`. `listTitle` names the records of a paged listing (its `content`), e.g.
 * "Link tokens".
 */
export function describeAnswer(data: unknown, listTitle = 'Records'): AnswerModel {
  const model: AnswerModel = { fields: [], tables: [], paging: [] };
  const root: Record<string, unknown> = Array.isArray(data)
    ? { content: data }
    : isRecord(data)
      ? data
      : { value: data };
  for (const [key, value] of Object.entries(root)) {
    if (PAGING_FIELDS.has(key)) {
      model.paging.push({ key, label: fieldLabel(key), value });
    } else if (Array.isArray(value) && (value.length === 0 || isRecordList(value))) {
      model.tables.push(tableOf(key, key === 'content' ? listTitle : fieldLabel(key), value));
    } else if (isRecord(value)) {
      for (const [sub, subValue] of Object.entries(value)) {
        model.fields.push({
          key: `${key}.${sub}`,
          label: `${fieldLabel(key)} · ${fieldLabel(sub)}`,
          value: subValue,
        });
      }
    } else {
      model.fields.push({ key, label: fieldLabel(key), value });
    }
  }
  return model;
}

/**
 * The pages of a continued listing as one answer: their records one after another, with the last
 * page's paging fields. Anything that is not a listing is shown as its last page.
 */
export function mergePages(pages: readonly unknown[]): unknown {
  const last = pages.at(-1);
  if (pages.length < 2 || !pages.every((page) => isRecord(page) && Array.isArray(page.content))) {
    return last;
  }
  return {
    ...(last as Record<string, unknown>),
    content: pages.flatMap((page) => (page as { content: unknown[] }).content),
  };
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** True for an ISO 8601 date-time string. */
export function isIsoTime(value: unknown): value is string {
  return typeof value === 'string' && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

/**
 * A nested value in a cell, in words, each value beside its key: a member becomes "Identifier:
 * +44 20 7946 0100, Linked date: 2026-02-01", v2's data elements "First name: Ada, Country: DE",
 * and a v4 data element (a name and a value) "First name: Ada".
 */
export function summarise(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(summarise).filter(Boolean).join('; ');
  if (isRecord(value)) {
    const text = (item: unknown) => (isIsoTime(item) ? item.slice(0, 10) : String(item));
    const shown = (item: unknown) => typeof item === 'string' || typeof item === 'number';
    if (typeof value.name === 'string' && 'value' in value && shown(value.value)) {
      return `${fieldLabel(value.name)}: ${text(value.value)}`;
    }
    return Object.entries(value)
      .filter(([, item]) => shown(item))
      .map(([key, item]) => `${fieldLabel(key)}: ${text(item)}`)
      .join(', ');
  }
  return String(value);
}
