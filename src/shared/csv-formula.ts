// The one rule both CSV exports (the SPA's tables, the BFF's audit export) keep against formula
// injection: spreadsheets run a cell as a formula when it starts with = + - @ (or their fullwidth
// forms, which some of them fold), and many skip leading spaces, tabs and line breaks before they
// look, so "  =cmd" and "\n=cmd" run too. A cell that starts with whitespace followed by a
// trigger, or with tab or CR at all (stripped by some importers), gets a leading "'",
// which makes every spreadsheet read it as text.
// \s covers tab, line breaks, no-break and ideographic spaces and the byte order mark.
const FORMULA_TRIGGER = /^\s*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r]/u;

/** `text`, with a leading `'` when a spreadsheet would otherwise run it as a formula. */
export function neutraliseFormula(text: string): string {
  return FORMULA_TRIGGER.test(text) ? `'${text}` : text;
}

/** One CSV cell (RFC 4180): formula-safe, quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = neutraliseFormula(String(value));
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
