// Numbers and times as the console writes them, fixed to English like the rest of the UI text.
//
// One rule for every time on every page: the browser's own time zone, always labelled with the
// zone's short name ("15:49:02 GMT+1", "2026-11-25 15:49:02 EST"), on a 24-hour clock with an
// ISO-like date. Why local and not UTC: the people reading the console compare its times with
// their own clock, calendar and tickets, and "blocked until 15:49:02" means something at a glance
// only in their zone. Why always labelled: unlabelled local times next to a UTC verdict on one line
// made readers wonder which time was meant. The precise instant stays one hover away: <Instant>
// (components/ui/instant.tsx) puts the UTC time in the title and the ISO instant in dateTime.
// Text that leaves the page for someone whose zone is unknown (support texts, audit verdicts, every
// export) is written in UTC instead and says so (shared/utc-text.ts; exports use ISO 8601 with Z).
// Chart axes alone write bare clock ticks: their chart names the zone once (formatZone).
//
// The formatters are built once, on first use rather than at import: the first Intl object of a
// page loads the browser's locale data (30 to 60 ms measured in Chromium), and at import that ran
// before the app had asked for its first page's code and data.

/** `build()`'s value, built at the first call. */
function builtOnce<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/** "20,000": written once for the page and the server's messages (src/shared/counted.ts). */
export { formatCount } from '../shared/counted';

// Intl.DateTimeFormat is costly to create. `en` with numeric parts and h23 gives the same digits in
// every browser; the parts are assembled below so the order never depends on locale.
const instantParts = builtOnce(
  () =>
    new Intl.DateTimeFormat('en', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    }),
);

/**
 * Builds the time formatter now, for a moment the page is only waiting on the network: built by
 * the first <Instant> instead, its 30 to 90 ms land inside the first render with data, the longest
 * task of a cold load (bench/findings/lighthouse.md).
 */
export function prepareTimeFormat(): void {
  instantParts();
}

interface InstantParts {
  date: string;
  clock: string;
  seconds: string;
  zone: string;
}

function partsOf(instant: string | number | Date): InstantParts {
  const byType: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of instantParts().formatToParts(new Date(instant)))
    byType[part.type] = part.value;
  return {
    date: `${byType.year}-${byType.month}-${byType.day}`,
    clock: `${byType.hour}:${byType.minute}`,
    seconds: byType.second ?? '00',
    zone: byType.timeZoneName ?? '',
  };
}

/** "2026-11-25": a day alone (compact table cells; the full instant is in their title). */
export function formatDate(instant: string | number | Date): string {
  return partsOf(instant).date;
}

/** "15:49", unlabelled: only for chart axis ticks, whose chart names the zone (formatZone). */
export function formatClock(instant: string | number | Date): string {
  return partsOf(instant).clock;
}

/** "GMT+1", "EST", "UTC": the short name of the browser's zone at `instant`. */
export function formatZone(instant: string | number | Date): string {
  return partsOf(instant).zone;
}

/** "15:49:02 GMT+1": a time of today (countdowns' ends, incident rows, "fetched at"). */
export function formatTime(instant: string | number | Date): string {
  const parts = partsOf(instant);
  return withZone(`${parts.clock}:${parts.seconds}`, parts.zone);
}

/** "2026-11-25 15:49:02 GMT+1": the one date-and-time format of the console. */
export function formatDateTime(instant: string | number | Date): string {
  const parts = partsOf(instant);
  return withZone(`${parts.date} ${parts.clock}:${parts.seconds}`, parts.zone);
}

function withZone(text: string, zone: string): string {
  return zone ? `${text} ${zone}` : text;
}
