// `npm run integrations`: add prints the key once and stores only its hash, list shows no key,
// revoke makes the key useless, and bad input exits non-zero with a message.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IntegrationStore } from '../integrations/integration-store';
import { openDatabase, type SqlDatabase } from '../store/database';
import { runIntegrationsCli } from './integrations';

function io() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = (stream: PassThrough) => () => String(stream.read() ?? '');
  return { io: { stdout, stderr }, out: text(stdout), err: text(stderr) };
}

describe('npm run integrations', () => {
  it('adds, lists and revokes an integration', async () => {
    const db = await openDatabase();
    // The CLI closes what it opens; this test keeps one in-memory database across commands.
    const shared: SqlDatabase = { ...db, close: async () => undefined };
    const open = async () => shared;
    const added = io();
    expect(
      await runIntegrationsCli(['add', 'Nightly', 'sync', '--owner', 'data team'], added.io, open),
    ).toBe(0);
    const key = /pacr_\S+/.exec(added.out())?.[0];
    expect(key).toBeDefined();
    const store = new IntegrationStore(db);
    expect((await store.authenticate(key!))?.name).toBe('Nightly sync');

    const listed = io();
    expect(await runIntegrationsCli(['list'], listed.io, open)).toBe(0);
    const listing = listed.out();
    expect(listing).toContain('Nightly sync\tactive\tdata team');
    expect(listing).not.toContain(key);

    const duplicate = io();
    expect(await runIntegrationsCli(['add', 'nightly SYNC'], duplicate.io, open)).toBe(1);
    expect(duplicate.err()).toMatch(/exists/);

    const revoked = io();
    expect(await runIntegrationsCli(['revoke', 'Nightly', 'sync'], revoked.io, open)).toBe(0);
    expect(await store.authenticate(key!)).toBeUndefined();

    const missing = io();
    expect(await runIntegrationsCli(['revoke', 'nobody'], missing.io, open)).toBe(1);
    expect(await runIntegrationsCli(['frobnicate'], io().io, open)).toBe(2);
    await db.close();
  });
});
