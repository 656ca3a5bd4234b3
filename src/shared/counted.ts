// Counts as the console writes them, on the page and in the server's messages alike: thousands
// grouped ("20,000"), and with a noun in the right number ("1 record", "3 records"). The nouns are
// English ones whose plural adds an s.

// Whole numbers, every count the console shows, are grouped by hand: English groups digits by
// three with commas, and building an Intl.NumberFormat costs the page's first render 20 to 100 ms
// of main thread in Chromium (its locale data; profiled on the rate-limits page's first visit).
// Anything else (a fraction, a huge number) still goes through Intl, built on first use.
let grouping: Intl.NumberFormat | undefined;
const THOUSANDS = /\B(?=(\d{3})+$)/g;

/** "20,000". */
export function formatCount(value: number): string {
  if (Number.isSafeInteger(value)) {
    const digits = String(Math.abs(value)).replace(THOUSANDS, ',');
    return value < 0 ? `-${digits}` : digits;
  }
  grouping ??= new Intl.NumberFormat('en');
  return grouping.format(value);
}

/** `count` with thousands grouped, then `noun`, plural unless the count is exactly 1. */
export function counted(count: number, noun: string): string {
  return `${formatCount(count)} ${count === 1 ? noun : `${noun}s`}`;
}
