// Each administrative change through the console's API leaves one entry in the audit trail, in
// the chain `npm run audit -- verify` walks: sign-ins and refused sign-ins, unlocks, integrations,
// learned limits reset, exports and verifications; none holds a key or password; "verify now"
// with its checkpoint file swapped for a FIFO answers a readable result instead of a 500.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleSessionListSchema } from '../../../shared/console-sessions';
import { DEMO_SCENARIO_IDS } from '../../../shared/demo-scenarios';
import { IssuedKeySchema } from '../../../shared/integrations';
import { startBffHarness, type BffHarness } from '../../test-support/bff-harness';
import { tempDirsPerTest } from '../../test-support/temp-dirs';
import { CHECKPOINT_FILE } from './checkpoint-file';

let h: BffHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
const tempDir = tempDirsPerTest('admin-changes-');

const post = (harness: BffHarness, path: string, body: unknown = {}) =>
  harness.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('administrative changes through the API', () => {
  it('records each with who and what, no secret, in a chain that verifies', async () => {
    h = await startBffHarness();
    const wrong = await h.app.request('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF': '1' },
      body: JSON.stringify({ username: 'support', password: 'not-the-password-123' }),
    });
    expect(wrong.status).toBe(401);
    const issued = IssuedKeySchema.parse(
      await (await post(h, '/api/integrations', { name: 'Sync', owner: 'data team' })).json(),
    );
    const id = issued.integration.id;
    const rotated = IssuedKeySchema.parse(
      await (await post(h, `/api/integrations/${id}/rotate`)).json(),
    );
    expect((await post(h, `/api/integrations/${id}/revoke`)).status).toBe(200);
    expect((await h.request('/api/sign-in-locks/support', { method: 'DELETE' })).status).toBe(200);
    expect((await h.request('/api/rate-limits/reported-limits', { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await post(h, '/api/audit-trail/export', { format: 'json' })).status).toBe(200);
    const verified = await post(h, '/api/audit-trail/verify');
    expect(await verified.json()).toMatchObject({ ok: true });

    const { items } = await h.audit.search.listChanges({ limit: 50 });
    expect(items.map((item) => item.action).reverse()).toEqual([
      'sign-in.refused',
      'sign-in.succeeded',
      'integration.added',
      'integration.key-rotated',
      'integration.revoked',
      'sign-in-lock.released',
      'learned-limits.reset',
      'audit.exported',
      'audit.verified',
    ]);
    const text = JSON.stringify(items);
    for (const secret of [issued.key, rotated.key, 'not-the-password-123']) {
      expect(text).not.toContain(secret);
    }
    const refused = items.find((item) => item.action === 'sign-in.refused')!;
    expect([refused.username, refused.target]).toEqual(['anonymous', 'support']);
    expect(items.find((item) => item.action === 'sign-in.succeeded')?.username).toBe('admin');
  });

  it('records a session ended by an admin, a demo scenario armed and blocks ended, once each', async () => {
    h = await startBffHarness({ mockRateLimits: true, demoControls: true });
    await h.signIn('support');
    const { sessions } = ConsoleSessionListSchema.parse(
      await (await h.request('/api/sessions')).json(),
    );
    const theirs = sessions.find((session) => session.username === 'support')!;
    expect((await h.request(`/api/sessions/${theirs.id}`, { method: 'DELETE' })).status).toBe(204);
    const scenario = DEMO_SCENARIO_IDS[0];
    expect((await post(h, '/api/demo-controls', { scenario })).status).toBe(200);
    expect((await post(h, '/api/demo-controls/reset')).status).toBe(204);

    const { items } = await h.audit.search.listChanges({ limit: 50 });
    const made = items.filter((item) => !item.action.startsWith('sign-in.')).reverse();
    expect(made.map((item) => [item.action, item.username, item.target])).toEqual([
      ['session.ended', 'admin', 'support'],
      ['demo.scenario-armed', 'admin', scenario],
      ['blocks.ended', 'admin', null],
    ]);
    expect(JSON.parse(made[0]!.before!)).toEqual({ session: theirs.id, method: 'password' });
    expect(JSON.parse(made[2]!.after!)).toEqual({ blocks: [] });
  });

  it('answers "verify now" with a readable result when the checkpoint file became a FIFO', async () => {
    const dir = tempDir();
    h = await startBffHarness({ env: { AUDIT_CHECKPOINT_DIR: dir } });
    await post(h, '/api/audit-trail/export', { format: 'json' });
    rmSync(join(dir, CHECKPOINT_FILE), { force: true });
    execFileSync('mkfifo', [join(dir, CHECKPOINT_FILE)]);
    const response = await post(h, '/api/audit-trail/verify');
    expect(response.status).toBe(200);
    const result = (await response.json()) as { ok: boolean; detail: string };
    expect(result.ok).toBe(false);
    expect(result.detail).toMatch(/^the checkpoint file could not be read \(.+\)/);
    expect(result.detail).not.toContain(dir);
  });
});
