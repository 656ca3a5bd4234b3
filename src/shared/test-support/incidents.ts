// A 429 incident as the console records it, for the tests of the server (alerts, routes) and of the
// rate-limit page alike: one account-minute block of the event-types list (tests only).
import type { Incident } from '../incident';

/** When the sample incident was first seen (a Monday morning, UTC). */
export const INCIDENT_T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
/** The platform's event id of the sample incident, which is also its key. */
export const INCIDENT_EVENT_ID = '3f2b8c1e-9a4d-4e6b-8f7a-1c2d3e4f5a6b';

/**
 * The account-minute incident (20,001 of 20,000 requests, blocked 60 s), first and last seen at
 * `at`, with the platform's headers; `overrides` replace any field.
 */
export function sampleIncident(overrides: Partial<Incident> = {}, at = INCIDENT_T0): Incident {
  return {
    key: INCIDENT_EVENT_ID,
    eventId: INCIDENT_EVENT_ID,
    seq: 1,
    firstSeen: new Date(at).toISOString(),
    lastSeen: new Date(at).toISOString(),
    hits: 1,
    period: 'MINUTE',
    requestsAllowed: 20_000,
    requestsMade: 20_001,
    retryAfterSeconds: 60,
    blockedUntil: new Date(at + 60_000).toISOString(),
    ruleId: 'account-minute',
    scope: 'account',
    operation: 'event-types',
    flags: [],
    headers: {
      'retry-after': '60',
      'ot-ratelimit-event-id': INCIDENT_EVENT_ID,
      'ot-requests-allowed': '20000',
      'ot-period': 'MINUTE',
      'ot-request-made': '20001',
    },
    ...overrides,
  };
}
