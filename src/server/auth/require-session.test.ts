// Whom a session acts for: a password session its users-file entry while the entry is the one it
// signed in with; a provider session the person and roles its sign-in recorded, without the file,
// resolved for the configured connections.
import { describe, expect, it } from 'vitest';
import { userOfSession } from './require-session';
import type { SessionRecord } from './session-store';
import type { DirectoryUser, UserDirectory } from './user-directory';

const alice: DirectoryUser = {
  username: 'alice',
  role: 'admin',
  roles: { default: 'admin', uat: 'admin' },
  version: 'v2',
};
const users: UserDirectory = {
  find: (username) => (username === 'alice' ? alice : undefined),
  authenticate: async () => undefined,
  list: () => [alice],
};
const auth = { users, connections: ['default', 'uat'] };

function record(fields: Partial<SessionRecord>): SessionRecord {
  return {
    id: 'id',
    handle: 'handle',
    username: 'alice',
    createdAt: 0,
    lastSeenAt: 0,
    method: 'password',
    ...fields,
  };
}

describe('userOfSession', () => {
  it('acts for the users-file entry only while its version is the one signed in with', () => {
    expect(userOfSession(auth, record({ userVersion: 'v2' }))).toEqual({
      username: 'alice',
      role: 'admin',
      roles: { default: 'admin', uat: 'admin' },
      method: 'password',
    });
    expect(userOfSession(auth, record({ userVersion: 'v1' }))).toBeUndefined();
    expect(userOfSession(auth, record({}))).toBeUndefined();
    expect(userOfSession(auth, record({ username: 'bob', userVersion: 'v2' }))).toBeUndefined();
  });

  it('acts for a provider sign-in as recorded, whether or not the users file knows the name', () => {
    const provider = record({
      username: 'zoe',
      method: 'provider',
      role: 'support',
      name: 'Zoe Ng',
      email: 'zoe@example.com',
      provider: { issuer: 'https://idp.example', sub: 's1', authTime: 1_700_000_000_000 },
    });
    expect(userOfSession(auth, provider)).toEqual({
      username: 'zoe',
      role: 'support',
      roles: { default: 'support', uat: 'support' },
      method: 'provider',
      name: 'Zoe Ng',
      email: 'zoe@example.com',
      authTime: 1_700_000_000_000,
    });
    // No role recorded (or one this build does not know): the session ends.
    expect(userOfSession(auth, { ...provider, role: undefined })).toBeUndefined();
  });

  it('gives a provider sign-in its grant in a connection, and its console-wide role elsewhere', () => {
    const provider = record({
      username: 'zoe',
      method: 'provider',
      role: 'support',
      connectionRoles: { uat: 'admin' },
    });
    expect(userOfSession(auth, provider)).toMatchObject({
      role: 'support',
      roles: { default: 'support', uat: 'admin' },
    });
    // Roles in named connections only: signed in, without a console-wide role.
    const only = userOfSession(auth, { ...provider, role: undefined });
    expect(only).toMatchObject({ username: 'zoe', roles: { uat: 'admin' } });
    expect(only?.role).toBeUndefined();
  });

  it('keeps a session stored before roles per connection: its role applies in every connection', () => {
    // What the current release stores for a provider sign-in: a role, no grants.
    const stored = record({ username: 'zoe', method: 'provider', role: 'auditor' });
    expect(userOfSession(auth, stored)).toMatchObject({
      role: 'auditor',
      roles: { default: 'auditor', uat: 'auditor' },
    });
  });
});
