// /api/session as a browser and an operator meet it: signing in and out, the cookie's attributes
// over HTTP and HTTPS, expiry, roles, and what a failed or throttled sign-in does and does not say.
import { describe, expect, it } from 'vitest';
import { SessionSchema } from '../../shared/session';
import { HARNESS_USERS, type BffHarness } from '../test-support/bff-harness';
import { harnessPerTest } from '../test-support/harness-per-test';
import { expectRateLimitFields } from '../test-support/rate-limit-fields';

const start = harnessPerTest();

/** Counts from now on how many passwords `h` checks (each a costly hash). */
function countPasswordChecks(h: BffHarness): { count: number } {
  const checks = { count: 0 };
  const authenticate = h.auth.users.authenticate.bind(h.auth.users);
  h.auth.users.authenticate = async (username, password) => {
    checks.count += 1;
    return authenticate(username, password);
  };
  return checks;
}

async function signInRequest(
  h: BffHarness,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return h.app.request('/api/session', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function problemOf(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return (await response.json()) as Record<string, unknown>;
}

function cookieOf(response: Response): string {
  return response.headers.get('set-cookie')?.split(';', 1)[0] ?? '';
}

describe('POST /api/session', () => {
  it('signs in, answers { username, role } and sets a strict HttpOnly session cookie', async () => {
    const h = await start();
    const response = await signInRequest(h, HARNESS_USERS.admin);
    expect(response.status).toBe(200);
    expect(SessionSchema.parse(await response.json())).toEqual({
      username: 'admin',
      role: 'admin',
      roles: { default: 'admin' },
      idleSeconds: 480 * 60,
      method: 'password',
    });
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^console_session=[\w-]{43}\.[^;]+;/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toMatch(/Domain=/i);
    expect(setCookie).not.toMatch(/Max-Age|Expires/i);
    // Plain HTTP on a laptop: a Secure cookie would never come back.
    expect(setCookie).not.toContain('Secure');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('accepts the username in any case and with surrounding spaces', async () => {
    const h = await start();
    const response = await signInRequest(h, {
      username: '  Support ',
      password: HARNESS_USERS.support.password,
    });
    expect(await response.json()).toEqual({
      username: 'support',
      role: 'support',
      roles: { default: 'support' },
      idleSeconds: 480 * 60,
      method: 'password',
    });
  });

  it.each<[string, Record<string, string>, Record<string, string>]>([
    [
      'PUBLIC_URL is https',
      { PUBLIC_URL: 'https://console.example.com' },
      { Origin: 'https://console.example.com' },
    ],
    ['a trusted proxy says https', { TRUST_PROXY: 'true' }, { 'X-Forwarded-Proto': 'https' }],
  ])('uses Secure and the __Host- prefix when %s', async (_, env, headers) => {
    const h = await start({ env });
    const response = await signInRequest(h, HARNESS_USERS.admin, headers);
    expect(response.status).toBe(200);
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^__Host-console_session=/);
    expect(setCookie).toContain('Secure');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toMatch(/Domain=/i);
    // The cookie works on the next request over the same HTTPS.
    const session = await h.app.request('/api/session', {
      headers: { 'X-CSRF': '1', Cookie: cookieOf(response), ...headers },
    });
    expect(session.status).toBe(200);
  });

  it('ignores X-Forwarded-Proto when the proxy is not trusted', async () => {
    const h = await start();
    const response = await signInRequest(h, HARNESS_USERS.admin, {
      'X-Forwarded-Proto': 'https',
    });
    expect(response.headers.get('set-cookie')).toMatch(/^console_session=/);
  });

  it('gives the same answer for a wrong password and an unknown user', async () => {
    const h = await start();
    const wrongPassword = await signInRequest(h, { username: 'admin', password: 'nope' });
    const unknownUser = await signInRequest(h, { username: 'nobody', password: 'nope' });
    expect(wrongPassword.status).toBe(401);
    expect(unknownUser.status).toBe(401);
    const [a, b] = [await problemOf(wrongPassword), await problemOf(unknownUser)];
    expect(a).toEqual(b);
    expect(a).toMatchObject({
      type: '/problems/sign-in-failed',
      title: 'Wrong username or password',
    });
    expect(wrongPassword.headers.get('set-cookie')).toBeNull();
  });

  it('slows down repeated failures with 429 and Retry-After, for unknown users too', async () => {
    const h = await start();
    for (const username of ['admin', 'ghost']) {
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const response = await signInRequest(h, { username, password: `guess-${attempt}` });
        expect(response.status).toBe(401);
      }
      // Even the right password waits now: guessing during the pause is pointless.
      const password = username === 'admin' ? HARNESS_USERS.admin.password : 'x';
      const throttled = await signInRequest(h, { username, password });
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toBe('1');
      expect(await problemOf(throttled)).toMatchObject({
        type: '/problems/sign-in-throttled',
        status: 429,
        retryAfterSeconds: 1,
        detail: 'Too many failed attempts in a row. Try again in 1 second.',
      });
    }
    // Another user is not affected by someone else's failures.
    expect((await signInRequest(h, HARNESS_USERS.support)).status).toBe(200);
  });

  it('tells a locked-out user whom to ask, and an admin can unlock them at once', async () => {
    const h = await start();
    // Only admins may unlock.
    const asSupport = await h.request(
      '/api/sign-in-locks/support',
      { method: 'DELETE' },
      { as: 'support' },
    );
    expect(asSupport.status).toBe(403);
    // The tenth failure in the window locks the name (the slow-down before it is tested above).
    await h.auth.throttle.recordFailure({
      attempt: { username: 'support', address: '203.0.113.9' },
      userCount: 10,
      addressCount: 1,
    });
    const locked = await signInRequest(h, HARNESS_USERS.support);
    expect(locked.status).toBe(429);
    expect((await problemOf(locked)).detail).toMatch(/minutes, or ask whoever runs the console/);

    expect((await h.request('/api/sign-in-locks/nobody', { method: 'DELETE' })).status).toBe(404);
    const unlocked = await h.request('/api/sign-in-locks/support', { method: 'DELETE' });
    expect(unlocked.status).toBe(200);
    expect(await unlocked.json()).toEqual({ username: 'support', unlocked: true, wasLocked: true });
    // Unlocking a name that was not locked says so.
    const notLocked = await h.request('/api/sign-in-locks/auditor', { method: 'DELETE' });
    expect(await notLocked.json()).toMatchObject({ username: 'auditor', wasLocked: false });
    expect((await signInRequest(h, HARNESS_USERS.support)).status).toBe(200);
  });

  it('locks out an address that fails across many usernames', async () => {
    const h = await start({ env: { TRUST_PROXY: 'true' } });
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    for (let n = 0; n < 30; n += 1) {
      const response = await signInRequest(
        h,
        { username: `user${n}`, password: 'guess' },
        from('203.0.113.9'),
      );
      expect(response.status).toBe(401);
    }
    const locked = await signInRequest(h, HARNESS_USERS.admin, from('203.0.113.9'));
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    // The same RateLimit fields as every other 429 of the console, naming the address's count.
    expect(expectRateLimitFields(locked)).toEqual({
      policies: [
        { id: 'sign-in-user', quota: 10, windowSeconds: 900 },
        { id: 'sign-in-address', quota: 30, windowSeconds: 900 },
      ],
      spent: 'sign-in-address',
    });
    // Another address still signs in.
    expect((await signInRequest(h, HARNESS_USERS.admin, from('198.51.100.7'))).status).toBe(200);
  });

  it('checks at most the policy’s number of 200 parallel guesses; the right one at 150 gets no session', async () => {
    const h = await start();
    const checks = countPasswordChecks(h);
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, n) =>
        signInRequest(h, {
          username: 'admin',
          password: n === 149 ? HARNESS_USERS.admin.password : `guess-${n}`,
        }),
      ),
    );
    expect(checks.count).toBeLessThanOrEqual(10);
    expect(responses[149]?.status).toBe(429);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(0);
    expect(responses.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(190);
    // The locked name costs the address only what was checked: a colleague still signs in.
    expect((await signInRequest(h, HARNESS_USERS.support)).status).toBe(200);
  });

  it('checks at most the address policy’s number of parallel guesses across names', async () => {
    const h = await start();
    const checks = countPasswordChecks(h);
    await Promise.all(
      Array.from({ length: 200 }, (_, n) =>
        signInRequest(h, { username: `user${n}`, password: 'guess' }),
      ),
    );
    expect(checks.count).toBeLessThanOrEqual(30);
  });

  it.each([
    ['a text body', 'text/plain', 'username=admin', 415],
    ['a form body', 'application/x-www-form-urlencoded', 'username=admin&password=x', 415],
    ['broken JSON', 'application/json', '{"username":', 400],
    ['a missing password', 'application/json', '{"username":"admin"}', 400],
    [
      'CR/LF in the name',
      'application/json',
      JSON.stringify({ username: 'ad\r\nmin', password: 'x' }),
      400,
    ],
    [
      'a 65-character name',
      'application/json',
      JSON.stringify({ username: 'a'.repeat(65), password: 'x' }),
      400,
    ],
    [
      'a 1,025-character password',
      'application/json',
      JSON.stringify({ username: 'admin', password: 'x'.repeat(1025) }),
      400,
    ],
  ])('refuses %s (%s) before hashing anything', async (_, type, body, status) => {
    const h = await start();
    const response = await h.app.request('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': type },
      body,
    });
    expect(response.status).toBe(status);
    await problemOf(response);
  });
});

