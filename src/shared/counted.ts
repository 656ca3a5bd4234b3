// Counts as the console writes them, on the page and in the server's messages alike: thousands
// grouped ("20,000"), and with a noun in the right number ("1 record", "3 records"). The nouns are
// English ones whose plural adds an s.

// Built on first use rather than at import: the first Intl object of a page loads the browser's
// locale data (src/lib/format.ts).
let grouping: Intl.NumberFormat | undefined;

/** "20,000". */
export function formatCount(value: number): string {
  grouping ??= new Intl.NumberFormat('en');
  return grouping.format(value);
}

/** `count` with thousands grouped, then `noun`, plural unless the count is exactly 1. */
export function counted(count: number, noun: string): string {
  return `${formatCount(count)} ${count === 1 ? noun : `${noun}s`}`;
}
