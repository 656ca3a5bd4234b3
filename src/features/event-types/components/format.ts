// Number and time formats of the event-types page, fixed to English like the rest of the UI text.

const COUNT = new Intl.NumberFormat('en');
const TIME = new Intl.DateTimeFormat('en', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const DATE_TIME = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'long' });

/** "10,000". */
export function formatCount(count: number): string {
  return COUNT.format(count);
}

/** "HH:MM" in the user's time zone. */
export function formatClockTime(iso: string): string {
  return TIME.format(new Date(iso));
}

/** The full local date and time, for a tooltip. */
export function formatDateTime(iso: string): string {
  return DATE_TIME.format(new Date(iso));
}
