// The CSV form of the event-types table: the rows the user sees, in the order they see them.
import { csvFileName, toCsv } from '../../lib/csv';
import type { EventTypeRow } from './filter-event-types';

/** Column names of the export; stable, since people build spreadsheets on them. */
export const EVENT_TYPES_CSV_HEADER = ['code', 'name', 'objectType', 'module'] as const;

/** The rows as CSV text; a missing field is an empty cell. */
export function eventTypesCsv(rows: readonly EventTypeRow[]): string {
  return toCsv(
    EVENT_TYPES_CSV_HEADER,
    rows.map((row) => [row.code, row.value, row.objectTypeName, row.moduleName]),
  );
}

/** `event-types-YYYY-MM-DD.csv` for today in the user's time zone. */
export function eventTypesCsvFileName(now: Date = new Date()): string {
  return csvFileName('event-types', now);
}