describe('GET /api/session', () => {
  it('answers 204 without a body when signed out: an answer, not an error a browser logs', async () => {
    const h = await start();
    const response = await h.request('/api/session', {}, { as: null });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('answers the signed-in user and role', async () => {
    const h = await start();
    const response = await h.request('/api/session', {}, { as: 'support' });
    expect(await response.json()).toEqual({
      username: 'support',
      role: 'support',
      roles: { default: 'support' },
      idleSeconds: 480 * 60,
      method: 'password',
    });
  });

  it('needs the X-CSRF header like every other API call', async () => {
    const h = await start();
    const cookie = await h.signIn('admin');
    const response = await h.app.request('/api/session', { headers: { Cookie: cookie } });
    expect(response.status).toBe(403);
  });

  it('ends a session unused for SESSION_IDLE_MINUTES, and clears its cookie', async () => {
    const clock = { now: Date.parse('2030-01-01T08:00:00Z') };
    const h = await start({ env: { SESSION_IDLE_MINUTES: '30' }, now: () => clock.now });
    const cookie = await h.signIn('admin');
    const get = () => h.app.request('/api/session', { headers: { 'X-CSRF': '1', Cookie: cookie } });
    clock.now += 29 * 60_000;
    expect((await get()).status).toBe(200);
    // Activity restarts the idle timer.
    clock.now += 29 * 60_000;
    expect((await get()).status).toBe(200);
    clock.now += 30 * 60_000;
    const expired = await get();
    expect(expired.status).toBe(204);
    expect(expired.headers.get('set-cookie')).toMatch(/^console_session=;.*Max-Age=0/);
  });

  it('ends any session SESSION_MAX_HOURS after sign-in, however active', async () => {
    const clock = { now: Date.parse('2030-01-01T08:00:00Z') };
    const h = await start({ env: { SESSION_MAX_HOURS: '2' }, now: () => clock.now });
    const cookie = await h.signIn('admin');
    for (let minutes = 0; minutes < 110; minutes += 20) {
      clock.now += 20 * 60_000;
      const response = await h.app.request('/api/session', {
        headers: { 'X-CSRF': '1', Cookie: cookie },
      });
      expect(response.status).toBe(minutes + 20 < 120 ? 200 : 204);
    }
  });

  it('ends the sessions of a user removed from the users file at their next request', async () => {
    const clock = { now: Date.now() };
    const h = await start({ now: () => clock.now });
    const cookie = await h.signIn('support');
    const users = h.auth.users;
    expect(users.find('support')).toBeDefined();
    const file = h.config.auth.usersFile ?? '';
    const { readUsersFile, writeUsersFile } = await import('./users-file');
    writeUsersFile(
      file,
      readUsersFile(file).filter((user) => user.username !== 'support'),
    );
    // The directory looks at the file at most once a second.
    clock.now += 1_000;
    const response = await h.app.request('/api/session', {
      headers: { 'X-CSRF': '1', Cookie: cookie },
    });
    expect(response.status).toBe(204);
  });
});

describe('DELETE /api/session', () => {
  it('signs out: the old cookie no longer works, even if the browser kept it', async () => {
    const h = await start();
    const cookie = await h.signIn('admin');
    const headers = { 'X-CSRF': '1', Cookie: cookie };
    expect((await h.app.request('/api/event-types', { headers })).status).toBe(200);
    const signOut = await h.app.request('/api/session', { method: 'DELETE', headers });
    expect(signOut.status).toBe(204);
    expect(signOut.headers.get('set-cookie')).toMatch(/^console_session=;.*Max-Age=0/);
    expect((await h.app.request('/api/session', { headers })).status).toBe(204);
    expect((await h.app.request('/api/event-types', { headers })).status).toBe(401);
  });

  it('gives a new session id on every sign-in and ends the previous one', async () => {
    const h = await start();
    const first = await h.signIn('admin');
    const second = await signInRequest(h, HARNESS_USERS.admin, { Cookie: first });
    const next = cookieOf(second);
    expect(next).not.toBe(first);
    const get = (cookie: string) =>
      h.app.request('/api/session', { headers: { 'X-CSRF': '1', Cookie: cookie } });
    expect((await get(first)).status).toBe(204);
    expect((await get(next)).status).toBe(200);
  });

  it('needs the X-CSRF header, so another site cannot sign the user out', async () => {
    const h = await start();
    const cookie = await h.signIn('admin');
    const response = await h.app.request('/api/session', {
      method: 'DELETE',
      headers: { Cookie: cookie },
    });
    expect(response.status).toBe(403);
    expect((await h.request('/api/session', { headers: { Cookie: cookie } })).status).toBe(200);
  });
});

describe('roles', () => {
  it.each([
    '/api/data-subjects',
    '/api/data-subjects/operations',
    '/api/data-subjects/lookups',
    '/api/audit-trail',
    '/api/audit-trail/search',
    '/api/audit-trail.csv',
  ])('refuses support on %s with 403, and lets admins through to the route', async (path) => {
    const h = await start();
    for (const method of ['GET', 'POST']) {
      const support = await h.request(path, { method }, { as: 'support' });
      expect(support.status).toBe(403);
      expect(await problemOf(support)).toMatchObject({ type: '/problems/forbidden' });
      // An empty request: the route (or the 404/405 below the prefix) answers, not the guard.
      const admin = await h.request(path, { method }, { as: 'admin' });
      expect([200, 400, 404, 405]).toContain(admin.status);
    }
    expect(h.sent).toHaveLength(0);
  });

  it('lets support read event types', async () => {
    const h = await start();
    expect((await h.request('/api/event-types', {}, { as: 'support' })).status).toBe(200);
  });
});

describe('idle sign-out', () => {
  async function idleHarness() {
    const clock = { now: Date.parse('2030-01-01T09:00:00Z') };
    const h = await start({ env: { SESSION_IDLE_MINUTES: '1' }, now: () => clock.now });
    return { h, clock, cookie: await h.signIn('support') };
  }
  const poll = (h: BffHarness, cookie: string) =>
    h.app.request('/api/health', {
      headers: { Cookie: cookie, 'X-CSRF': '1', 'X-Console-Background': '1' },
    });

  it('is not put off by the page’s own polling: an unattended tab is signed out', async () => {
    const { h, clock, cookie } = await idleHarness();
    clock.now += 50_000;
    expect((await poll(h, cookie)).status).toBe(200);
    clock.now += 20_000;
    const ended = await poll(h, cookie);
    expect(ended.status).toBe(401);
    // The live stream does not keep the session alive either.
    expect(
      (await h.app.request('/api/rate-limits/stream', { headers: { Cookie: cookie } })).status,
    ).toBe(401);
  });

  it('is put off by a person’s action', async () => {
    const { h, clock, cookie } = await idleHarness();
    clock.now += 50_000;
    const action = await h.app.request('/api/rate-limits/rules', {
      headers: { Cookie: cookie, 'X-CSRF': '1' },
    });
    expect(action.status).toBe(200);
    clock.now += 20_000;
    expect((await poll(h, cookie)).status).toBe(200);
  });
});
