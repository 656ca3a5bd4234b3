// A console upgraded past the signing-scheme choice keeps every webhook destination made before it
// on the scheme its receiver already checks: Console-Signature, shown as such.
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../store/database';
import { MIGRATIONS } from '../store/migrations';
import { AlertStore } from './alert-store';

const SIGNING = MIGRATIONS.findIndex((migration) => migration.name.includes('signing scheme'));

describe('upgrading the alert destinations', () => {
  it('keeps earlier webhooks on Console-Signature and Slack unsigned', async () => {
    expect(SIGNING).toBeGreaterThan(0);
    const db = await openDatabase({ migrations: MIGRATIONS.slice(0, SIGNING) });
    try {
      for (const [id, kind, secret] of [
        ['0194b6c2-8000-7000-8000-000000000001', 'webhook', 'whsec_earlier'],
        ['0194b6c2-8000-7000-8000-000000000002', 'slack', null],
      ]) {
        await db.query(
          `INSERT INTO alert_destinations (id, name, kind, url, secret, events, enabled,
             hold_back_seconds, created_at, updated_at)
           VALUES ($1, $2, $3, 'https://alerts.example.com/h', $4, '[]', 1, 60, $5, $5)`,
          [id, kind, kind, secret, '2025-01-06T09:00:00.000Z'],
        );
      }
      await migrate(db);
      const destinations = await new AlertStore(() => Promise.resolve(db)).listDestinations();
      expect(destinations.map((d) => [d.kind, d.signing])).toEqual([
        ['webhook', 'console-signature'],
        ['slack', null],
      ]);
    } finally {
      await db.close();
    }
  });
});
