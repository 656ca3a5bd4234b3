// Numbers and times as the console writes them, fixed to English like the rest of the UI text:
// one counter and one way to build a time format, so features only choose which parts to show.
const COUNT = new Intl.NumberFormat('en');

/** "20,000". */
export function formatCount(count: number): string {
  return COUNT.format(count);
}

/**
 * A formatter of instants (ISO text or epoch milliseconds) in the user's time zone, showing the
 * parts `options` name. Built once per format: `Intl.DateTimeFormat` is costly to create.
 */
export function timeFormatter(
  options: Intl.DateTimeFormatOptions,
): (instant: string | number) => string {
  const format = new Intl.DateTimeFormat('en', options);
  return (instant) => format.format(new Date(instant));
}

/** "09:01" in the user's time zone, on a 24-hour clock. */
export const formatClock = timeFormatter({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
