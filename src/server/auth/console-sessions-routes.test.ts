// /api/sessions as people meet it: their own sessions listed with the browser and which one is
// theirs, an admin seeing and ending everyone's, a support user kept to their own, "Sign out
// everywhere", and nothing in an answer that could sign anyone in.
import { describe, expect, it } from 'vitest';
import { ConsoleSessionListSchema, type ConsoleSessionList } from '../../shared/console-sessions';
import type { Role } from '../../shared/session';
import { HARNESS_USERS, type BffHarness } from '../test-support/bff-harness';
import { harnessPerTest } from '../test-support/harness-per-test';

const start = harnessPerTest();

const FIREFOX_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROMIUM_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Signs in as `role` from a browser sending `userAgent`; answers the Cookie header value. */
async function signInFrom(h: BffHarness, role: Role, userAgent: string): Promise<string> {
  const response = await h.app.request('/api/session', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'User-Agent': userAgent },
    body: JSON.stringify(HARNESS_USERS[role]),
  });
  expect(response.status).toBe(200);
  return response.headers.get('set-cookie')?.split(';', 1)[0] ?? '';
}

function call(h: BffHarness, cookie: string, method = 'GET', path = '/api/sessions') {
  return h.app.request(path, { method, headers: { 'X-CSRF': '1', Cookie: cookie } });
}

async function listOf(h: BffHarness, cookie: string): Promise<ConsoleSessionList> {
  const response = await call(h, cookie);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return ConsoleSessionListSchema.parse(await response.json());
}

describe('GET /api/sessions', () => {
  it('lists one’s own sessions, newest first, with the browser and this one marked', async () => {
    const clock = { now: Date.now() };
    const h = await start({ now: () => clock.now });
    const laptop = await signInFrom(h, 'support', FIREFOX_WINDOWS);
    clock.now += 60_000;
    const desktop = await signInFrom(h, 'support', CHROMIUM_LINUX);
    await signInFrom(h, 'admin', CHROMIUM_LINUX);

    const list = await listOf(h, laptop);
    expect(list.everyone).toBe(false);
    expect(list.sessions).toEqual([
      expect.objectContaining({
        username: 'support',
        role: 'support',
        method: 'password',
        browser: 'Chrome on Linux',
        current: false,
        startedAt: new Date(clock.now).toISOString(),
      }),
      expect.objectContaining({ browser: 'Firefox on Windows', current: true }),
    ]);
    // The cookie's session id appears nowhere: the list names sessions by a handle.
    const text = JSON.stringify(list);
    for (const cookie of [laptop, desktop]) {
      // The cookie's value is `<id>.<signature>`, URI-encoded.
      const id = decodeURIComponent(cookie.split('=', 2)[1] ?? '').split('.')[0] ?? '';
      expect(id).toHaveLength(43);
      expect(text).not.toContain(id);
    }
  });

  it('shows an admin everyone’s sessions', async () => {
    const h = await start();
    await signInFrom(h, 'support', FIREFOX_WINDOWS);
    const admin = await signInFrom(h, 'admin', CHROMIUM_LINUX);
    const list = await listOf(h, admin);
    expect(list.everyone).toBe(true);
    expect(list.sessions.map((s) => [s.username, s.current])).toEqual([
      ['admin', true],
      ['support', false],
    ]);
  });
});

describe('GET /api/sessions with a single sign-on session', () => {
  it('shows how it was signed in, with the person’s name and e-mail, and ends it by handle', async () => {
    const h = await start();
    const admin = await signInFrom(h, 'admin', CHROMIUM_LINUX);
    const zoe = await h.auth.sessions.create(
      { username: 'zoe' },
      {
        method: 'provider',
        role: 'support',
        name: 'Zoe Ng',
        email: 'zoe@example.com',
        userAgent: 'Safari on iOS',
        provider: { issuer: 'https://idp.example', sub: 'zoe-sub', sid: 'sid-1', idToken: 'a.b.c' },
      },
    );
    const listed = (await listOf(h, admin)).sessions.find((s) => s.username === 'zoe');
    expect(listed).toEqual({
      id: zoe.handle,
      username: 'zoe',
      role: 'support',
      name: 'Zoe Ng',
      email: 'zoe@example.com',
      method: 'provider',
      browser: 'Safari on iOS',
      startedAt: expect.any(String),
      lastActiveAt: expect.any(String),
      current: false,
    });
    // The provider's details stay on the server.
    expect(JSON.stringify(listed)).not.toMatch(/a\.b\.c|zoe-sub|sid-1|idp\.example/);
    expect((await call(h, admin, 'DELETE', `/api/sessions/${zoe.handle}`)).status).toBe(204);
    expect(await h.auth.sessions.touch(zoe.id)).toBeUndefined();
  });
});

