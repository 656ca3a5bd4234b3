// Whom a session acts for: a password session its users-file entry while the entry is the one it
// signed in with; a provider session the person and role its sign-in recorded, without the file.
import { describe, expect, it } from 'vitest';
import { userOfSession } from './require-session';
import type { SessionRecord } from './session-store';
import type { DirectoryUser, UserDirectory } from './user-directory';

const alice: DirectoryUser = { username: 'alice', role: 'admin', version: 'v2' };
const users: UserDirectory = {
  find: (username) => (username === 'alice' ? alice : undefined),
  authenticate: async () => undefined,
  list: () => [alice],
};

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
    expect(userOfSession(users, record({ userVersion: 'v2' }))).toEqual({
      username: 'alice',
      role: 'admin',
      method: 'password',
    });
    expect(userOfSession(users, record({ userVersion: 'v1' }))).toBeUndefined();
    expect(userOfSession(users, record({}))).toBeUndefined();
    expect(userOfSession(users, record({ username: 'bob', userVersion: 'v2' }))).toBeUndefined();
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
    expect(userOfSession(users, provider)).toEqual({
      username: 'zoe',
      role: 'support',
      method: 'provider',
      name: 'Zoe Ng',
      email: 'zoe@example.com',
      authTime: 1_700_000_000_000,
    });
    // No role recorded (or one this build does not know): the session ends.
    expect(userOfSession(users, { ...provider, role: undefined })).toBeUndefined();
  });
});
