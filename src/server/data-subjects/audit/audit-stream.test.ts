// The trail as it leaves the console: a lookup of Ada and administrative changes that handle
// secrets each become one log line holding an OCSF event that conforms to its class, carries the
// entry's place in the chain, and holds no identifier, hash of one, secret or password anywhere.
import { afterEach, describe, expect, it } from 'vitest';
import { CreatedDestinationSchema } from '../../../shared/alerts';
import { DEMO_IDENTIFIERS } from '../../../shared/data-subject-demo';
import { IssuedKeySchema } from '../../../shared/integrations';
import { startBffHarness, type BffHarness } from '../../test-support/bff-harness';
import { capturingLogger } from '../../test-support/capturing-logger';
import { ocsfProblems } from '../../test-support/ocsf-schema';
import { AUDIT_ENTRY_MESSAGE } from './audit-stream';
import { AUDIT_EVENT_SCHEMA_VERSION, OCSF_VERSION, PLATFORM_PROVIDER } from './ocsf-event';
import { withPurpose } from '../../test-support/lookup-purpose';

const ADA = DEMO_IDENTIFIERS[0];

let h: BffHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const post = (harness: BffHarness, path: string, body: unknown = {}) =>
  harness.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Every string and number in `value`, with its path, keys included. */
function leaves(value: unknown, path = ''): Array<[string, string]> {
  if (value === null || value === undefined) return [];
  if (typeof value !== 'object') return [[path, String(value)]];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => [
    [`${path}.${key}#key`, key] as [string, string],
    ...leaves(inner, `${path}.${key}`),
  ]);
}

type Event = Record<string, unknown> & {
  class_uid: number;
  activity_id: number;
  metadata: { sequence: number; version: string; log_version: string; profiles?: string[] };
  unmapped: { chain: { seq: number; hash: string }; purpose?: unknown; action?: string };
};

describe('the audit trail as log lines', () => {
  it('writes each entry as one OCSF event without an identifier or a secret', async () => {
    const { logger, lines } = capturingLogger();
    h = await startBffHarness({ logger });
    const wrong = await h.app.request('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF': '1' },
      body: JSON.stringify({ username: 'support', password: 'not-the-password-123' }),
    });
    expect(wrong.status).toBe(401);
    const lookup = await post(h, '/api/data-subjects/lookups', {
      operation: 'v4-details',
      params: { identifier: ADA },
      purpose: { category: 'access request', reference: 'DSAR-2291' },
    });
    expect(lookup.status).toBe(200);
    const created = CreatedDestinationSchema.parse(
      await (
        await post(h, '/api/alerts/destinations', {
          name: 'SIEM',
          kind: 'webhook',
          url: 'https://siem.example.com/hooks/s3cr3t-path-token',
          events: ['incident.new'],
        })
      ).json(),
    );
    const issued = IssuedKeySchema.parse(
      await (await post(h, '/api/integrations', { name: 'Sync', owner: 'data team' })).json(),
    );
    const rotated = IssuedKeySchema.parse(
      await (await post(h, `/api/integrations/${issued.integration.id}/rotate`)).json(),
    );
    await h.request(`/api/alerts/destinations/${created.destination.id}`, { method: 'DELETE' });

    const events = lines
      .filter((line) => line.msg === AUDIT_ENTRY_MESSAGE)
      .map((line) => line.ocsf as Event);
    const chain = await h.audit.chain.readChain(0, 100);
    // One line per lookup (its outcome entry) and per change, in the chain's order.
    const expected = chain.filter((entry) => entry.kind === 'outcome' || entry.kind === 'change');
    expect(events.map((event) => event.metadata.sequence)).toEqual(expected.map((e) => e.seq));
    expect(events.map((event) => event.unmapped.chain.hash)).toEqual(expected.map((e) => e.hash));
    expect(events.map((event) => [event.class_uid, event.activity_id])).toEqual([
      [3002, 1], // the refused sign-in
      [3002, 1], // the admin's sign-in
      [6003, 2], // the lookup of Ada
      [3004, 1], // alert-destination.created
      [3004, 1], // integration.added
      [3004, 3], // integration.key-rotated
      [3004, 4], // alert-destination.deleted
    ]);
    expect(events[0]).toMatchObject({ status_id: 2, user: { name: 'support' } });
    expect(events[2]).toMatchObject({
      status_id: 1,
      api: { operation: 'v4-details' },
      unmapped: { purpose: { category: 'access request', reference: 'DSAR-2291' } },
    });
    for (const event of events) {
      expect(ocsfProblems(event), JSON.stringify(event)).toEqual([]);
      expect(event.metadata).toMatchObject({
        version: OCSF_VERSION,
        log_version: AUDIT_EVENT_SCHEMA_VERSION,
      });
    }

    const identifierHash = chain.find((entry) => entry.kind === 'intent')?.record?.identifierHash;
    expect(identifierHash).toMatch(/^[0-9a-f]{64}$/);
    const secret = created.secret!;
    const forbidden = [
      ADA.toLowerCase(),
      'lovelace',
      identifierHash!,
      secret,
      secret.replace(/^whsec_/, ''),
      's3cr3t-path-token',
      issued.key,
      rotated.key,
      'not-the-password-123',
    ];
    for (const [path, text] of events.flatMap((event) => leaves(event))) {
      for (const value of forbidden) {
        expect(text.toLowerCase(), path).not.toContain(value.toLowerCase());
      }
    }
  });

  it('names the platform connection of each event as its cloud account', async () => {
    const { logger, lines } = capturingLogger();
    h = await startBffHarness({ logger, otherConnections: [{ name: 'uat', label: 'UAT' }] });
    for (const path of [
      '/api/connections/uat/data-subjects/lookups',
      '/api/connections/default/data-subjects/lookups',
    ]) {
      const lookup = await post(
        h,
        path,
        withPurpose({ operation: 'v4-details', params: { identifier: ADA } }),
      );
      expect(lookup.status).toBe(200);
    }
    const lookups = lines
      .filter((line) => line.msg === AUDIT_ENTRY_MESSAGE)
      .map((line) => line.ocsf as Event)
      .filter((event) => event.class_uid === 6003);
    expect(lookups.map((event) => event.cloud)).toEqual([
      {
        provider: PLATFORM_PROVIDER,
        account: { uid: 'uat', type_id: 99, type: 'Platform connection' },
      },
      {
        provider: PLATFORM_PROVIDER,
        account: { uid: 'default', type_id: 99, type: 'Platform connection' },
      },
    ]);
    for (const event of lookups) {
      expect(event.metadata).toMatchObject({ profiles: ['cloud'] });
      expect(ocsfProblems(event), JSON.stringify(event)).toEqual([]);
    }
    // The schema holds the profile's object to OCSF's: a cloud without its provider is refused.
    const { provider: _, ...noProvider } = lookups[0]!.cloud as Record<string, unknown>;
    expect(ocsfProblems({ ...lookups[0]!, cloud: noProvider })).toEqual([
      "/cloud must have required property 'provider'",
    ]);
  });
});
