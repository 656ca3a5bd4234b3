// Incidents are kept for INCIDENT_RETENTION_DAYS, then deleted, unless their block still holds.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqlDatabase } from '../store/database';
import { SqlIncidentStore, type IncidentObservation } from './incident-store';

const DAY = 86_400_000;
const T0 = Date.UTC(2030, 0, 1);
let db: SqlDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

const observation = (n: number, at: number, blockedUntil = at + 60_000): IncidentObservation => ({
  key: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  eventId: null,
  at,
  period: 'MINUTE',
  requestsAllowed: 1,
  requestsMade: 2,
  retryAfterSeconds: 60,
  blockedUntil,
  ruleId: null,
  scope: 'account',
  operation: 'event-types',
  flags: [],
  headers: {},
});

describe('incident retention', () => {
  it('deletes incidents last seen before the cutoff whose block has ended', async () => {
    db = await openDatabase();
    const store = new SqlIncidentStore(db, { connection: DEFAULT_CONNECTION });
    await store.record(observation(1, T0 - 100 * DAY));
    await store.record(observation(2, T0 - 91 * DAY, T0 + DAY));
    await store.record(observation(3, T0 - 10 * DAY));
    expect(await store.deleteOlderThan(T0 - 90 * DAY, T0)).toBe(1);
    const left = (await store.list({ limit: 10 })).items.map((incident) => incident.key.slice(-1));
    expect(left.sort()).toEqual(['2', '3']);
  });
});
