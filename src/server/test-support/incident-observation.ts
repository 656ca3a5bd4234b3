// A 429 as the recorder hands it to the incident store, for the store's and the stream's tests.
import { INCIDENT_EVENT_ID, INCIDENT_T0 } from '../../shared/test-support/incidents';
import type { IncidentObservation } from '../rate-limits/incident-store';

/**
 * The account-minute 429 of the event-types list seen at `at` (20,001 of 20,000 requests, blocked
 * 60 s), under the sample incident's event id; `overrides` replace any field.
 */
export function sampleObservation(
  overrides: Partial<IncidentObservation> = {},
  at = INCIDENT_T0,
): IncidentObservation {
  return {
    key: INCIDENT_EVENT_ID,
    eventId: INCIDENT_EVENT_ID,
    at,
    period: 'MINUTE',
    requestsAllowed: 20_000,
    requestsMade: 20_001,
    retryAfterSeconds: 60,
    blockedUntil: at + 60_000,
    ruleId: 'account-minute',
    scope: 'account',
    operation: 'event-types',
    flags: [],
    headers: { 'retry-after': '60', 'ot-ratelimit-event-id': INCIDENT_EVENT_ID },
    ...overrides,
  };
}
