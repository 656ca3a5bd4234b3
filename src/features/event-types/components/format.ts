// How old the event-types list is, fixed to English like the rest of the UI text.

// Built on first use, not at import (as src/lib/format.ts does): a list fetched a moment ago says
// "just now" without it, so a first visit never pays for building it before its first paint.
let relative: Intl.RelativeTimeFormat | undefined;

function ago(value: number, unit: Intl.RelativeTimeFormatUnit): string {
  relative ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  return relative.format(-value, unit);
}

/** "just now", "12 minutes ago", "3 hours ago": how old a fetched list is. */
export function formatAge(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1_000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return ago(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 48) return ago(hours, 'hour');
  return ago(Math.round(hours / 24), 'day');
}
