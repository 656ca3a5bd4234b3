// `npm run integrations`: add prints the key once and stores only its hash, list shows no key,
// revoke makes the key useless, and bad input exits non-zero with a message.
import { DEFAULT_CONNECTION } from '../../shared/connections';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IntegrationStore } from '../integrations/integration-store';
import { openDatabase, type SqlDatabase } from '../store/database';
import { runIntegrationsCli } from './integrations';

/** The connections the console under test is configured with, the first one first. */
const CONFIGURED = () => [DEFAULT_CONNECTION, 'uat'];

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
      await runIntegrationsCli(
        ['add', 'Nightly', 'sync', '--owner', 'data team'],
        added.io,
        open,
        CONFIGURED,
      ),
    ).toBe(0);
    const key = /pacr_\S+/.exec(added.out())?.[0];
    expect(key).toBeDefined();
    const store = new IntegrationStore(db);
    expect((await store.authenticate(key!))?.name).toBe('Nightly sync');

    const listed = io();
    expect(await runIntegrationsCli(['list'], listed.io, open, CONFIGURED)).toBe(0);
    const listing = listed.out();
    expect(listing).toContain('Nightly sync\tdefault\tactive\tdata team');
    expect(listing).not.toContain(key);

    const duplicate = io();
    expect(await runIntegrationsCli(['add', 'nightly SYNC'], duplicate.io, open, CONFIGURED)).toBe(
      1,
    );
    expect(duplicate.err()).toMatch(/exists/);

    const revoked = io();
    expect(
      await runIntegrationsCli(['revoke', 'Nightly', 'sync'], revoked.io, open, CONFIGURED),
    ).toBe(0);
    expect(await store.authenticate(key!)).toBeUndefined();

    const missing = io();
    expect(await runIntegrationsCli(['revoke', 'nobody'], missing.io, open, CONFIGURED)).toBe(1);
    expect(await runIntegrationsCli(['frobnicate'], io().io, open, CONFIGURED)).toBe(2);
    await db.close();
  });

  it('refuses an owner that forges a line, a name that reads like one registered, and prints what was stored before safely', async () => {
    const db = await openDatabase();
    const shared: SqlDatabase = { ...db, close: async () => undefined };
    const open = async () => shared;
    expect(
      await runIntegrationsCli(['add', 'Nightly consent sync'], io().io, open, CONFIGURED),
    ).toBe(0);

    // The reproduction: an owner whose line break and tab print a second, made-up row.
    const forged = io();
    const owner = 'data team\nCRM connector\tactive\t-\tkey …AAAA\tlast report never';
    expect(
      await runIntegrationsCli(
        ['add', 'Preference centre', '--owner', owner],
        forged.io,
        open,
        CONFIGURED,
      ),
    ).toBe(1);
    expect(forged.err()).toMatch(/^Owner: must not hold control characters/);
    for (const escape of ['team \u001b[2J', 'team \u202eevil']) {
      expect(
        await runIntegrationsCli(['add', 'Other', '--owner', escape], io().io, open, CONFIGURED),
      ).toBe(1);
    }

    // Cyrillic "с" and "о", and a full-width N: the same name to a reader.
    for (const alike of [
      'Nightly \u0441\u043ensent sync',
      '\uff2eightly consent sync',
      'Nightly  consent sync',
    ]) {
      const refused = io();
      expect(await runIntegrationsCli(['add', alike], refused.io, open, CONFIGURED)).toBe(1);
      // Named either way: "reads like the existing …", or, spaces collapsed, "… exists".
      expect(refused.err()).toMatch(
        /(reads like the existing integration|named) "Nightly consent sync"/,
      );
    }

    // A row stored before these checks is listed with its control characters escaped.
    await new IntegrationStore(db).register(
      'Legacy sync',
      'ops\n\u001b[31mforged row',
      DEFAULT_CONNECTION,
    );
    const listed = io();
    expect(await runIntegrationsCli(['list'], listed.io, open, CONFIGURED)).toBe(0);
    const lines = listed.out().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.find((line) => line.startsWith('Legacy sync'))).toContain(
      'ops\\u{a}\\u{1b}[31mforged row',
    );
    await db.close();
  });

  it('registers for the first configured connection, or the one named, and refuses one not configured', async () => {
    const db = await openDatabase();
    const shared: SqlDatabase = { ...db, close: async () => undefined };
    const open = async () => shared;
    // A connections file without a `default`: the first connection is the default one.
    const configured = () => ['prod-eu', 'uat'];
    const first = io();
    expect(await runIntegrationsCli(['add', 'CRM connector'], first.io, open, configured)).toBe(0);
    expect(first.out()).toContain('Registered "CRM connector" for connection "prod-eu".');
    const named = io();
    expect(
      await runIntegrationsCli(
        ['add', 'UAT smoke', '--connection', 'uat'],
        named.io,
        open,
        configured,
      ),
    ).toBe(0);
    const store = new IntegrationStore(db);
    expect((await store.list({ connection: 'prod-eu' })).map((i) => i.name)).toEqual([
      'CRM connector',
    ]);
    expect((await store.list({ connection: 'uat' })).map((i) => i.name)).toEqual(['UAT smoke']);

    const unknown = io();
    expect(
      await runIntegrationsCli(
        ['add', 'Staging sync', '--connection', 'staging'],
        unknown.io,
        open,
        configured,
      ),
    ).toBe(1);
    expect(unknown.err()).toBe(
      'Connection: this console serves no connection named "staging"; it serves "prod-eu", "uat".\n',
    );
    expect(await store.findByName('Staging sync')).toBeUndefined();

    const listed = io();
    expect(await runIntegrationsCli(['list'], listed.io, open, configured)).toBe(0);
    expect(listed.out()).toMatch(/^UAT smoke\tuat\tactive/m);
    expect(
      await runIntegrationsCli(['list', '--connection', 'uat'], io().io, open, configured),
    ).toBe(2);
    await db.close();
  });
});
