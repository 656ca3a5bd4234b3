// Whose a token is, checked at every use: the owner must still be in the users file with a role
// that covers the token's.
import { afterEach, describe, expect, it } from 'vitest';
import type { Role } from '../../shared/session';
import { openDatabase, type SqlDatabase } from '../store/database';
import { ApiTokens } from './api-tokens';
import { tokenUser } from './bearer-token';

const databases: SqlDatabase[] = [];
afterEach(async () => {
  for (const database of databases.splice(0)) await database.close();
});

async function setUp(ownerRole: Role, tokenRole: Role, method?: 'provider') {
  const database = await openDatabase();
  databases.push(database);
  const tokens = new ApiTokens({ database: () => Promise.resolve(database), now: Date.now });
  const owner = { username: 'alice', role: ownerRole, ...(method ? { method } : {}) };
  const { token } = await tokens.create(owner, { name: 'sync', role: tokenRole, expiresInDays: 7 });
  const directory = new Map<string, Role>([['alice', ownerRole]]);
  // The owner's grants in named connections, beside the console-wide role above.
  const grants: Record<string, Role> = {};
  const users = {
    find: (username: string) => {
      const role = directory.get(username);
      return role
        ? { username, role, roles: { default: role, ...grants }, version: `v-${role}` }
        : undefined;
    },
  };
  const connections = ['default', 'uat'];
  return { use: () => tokenUser({ tokens, users, connections }, token), directory, grants };
}

describe('tokenUser', () => {
  it('acts for the owner with the token’s role, naming the token', async () => {
    const { use } = await setUp('admin', 'auditor');
    expect(await use()).toMatchObject({
      username: 'alice',
      role: 'auditor',
      method: 'token',
      token: { name: 'sync' },
    });
  });

  it('stops when the owner is removed from the users file', async () => {
    const { use, directory } = await setUp('support', 'support');
    directory.delete('alice');
    expect(await use()).toBeUndefined();
  });

  it('stops when the owner’s role is lowered below the token’s, and holds while it covers it', async () => {
    const { use, directory } = await setUp('admin', 'support');
    directory.set('alice', 'support');
    expect(await use()).toMatchObject({ role: 'support' });
    const admins = await setUp('admin', 'admin');
    admins.directory.set('alice', 'auditor');
    expect(await admins.use()).toBeUndefined();
  });

  it('takes a provider sign-in’s token as made: the users file does not know them', async () => {
    const { use, directory } = await setUp('auditor', 'auditor', 'provider');
    directory.delete('alice');
    expect(await use()).toMatchObject({
      username: 'alice',
      role: 'auditor',
      roles: { default: 'auditor', uat: 'auditor' },
    });
  });

  it('acts in a connection only where the owner’s role there could have made the token', async () => {
    const { use, grants } = await setUp('admin', 'admin');
    grants.uat = 'support';
    expect((await use())?.roles).toEqual({ default: 'admin' });
    const auditors = await setUp('admin', 'auditor');
    auditors.grants.uat = 'auditor';
    expect((await auditors.use())?.roles).toEqual({ default: 'auditor', uat: 'auditor' });
  });
});
