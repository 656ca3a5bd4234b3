// An instant written for people who compare it across time zones and tools: the date and time to
// the second in UTC, saying so ("2026-03-01 10:05:00 UTC"). For text that leaves the page (a support
// ticket, an audit verdict), where the reader's local time is unknown.

/** `iso` (an ISO 8601 instant, as Date#toISOString writes it) as "YYYY-MM-DD HH:MM:SS UTC". */
export function utcText(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
