// A count with its noun in the right number ("1 record", "3 records", "20,000 requests"), for the
// sentences the console writes, on the page and in the server's messages alike. The nouns are
// English ones whose plural adds an s.

let grouping: Intl.NumberFormat | undefined;

/** `count` with thousands separated, then `noun`, plural unless the count is exactly 1. */
export function counted(count: number, noun: string): string {
  grouping ??= new Intl.NumberFormat('en');
  return `${grouping.format(count)} ${count === 1 ? noun : `${noun}s`}`;
}
