import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../config/config';
import { createLogger } from '../observability/logger';
import { createConsoleAuth } from './console-auth';
import { hashPassword } from './password-hash';
import { demoUserDirectory, fileUserDirectory, userVersion } from './user-directory';
import { writeUsersFile, type StoredUser } from './users-file';

const CHEAP = { N: 1024, r: 8, p: 1 };
const logger = createLogger('silent');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'users-test-'));
  dirs.push(dir);
  return join(dir, 'users.json');
}

async function user(
  username: string,
  role: 'admin' | 'support',
  password: string,
): Promise<StoredUser> {
  return { username, role, passwordHash: await hashPassword(password, CHEAP) };
}

describe('fileUserDirectory', () => {
  it('authenticates users of the file and nobody else', async () => {
    const path = tempFile();
    writeUsersFile(path, [await user('alice', 'admin', 'alice-password-1')]);
    const users = fileUserDirectory(path, { logger, connections: ['default'] });
    expect(await users.authenticate('alice', 'alice-password-1')).toEqual({
      username: 'alice',
      role: 'admin',
      roles: { default: 'admin' },
      version: expect.any(String),
    });
    expect(await users.authenticate('alice', 'wrong')).toBeUndefined();
    expect(await users.authenticate('bob', 'alice-password-1')).toBeUndefined();
    expect(users.find('alice')).toMatchObject({ username: 'alice', role: 'admin' });
  });

  it('picks up edits of the file without a restart, and keeps the last good list on a broken edit', async () => {
    const clock = { now: 0 };
    const path = tempFile();
    writeUsersFile(path, [await user('alice', 'admin', 'alice-password-1')]);
    const users = fileUserDirectory(path, {
      logger,
      connections: ['default'],
      now: () => clock.now,
    });
    writeUsersFile(path, [
      await user('alice', 'support', 'alice-password-1'),
      await user('bob', 'admin', 'bob-password-12'),
    ]);
    expect(users.find('alice')?.role).toBe('admin');
    clock.now += 1_000;
    expect(users.find('alice')?.role).toBe('support');
    expect(await users.authenticate('bob', 'bob-password-12')).toBeDefined();
    writeFileSync(path, '{ "users": [ half a file');
    clock.now += 1_000;
    expect(users.list()).toHaveLength(2);
    rmSync(path);
    clock.now += 1_000;
    expect(users.list()).toHaveLength(0);
  });

  it('does the same hashing work for an unknown user as for a wrong password', async () => {
    const path = tempFile();
    writeUsersFile(path, [await user('alice', 'admin', 'alice-password-1')]);
    const users = fileUserDirectory(path, { logger, connections: ['default'] });
    await users.authenticate('nobody', 'x'); // the dummy hash is made on first use
    // Interleaved, so a busy machine slows both sides alike.
    const totals = { known: 0, unknown: 0 };
    for (let i = 0; i < 20; i += 1) {
      for (const [side, name] of [
        ['known', 'alice'],
        ['unknown', 'nobody'],
      ] as const) {
        const started = performance.now();
        await users.authenticate(name, 'wrong');
        totals[side] += performance.now() - started;
      }
    }
    expect(totals.unknown).toBeGreaterThan(totals.known / 3);
    expect(totals.unknown).toBeLessThan(totals.known * 3);
  });
});

describe('roles per connection in the users file', () => {
  const grants = async (): Promise<StoredUser[]> => [
    {
      username: 'ann',
      connections: { uat: 'admin', default: 'support' },
      passwordHash: await hashPassword('ann-password-12', CHEAP),
    },
    {
      username: 'bo',
      role: 'auditor',
      connections: { uat: 'admin' },
      passwordHash: await hashPassword('bo-password-123', CHEAP),
    },
  ];

  it('gives each user their grant in a connection, else their console-wide role there', async () => {
    const path = tempFile();
    writeUsersFile(path, await grants());
    const users = fileUserDirectory(path, { logger, connections: ['default', 'uat'] });
    const ann = await users.authenticate('ann', 'ann-password-12');
    expect(ann).toMatchObject({ username: 'ann', roles: { default: 'support', uat: 'admin' } });
    // Roles in named connections only: no console-wide role, so no console-wide pages.
    expect(ann?.role).toBeUndefined();
    expect(users.find('bo')).toMatchObject({
      role: 'auditor',
      roles: { default: 'auditor', uat: 'admin' },
    });
  });

  it('gives a changed role in one connection a new version, so the old sessions end', async () => {
    const path = tempFile();
    const [ann] = await grants();
    const version = (connections: StoredUser['connections']) => {
      writeUsersFile(path, [{ ...ann!, ...(connections ? { connections } : {}) }]);
      return fileUserDirectory(path, { logger, connections: ['default', 'uat'] }).find('ann')
        ?.version;
    };
    expect(version({ uat: 'admin', default: 'support' })).toBe(
      version({ default: 'support', uat: 'admin' }),
    );
    expect(version({ uat: 'auditor', default: 'support' })).not.toBe(
      version({ uat: 'admin', default: 'support' }),
    );
  });

  it('keeps the version of an entry without connections, so an upgrade signs nobody out', async () => {
    const stored = await user('alice', 'admin', 'alice-password-1');
    const before = createHash('sha256')
      .update(`${stored.role}\n${stored.passwordHash}`)
      .digest('base64url')
      .slice(0, 22);
    expect(userVersion(stored)).toBe(before);
  });
});

