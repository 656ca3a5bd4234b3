// Issue 48: a password session ends when its user's entry in the users file changes (a new
// password, a new role) or the user is removed, with no request in between, as an operator runs
// `npm run users`; a session whose entry did not change carries on.
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runUsersCli } from '../cli/users';
import type { BffHarness } from '../test-support/bff-harness';
import { harnessPerTest } from '../test-support/harness-per-test';

const start = harnessPerTest();

/** Runs `npm run users -- …args` on the harness's users file, the password piped on stdin. */
async function users(h: BffHarness, args: string[], password = ''): Promise<void> {
  const code = await runUsersCli(args, {
    stdin: Readable.from([`${password}\n`]),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    defaultFile: () => h.config.auth.usersFile ?? '',
    scrypt: { N: 1024, r: 8, p: 1 },
  });
  expect(code).toBe(0);
}

/** GET /api/session with `cookie`: its status and, when signed in, who it acts for. */
async function whoIs(h: BffHarness, cookie: string) {
  const response = await h.app.request('/api/session', {
    headers: { 'X-CSRF': '1', Cookie: cookie },
  });
  const body = response.status === 204 ? {} : ((await response.json()) as Record<string, unknown>);
  return { status: response.status, body };
}

describe('a password session and its users-file entry', () => {
  it('ends when the user is given a new password: the old cookie stops working', async () => {
    const clock = { now: Date.now() };
    const h = await start({ now: () => clock.now });
    const cookie = await h.signIn('admin');
    await users(h, ['add', 'admin', '--role', 'admin', '--replace'], 'a-new-long-password-1');
    // The directory looks at the file at most once a second.
    clock.now += 1_000;
    expect((await whoIs(h, cookie)).status).toBe(204);
  });

  it('ends when the user is removed and added again, so the old session never acts as the new user', async () => {
    const clock = { now: Date.now() };
    const h = await start({ now: () => clock.now });
    const cookie = await h.signIn('support');
    await users(h, ['remove', 'support']);
    await users(h, ['add', 'support', '--role', 'admin'], 'a-new-long-password-2');
    clock.now += 1_000;
    const answer = await whoIs(h, cookie);
    expect(answer.status).toBe(204);
    expect(answer.body.role).toBeUndefined();
  });

  it('ends when the role changes, and the new role takes a new sign-in', async () => {
    const clock = { now: Date.now() };
    const h = await start({ now: () => clock.now });
    const cookie = await h.signIn('support');
    await users(h, ['add', 'support', '--role', 'admin', '--replace'], 'a-new-long-password-3');
    clock.now += 1_000;
    expect((await whoIs(h, cookie)).status).toBe(204);
    const signIn = await h.app.request('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'support', password: 'a-new-long-password-3' }),
    });
    expect(await signIn.json()).toMatchObject({ username: 'support', role: 'admin' });
  });

  it('carries on when other users change', async () => {
    const clock = { now: Date.now() };
    const h = await start({ now: () => clock.now });
    const cookie = await h.signIn('admin');
    await users(h, ['add', 'carol', '--role', 'support'], 'a-new-long-password-4');
    await users(h, ['remove', 'support']);
    clock.now += 1_000;
    expect(await whoIs(h, cookie)).toMatchObject({
      status: 200,
      body: { username: 'admin', role: 'admin' },
    });
  });
});
