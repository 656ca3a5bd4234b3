// The CSV form of the event-types table: the rows the user sees, in the order they see them.
import { csvFileName, toCsv } from '../../lib/csv';
import { EVENT_TYPE_COLUMNS } from '../../shared/event-types';
import type { EventTypeRow } from './filter-event-types';

/**
 * Column names of the export: the table's own headings, in words ("Object type"), so the file
 * reads like the page. Stable, since people build spreadsheets on them.
 */
const EVENT_TYPES_CSV_HEADER = EVENT_TYPE_COLUMNS.map((column) => column.label);

/** The rows as CSV text; a missing field is an empty cell. */
export function eventTypesCsv(rows: readonly EventTypeRow[]): string {
  return toCsv(
    EVENT_TYPES_CSV_HEADER,
    rows.map((row) => EVENT_TYPE_COLUMNS.map((column) => row[column.key])),
  );
}

/** `event-types-YYYY-MM-DD.csv` for today in the user's time zone. */
export function eventTypesCsvFileName(now: Date = new Date()): string {
  return csvFileName('event-types', now);
}