describe('demoUserDirectory', () => {
  // Three demo passwords hashed at the real scrypt cost: more than the default 5 s on a busy CI.
  it('has admin, auditor and support with the demo password', async () => {
    const users = demoUserDirectory('demo', ['default', 'uat']);
    expect(users.list()).toEqual([
      { username: 'admin', role: 'admin' },
      { username: 'auditor', role: 'auditor' },
      { username: 'support', role: 'support' },
    ]);
    expect(await users.authenticate('auditor', 'demo')).toEqual({
      username: 'auditor',
      role: 'auditor',
      roles: { default: 'auditor', uat: 'auditor' },
      version: 'demo-auditor',
    });
    expect(await users.authenticate('admin', 'Demo')).toBeUndefined();
  }, 15_000);
});

describe('createConsoleAuth in live mode', () => {
  const live = (usersFile: string) =>
    parseConfig({
      UPSTREAM_BASE_URL: 'https://api.example.com',
      OAUTH_CLIENT_ID: 'id',
      OAUTH_CLIENT_SECRET: 'secret',
      CONSOLE_USERS_FILE: usersFile,
      SESSION_SECRET: 'x'.repeat(32),
      AUDIT_KEY: 'k'.repeat(32),
    });

  it.each([
    [
      'a missing file',
      () => tempFile(),
      /^CONSOLE_USERS_FILE: .* does not exist; create it with: npm run users -- add NAME --role admin$/,
    ],
    [
      'invalid JSON',
      () => {
        const path = tempFile();
        writeFileSync(path, 'nope');
        return path;
      },
      /^CONSOLE_USERS_FILE: .* is not valid JSON$/,
    ],
    [
      'a clear-text password',
      () => {
        const path = tempFile();
        writeFileSync(
          path,
          JSON.stringify({ users: [{ username: 'a', role: 'admin', passwordHash: 'hunter2' }] }),
        );
        return path;
      },
      /is not an scrypt password hash$/,
    ],
    [
      'no users',
      () => {
        const path = tempFile();
        writeUsersFile(path, []);
        return path;
      },
      /has no users; add one with: npm run users/,
    ],
  ])('refuses to start with %s, in one line', (_, file, message) => {
    let error: unknown;
    try {
      createConsoleAuth({ config: live(file()), logger });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('refuses to start with a grant in a connection that is not configured, naming the user and the connection', async () => {
    const path = tempFile();
    writeUsersFile(path, [
      await user('alice', 'admin', 'alice-password-1'),
      {
        username: 'carl',
        connections: { prod: 'admin' },
        passwordHash: await hashPassword('carl-password-1', CHEAP),
      },
    ]);
    expect(() => createConsoleAuth({ config: live(path), logger })).toThrow(
      new ConfigError(
        `CONSOLE_USERS_FILE: ${path} gives the user "carl" a role in the connection "prod", which is not configured (configured: default)`,
      ),
    );
  });

  it('refuses to start with a user who has no role anywhere', async () => {
    const path = tempFile();
    const passwordHash = await hashPassword('dan-password-12', CHEAP);
    writeFileSync(
      path,
      JSON.stringify({ users: [{ username: 'dan', connections: {}, passwordHash }] }),
    );
    expect(() => createConsoleAuth({ config: live(path), logger })).toThrow(
      /at users\.0: needs a role, or a role in at least one connection$/,
    );
  });

  it('has no demo users in live mode', async () => {
    const path = tempFile();
    writeUsersFile(path, [await user('alice', 'admin', 'alice-password-1')]);
    const auth = createConsoleAuth({ config: live(path), logger });
    expect(auth.users.find('admin')).toBeUndefined();
    expect(await auth.users.authenticate('admin', 'demo')).toBeUndefined();
  });
});
