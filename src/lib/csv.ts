// CSV export for any table of the console: RFC 4180 text that spreadsheets open safely, and the
// browser download of it.
import { neutraliseFormula } from '../shared/csv-formula';

/** One cell; `null` and `undefined` export as an empty cell. */
export type CsvCell = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell as CSV text: a finite number as it is; text neutralised against formula injection by a
 * leading `'`, then quoted when it holds a comma, quote, CR or LF, with quotes doubled (RFC 4180).
 */
export function formatCsvCell(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  // A finite number is written as digits, a sign and a point only: it can never be a formula, and
  // a spreadsheet must read -5 as the number -5, not as the text "'-5". Text is neutralised.
  if (typeof cell === 'number' && Number.isFinite(cell)) return String(cell);
  // Exported upstream data must never run as a formula (CSV injection).
  const text = neutraliseFormula(String(cell));
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole CSV document: the header row, then the rows, each line ended with CRLF (RFC 4180). */
export function toCsv(header: readonly string[], rows: Iterable<readonly CsvCell[]>): string {
  const lines = [header.map(formatCsvCell).join(',')];
  for (const row of rows) lines.push(row.map(formatCsvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** `<prefix>-YYYY-MM-DD.csv` for the user's local date, so the name matches their calendar. */
export function csvFileName(prefix: string, date: Date = new Date()): string {
  const year = String(date.getFullYear());
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${prefix}-${year}-${month}-${day}.csv`;
}

// Some browsers cancel a download whose object URL is revoked in the same task as the click.
const REVOKE_DELAY_MS = 10_000;

/**
 * Saves `csv` as a file named `fileName` through a temporary `<a download>`. A UTF-8 byte order
 * mark goes first: without it Excel reads the file as the system code page and garbles accents.
 */
export function downloadCsv(fileName: string, csv: string): void {
  saveFile(fileName, new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
}

/** Saves `blob` as a file named `fileName` through a temporary `<a download>`. */
export function saveFile(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_DELAY_MS);
  }
}
