// GET /api/connections as the header's switcher reads it: every configured connection in order,
// with its label, colour and the person's role, to signed-in people only.
import { describe, expect, it } from 'vitest';
import { harnessPerTest } from '../test-support/harness-per-test';

const start = harnessPerTest();

describe('GET /api/connections', () => {
  it('lists the connections in configured order with the person’s role, signed in only', async () => {
    const harness = await start({
      otherConnections: [{ name: 'uat', label: 'UAT', mock: { eventTypeCount: 3 } }],
    });
    const response = await harness.request('/api/connections', {}, { as: 'support' });
    expect(response.status).toBe(200);
    const listed = (await response.json()) as { name: string; role: string; label: string }[];
    expect(listed.map(({ name, role }) => ({ name, role }))).toEqual([
      { name: 'default', role: 'support' },
      { name: 'uat', role: 'support' },
    ]);
    expect(listed[1]).toMatchObject({ label: 'UAT' });
    expect((await harness.request('/api/connections', {}, { as: null })).status).toBe(401);
  });
});
