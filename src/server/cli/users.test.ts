import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '../auth/password-hash';
import { createConsoleAuth } from '../auth/console-auth';
import { fileUserDirectory } from '../auth/user-directory';
import { readUsersFile } from '../auth/users-file';
import { parseConfig } from '../config/config';
import { createLogger } from '../observability/logger';
import { runUsersCli } from './users';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI with `input` piped on stdin; returns exit code and output. */
async function run(args: string[], input = '') {
  const dir = dirs[0] ?? mkdtempSync(join(tmpdir(), 'users-cli-'));
  if (!dirs.includes(dir)) dirs.push(dir);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()));
  const code = await runUsersCli(args, {
    stdin: Readable.from([input]),
    stdout,
    stderr,
    defaultFile: () => join(dir, 'nested', 'users.json'),
    scrypt: { N: 1024, r: 8, p: 1 },
  });
  return { code, out: out.join(''), err: err.join(''), file: join(dir, 'nested', 'users.json') };
}

describe('npm run users', () => {
  it('adds a user with the password read from piped stdin, storing only its hash', async () => {
    const added = await run(['add', 'Alice', '--role', 'admin'], 'a-long-password-1\n');
    expect(added).toMatchObject({ code: 0, err: '' });
    expect(added.out).toContain('Added alice (admin)');
    const text = readFileSync(added.file, 'utf8');
    expect(text).not.toContain('a-long-password-1');
    const [alice] = readUsersFile(added.file);
    expect(alice).toMatchObject({ username: 'alice', role: 'admin' });
    expect(await verifyPassword('a-long-password-1', alice?.passwordHash ?? '')).toBe(true);
    expect(statSync(added.file).mode & 0o777).toBe(0o600);
  });

  it('lists and removes users', async () => {
    await run(['add', 'alice', '--role', 'admin'], 'a-long-password-1\n');
    await run(['add', 'bob', '--role', 'support'], 'b-long-password-2\n');
    await run(['add', 'carol', '--role', 'auditor'], 'c-long-password-3\n');
    expect((await run(['list'])).out).toBe('alice\tadmin\nbob\tsupport\ncarol\tauditor\n');
    const removed = await run(['remove', 'bob']);
    expect(removed.code).toBe(0);
    expect((await run(['list'])).out).toBe('alice\tadmin\ncarol\tauditor\n');
  });

  it('refuses to overwrite a user unless told to, then replaces password and role', async () => {
    await run(['add', 'alice', '--role', 'admin'], 'a-long-password-1\n');
    const again = await run(['add', 'alice', '--role', 'support'], 'another-password-2\n');
    expect(again.code).toBe(2);
    expect(again.err).toContain('--replace');
    const replaced = await run(
      ['add', 'alice', '--role', 'support', '--replace'],
      'another-password-2\n',
    );
    expect(replaced.out).toContain('Updated alice (support)');
    expect(replaced.out).toContain('Their open sessions have ended');
    const [alice] = readUsersFile(replaced.file);
    expect(await verifyPassword('another-password-2', alice?.passwordHash ?? '')).toBe(true);
  });

  it.each([
    [
      ['add', 'alice', '--role', 'root'],
      'a-long-password-1\n',
      /--role admin, --role auditor or --role support/,
    ],
    [['add', 'alice', '--role', 'admin'], 'short\n', /at least 12 characters/],
    [['add', 'bad name!', '--role', 'admin'], 'a-long-password-1\n', /lower-case letters, digits/],
    [['remove', 'nobody'], '', /nobody is not in/],
    [['frobnicate'], '', /Unknown command/],
  ])('refuses %j with a one-line reason and changes nothing', async (args, input, message) => {
    const result = await run(args, input);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect((await run(['list'])).out).toMatch(/^No users in /);
  });

  it('unlock lifts a locked-out user’s sign-in in a running console, through the users file', async () => {
    const added = await run(['add', 'alice', '--role', 'admin'], 'a-long-password-1\n');
    const clock = { now: 0 };
    const auth = createConsoleAuth({
      config: parseConfig({
        UPSTREAM_BASE_URL: 'https://api.example.com',
        OAUTH_CLIENT_ID: 'id',
        OAUTH_CLIENT_SECRET: 'secret',
        CONSOLE_USERS_FILE: added.file,
        SESSION_SECRET: 'x'.repeat(32),
        AUDIT_KEY: 'k'.repeat(32),
      }),
      logger: createLogger('silent'),
      now: () => clock.now,
    });
    const attempt = { username: 'alice', address: '203.0.113.9' };
    // The tenth failure in the window locks the name.
    await auth.throttle.recordFailure({ attempt, userCount: 10, addressCount: 1 });
    expect(await auth.throttle.secondsToWait(attempt)).toBeGreaterThan(800);

    const unlocked = await run(['unlock', 'alice']);
    expect(unlocked.code).toBe(0);
    expect(unlocked.out).toContain('Unlocked alice');
    // The console re-reads the file at the next look-up, at most once a second.
    clock.now += 1_000;
    auth.users.find('alice');
    expect(await auth.throttle.secondsToWait(attempt)).toBe(0);
    expect((await run(['unlock', 'nobody'])).code).toBe(2);
  });

  it('gives a user roles in named connections, which the console reads, without a new password', async () => {
    const added = await run(
      ['add', 'ann', '--role', 'admin', '--connection', 'uat'],
      'a-long-password-1\n',
    );
    expect(added.out).toContain('Added ann (admin in uat)');
    const passwordHash = readUsersFile(added.file)[0]?.passwordHash;
    const set = await run(['role', 'ann', '--role', 'support', '--connection', 'default']);
    expect(set.code).toBe(0);
    expect(set.out).toContain("Set ann's role in default to support");
    expect((await run(['list'])).out).toBe('ann\t-\tuat=admin,default=support\n');
    const [ann] = readUsersFile(added.file);
    expect(ann).toEqual({
      username: 'ann',
      connections: { uat: 'admin', default: 'support' },
      passwordHash,
    });
    const users = fileUserDirectory(added.file, {
      logger: createLogger('silent'),
      connections: ['default', 'uat'],
    });
    expect(users.find('ann')?.roles).toEqual({ default: 'support', uat: 'admin' });
  });

  it('sets and removes a console-wide role beside the connection roles, never leaving none', async () => {
    await run(['add', 'ann', '--role', 'admin', '--connection', 'uat'], 'a-long-password-1\n');
    await run(['role', 'ann', '--role', 'auditor']);
    expect((await run(['list'])).out).toBe('ann\tauditor\tuat=admin\n');
    await run(['role', 'ann', '--role', 'none', '--connection', 'uat']);
    expect((await run(['list'])).out).toBe('ann\tauditor\n');
    const last = await run(['role', 'ann', '--role', 'none']);
    expect(last.code).toBe(2);
    expect(last.err).toContain('would leave ann without any role');
    expect((await run(['list'])).out).toBe('ann\tauditor\n');
  });

  it('refuses a malformed connection name', async () => {
    const result = await run(
      ['add', 'ann', '--role', 'admin', '--connection', 'UAT'],
      'a-long-password-1\n',
    );
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/connection name has lower-case letters/);
  });

  it('prints usage for --help', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.out).toContain('npm run users -- add NAME --role admin|auditor|support');
  });
});
