// Demo mode only: the week the simulated integrations "reported" before the console first started
// on this data directory, so the Planning page has a week to replay and a migration to show. The
// story, day by day over the last seven:
// - "Nightly consent sync" runs from 01:00 to 05:00 UTC; it is moving from the v2 data-subject
//   list (kept under its quota of 300 a minute) to the v4 profiles, so its v4 share and its
//   nightly rate rise each day, with a ten-minute peak at 02:30 that goes past the newer page's
//   1,000 a minute per endpoint in the last days;
// - "Preference centre backend" calls the v3 profile and posts consent receipts all day, busier
//   in working hours, and has not started moving;
// - "CRM connector" reads v4 basic details in working hours.
// Counts vary a little from minute to minute (a fixed pseudo-random sequence, so every demo shows
// the same week).
import { LIMIT_PATHS, PLATFORM_OPERATIONS } from '../../shared/platform-operations';
import type { MinuteAggregate } from './report-aggregates';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const DAYS = 7;

/** The simulated integrations' names, as demo-integrations.ts registers them. */
export const DEMO_HISTORY_NAMES = {
  nightly: 'Nightly consent sync',
  preferences: 'Preference centre backend',
  crm: 'CRM connector',
} as const;

/** A small deterministic generator (mulberry32): the same week on every start. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const entry = (
  minute: number,
  operation: { method: string; path: string },
  requests: number,
): MinuteAggregate => ({
  minute,
  method: operation.method,
  template: operation.path,
  requests,
  throttled: 0,
});

/**
 * The week before `now` (up to two hours before it: the live simulation fills the last hour the
 * rate-limits page shows), per integration name.
 */
export function demoHistory(now: number): Map<string, MinuteAggregate[]> {
  const random = sequence(20_261_128);
  const jitter = (value: number) => Math.max(0, Math.round(value * (0.9 + random() * 0.2)));
  const end = Math.floor((now - 120 * MINUTE_MS) / MINUTE_MS) * MINUTE_MS;
  const firstDay = Math.floor((now - DAYS * DAY_MS) / DAY_MS) * DAY_MS;
  const history = new Map<string, MinuteAggregate[]>(
    Object.values(DEMO_HISTORY_NAMES).map((name) => [name, []]),
  );
  // The seven days before today, and today up to `end`: without today the last 24 hours had a
  // hole from midnight, and held the nightly peak only when opened before 02:30.
  for (let day = 0; day <= DAYS; day += 1) {
    // 0 (a week ago) … 1 (yesterday, and today): how far the nightly sync has moved to v4.
    const moved = Math.min(1, day / (DAYS - 1));
    for (let minuteOfDay = 0; minuteOfDay < 1_440; minuteOfDay += 1) {
      const minute = firstDay + day * DAY_MS + minuteOfDay * MINUTE_MS;
      if (minute < now - DAYS * DAY_MS || minute > end) continue;
      const hour = Math.floor(minuteOfDay / 60);
      const working = hour >= 8 && hour < 18;
      if (hour >= 1 && hour < 5) {
        const peak = minuteOfDay >= 150 && minuteOfDay < 160 ? 1.25 : 1;
        const v2 = jitter(270 * (1 - moved * 0.85));
        const v4 = jitter((150 + 780 * moved) * peak);
        history
          .get(DEMO_HISTORY_NAMES.nightly)
          ?.push(
            entry(minute, PLATFORM_OPERATIONS.getDataSubjectsUsingGET, v2),
            entry(minute, PLATFORM_OPERATIONS.getDataSubjectProfilesV4, v4),
          );
      }
      history
        .get(DEMO_HISTORY_NAMES.preferences)
        ?.push(
          entry(
            minute,
            PLATFORM_OPERATIONS.getV3DatasubjectsProfileUsingGet,
            jitter(working ? 24 : 6),
          ),
          entry(minute, LIMIT_PATHS.consentReceipts, jitter(working ? 36 : 8)),
        );
      if (working) {
        history
          .get(DEMO_HISTORY_NAMES.crm)
          ?.push(entry(minute, PLATFORM_OPERATIONS.getDataSubjectBasicDetailsV4, jitter(15)));
      }
    }
  }
  return history;
}
