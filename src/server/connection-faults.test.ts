// One connection's credential refused: that connection's pages say so, the other connection keeps
// working, and readiness names the failing connection, taking the replica out of rotation only
// when the operator marked that connection required.
import { afterEach, describe, expect, it } from 'vitest';
import { startBffHarness, type BffHarness } from './test-support/bff-harness';

let h: BffHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A console whose UAT connection sends a secret UAT's platform refuses. */
const refusedInUat = (required: boolean) =>
  startBffHarness({
    env: { EVENT_TYPES_CACHE_SECONDS: '0' },
    mock: { eventTypeCount: 30 },
    otherConnections: [
      { name: 'uat', label: 'UAT', clientSecret: 'revoked-secret', required, mock: {} },
    ],
  });

interface Readiness {
  checks: Record<string, { ok: boolean; required?: boolean; cause?: string }>;
}

describe("one connection's credential refused", () => {
  it("says so on that connection's pages while the other's are served, and stays ready", async () => {
    h = await refusedInUat(false);
    const uat = await h.request('/api/connections/uat/event-types');
    expect(uat.status).toBe(502);
    const problem = (await uat.json()) as { title: string; detail: string };
    expect(problem.title).toBe(
      'The platform’s token endpoint refused the console’s client credentials',
    );
    // The administrator is sent to UAT's entry of the connections file, not to variables that
    // configure no connection here.
    expect(problem.detail).toContain(
      'Check the clientId and clientSecret of connection "uat" in CONNECTIONS_FILE',
    );
    // Nothing of the secret in the answer.
    expect(JSON.stringify(problem)).not.toContain('revoked-secret');
    const production = await h.request('/api/connections/default/event-types');
    expect(production.status).toBe(200);
    expect(((await production.json()) as { items: unknown[] }).items).toHaveLength(30);
    const ready = await h.app.request('/readyz');
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as Readiness;
    expect(body.checks['uat/token']).toMatchObject({ ok: false });
    expect(body.checks.token).toMatchObject({ ok: true });
  });

  it('takes the replica out of rotation when that connection is required', async () => {
    h = await refusedInUat(true);
    const ready = await h.app.request('/readyz');
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as Readiness;
    expect(body.checks['uat/token']).toMatchObject({ ok: false });
  });
});
