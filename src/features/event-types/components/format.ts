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

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "just now", "12 minutes ago", "3 hours ago": how old a fetched list is. */
export function formatAge(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1_000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return RELATIVE.format(-minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 48) return RELATIVE.format(-hours, 'hour');
  return RELATIVE.format(-Math.round(hours / 24), 'day');
}