describe('DELETE /api/sessions/{id}', () => {
  it('ends one’s other session: its cookie stops working, this one carries on', async () => {
    const h = await start();
    const laptop = await signInFrom(h, 'support', FIREFOX_WINDOWS);
    const phone = await signInFrom(h, 'support', CHROMIUM_LINUX);
    const other = (await listOf(h, laptop)).sessions.find((s) => !s.current);
    const ended = await call(h, laptop, 'DELETE', `/api/sessions/${other?.id}`);
    expect(ended.status).toBe(204);
    expect((await call(h, phone, 'GET', '/api/session')).status).toBe(204);
    expect((await listOf(h, laptop)).sessions).toHaveLength(1);
    // Ended already: 404.
    expect((await call(h, laptop, 'DELETE', `/api/sessions/${other?.id}`)).status).toBe(404);
  });

  it('answers 404 for an unknown id and 403 for another person’s session to a non-admin', async () => {
    const h = await start();
    const support = await signInFrom(h, 'support', FIREFOX_WINDOWS);
    const admin = await signInFrom(h, 'admin', CHROMIUM_LINUX);
    const unknown = await call(h, support, 'DELETE', `/api/sessions/${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('application/problem+json');
    expect((await call(h, support, 'DELETE', '/api/sessions/not-a-handle')).status).toBe(404);

    const adminSession = (await listOf(h, admin)).sessions.find((s) => s.username === 'admin');
    const refused = await call(h, support, 'DELETE', `/api/sessions/${adminSession?.id}`);
    expect(refused.status).toBe(403);
    expect((await call(h, admin, 'GET', '/api/session')).status).toBe(200);
  });

  it('lets an admin end anyone’s session', async () => {
    const h = await start();
    const support = await signInFrom(h, 'support', FIREFOX_WINDOWS);
    const admin = await signInFrom(h, 'admin', CHROMIUM_LINUX);
    const theirs = (await listOf(h, admin)).sessions.find((s) => s.username === 'support');
    expect((await call(h, admin, 'DELETE', `/api/sessions/${theirs?.id}`)).status).toBe(204);
    expect((await call(h, support, 'GET', '/api/session')).status).toBe(204);
  });

  it('ending one’s current session signs this browser out', async () => {
    const h = await start();
    const cookie = await signInFrom(h, 'support', FIREFOX_WINDOWS);
    const [mine] = (await listOf(h, cookie)).sessions;
    const ended = await call(h, cookie, 'DELETE', `/api/sessions/${mine?.id}`);
    expect(ended.status).toBe(204);
    expect(ended.headers.get('set-cookie')).toMatch(/Max-Age=0/i);
    expect((await call(h, cookie, 'GET', '/api/session')).status).toBe(204);
  });
});

describe('DELETE /api/sessions (sign out everywhere)', () => {
  it('ends all of one’s own sessions, this one included, and nobody else’s', async () => {
    const h = await start();
    const laptop = await signInFrom(h, 'support', FIREFOX_WINDOWS);
    const phone = await signInFrom(h, 'support', CHROMIUM_LINUX);
    const admin = await signInFrom(h, 'admin', CHROMIUM_LINUX);
    const everywhere = await call(h, laptop, 'DELETE');
    expect(everywhere.status).toBe(200);
    expect(await everywhere.json()).toEqual({ ended: 2 });
    expect(everywhere.headers.get('set-cookie')).toMatch(/Max-Age=0/i);
    expect((await call(h, laptop, 'GET', '/api/session')).status).toBe(204);
    expect((await call(h, phone, 'GET', '/api/session')).status).toBe(204);
    expect((await call(h, admin, 'GET', '/api/session')).status).toBe(200);
  });

  it('needs the X-CSRF header, so another site cannot sign anyone out', async () => {
    const h = await start();
    const cookie = await signInFrom(h, 'support', FIREFOX_WINDOWS);
    const response = await h.app.request('/api/sessions', {
      method: 'DELETE',
      headers: { Cookie: cookie },
    });
    expect(response.status).toBe(403);
    expect((await call(h, cookie, 'GET', '/api/session')).status).toBe(200);
  });
});
