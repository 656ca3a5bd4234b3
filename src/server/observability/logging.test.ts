// What the BFF writes to its log during a full run: one structured line per request that an
// operator can find by X-Request-Id, and none of the secrets, tokens, cookies, passwords or
// data-subject identifiers that passed through it.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { HARNESS_USERS, startBffHarness, type BffHarness } from '../test-support/bff-harness';

let harness: BffHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A logger at info level whose JSON lines land in `lines`. */
function capturingLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return { logger: createLogger('info', destination), lines };
}

describe('request logging', () => {
  it('writes one line per request with method, route, status, duration and request id', async () => {
    const { logger, lines } = capturingLogger();
    harness = await startBffHarness({ logger });
    const h = harness;
    const responses = [
      await h.request('/api/event-types'),
      await h.request('/api/event-types?modules=Consent', {}, { as: 'support' }),
      await h.request('/api/nothing-here'),
      await h.app.request('/api/event-types'),
    ];
    const requestLines = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request');
    // Two sign-ins by the harness, then the four requests above.
    expect(requestLines).toHaveLength(6);
    const byId = new Map(requestLines.map((line) => [line.reqId, line]));
    for (const response of responses) {
      const id = response.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(byId.get(id)).toMatchObject({
        method: 'GET',
        status: response.status,
        ms: expect.any(Number),
      });
    }
    const [list, filtered, unknown, noCsrf] = responses.map((r) =>
      byId.get(r.headers.get('x-request-id')),
    );
    expect(list).toMatchObject({ route: '/api/event-types', status: 200, user: 'admin' });
    // The route pattern, never the client's query string.
    expect(JSON.stringify(filtered)).not.toContain('Consent');
    expect(filtered).toMatchObject({ user: 'support' });
    expect(unknown).toMatchObject({ route: '/api/*', status: 404 });
    expect(noCsrf).toMatchObject({ status: 403 });
    expect(noCsrf).not.toHaveProperty('user');
  });

  it('ignores a client-sent X-Request-Id unless the proxy is trusted', async () => {
    harness = await startBffHarness();
    const forged = await harness.request('/api/event-types', {
      headers: { 'X-Request-Id': 'forged-request-id-1' },
    });
    expect(forged.headers.get('x-request-id')).not.toBe('forged-request-id-1');
    await harness.close();
    harness = await startBffHarness({ env: { TRUST_PROXY: 'true' } });
    const proxied = await harness.request('/api/event-types', {
      headers: { 'X-Request-Id': 'proxy-request-id-1' },
    });
    expect(proxied.headers.get('x-request-id')).toBe('proxy-request-id-1');
  });
});

describe('what never reaches the log', () => {
  it('keeps secrets, tokens, cookies, passwords and identifiers out of a full run', async () => {
    const { logger, lines } = capturingLogger();
    harness = await startBffHarness({ logger });
    const h = harness;
    const identifier = 'jane.doe+private@example.com';
    const typedPassword = 'correct-horse-battery-staple';

    // Sign in, fail to sign in (once with a password typed into the name field), sign in again.
    const cookie = await h.signIn('admin');
    const signIn = (username: string, password: string) =>
      h.app.request('/api/session', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
    expect((await signIn('admin', 'wrong-password-guess')).status).toBe(401);
    expect((await signIn(typedPassword, typedPassword)).status).toBe(401);
    const supportCookie = await h.signIn('support');
    // Event types, then upstream failures, then a token rejection.
    const withCookie = { headers: { Cookie: cookie } };
    expect((await h.request('/api/event-types', withCookie)).status).toBe(200);
    h.mock.injectFault({ operation: 'event-types', status: 500 });
    expect((await h.request('/api/event-types?modules=A', withCookie)).status).toBe(502);
    h.mock.injectFault({ operation: 'event-types', status: 401, count: 2 });
    expect((await h.request('/api/event-types?modules=B', withCookie)).status).toBe(502);
    // Refusals, and a personal-data request carrying an identifier.
    expect((await h.app.request('/api/event-types', withCookie)).status).toBe(403);
    for (const as of [cookie, supportCookie]) {
      const response = await h.request('/api/data-subjects/lookups', {
        method: 'POST',
        headers: { Cookie: as, 'Content-Type': 'application/json', identifier },
        body: JSON.stringify({ operation: 'v4-basic-details', params: { identifier } }),
      });
      // Unknown to the mock (404) for the admin, forbidden (403) for support.
      expect(response.status).toBeGreaterThanOrEqual(400);
    }
    // The audit trail searched by the identifier: it travels in the body, hashed with the key.
    const search = await h.request('/api/audit-trail/search', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier }),
    });
    expect(search.status).toBe(200);
    // A token for scripts: made, used, refused when wrong, revoked.
    const made = await h.request('/api/tokens', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'nightly', role: 'auditor', expiresInDays: 1 }),
    });
    const { id: tokenId, token: scriptToken } = (await made.json()) as {
      id: string;
      token: string;
    };
    const bearer = { headers: { Authorization: `Bearer ${scriptToken}` } };
    expect((await h.app.request('/api/audit-trail', bearer)).status).toBe(200);
    expect((await h.app.request('/api/data-subjects/operations', bearer)).status).toBe(403);
    const wrongToken = `${scriptToken.slice(0, -4)}AAAA`;
    const wrong = { headers: { Authorization: `Bearer ${wrongToken}` } };
    expect((await h.app.request('/api/event-types', wrong)).status).toBe(401);
    expect(
      (await h.request(`/api/tokens/${tokenId}`, { method: 'DELETE', headers: { Cookie: cookie } }))
        .status,
    ).toBe(200);
    expect(
      (await h.request('/api/session', { method: 'DELETE', headers: { Cookie: cookie } })).status,
    ).toBe(204);

    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(10);
    const tokens = h.sent
      .map((request) => request.headers.authorization?.replace(/^Bearer /, ''))
      .filter((token): token is string => Boolean(token));
    expect(tokens.length).toBeGreaterThan(0);
    const secrets: Array<[string, string]> = [
      ['client secret', h.mock.clientSecret],
      ['session secret', h.config.auth.sessionSecret],
      ['admin password', HARNESS_USERS.admin.password],
      ['support password', HARNESS_USERS.support.password],
      ['wrong password', 'wrong-password-guess'],
      ['password typed as a name', typedPassword],
      ['identifier', identifier],
      ['audit key', h.config.dataSubjects.auditKey ?? ''],
      ['admin cookie', cookie.split('=')[1] ?? cookie],
      ['admin session id', decodeURIComponent(cookie.split('=')[1] ?? '').split('.')[0] ?? ''],
      ['support cookie', supportCookie.split('=')[1] ?? supportCookie],
      ...tokens.map((token) => ['access token', token] as [string, string]),
      ['token for scripts', scriptToken],
      ['token for scripts without its prefix', scriptToken.slice(4)],
      ['a wrong token for scripts', wrongToken],
    ];
    for (const [what, secret] of secrets) {
      expect(secret.length, what).toBeGreaterThan(8);
      expect(log.includes(secret), `${what} appears in the log`).toBe(false);
    }
    // The failures were logged, just without the secrets.
    expect(log).toContain('sign-in failed');
    expect(log).toContain('"unknownUser":true');
  });

  it('redacts secret-named fields even if code passes them to the logger by mistake', () => {
    const { logger, lines } = capturingLogger();
    logger.info(
      {
        password: 'p1-secret-value',
        identifier: 'id-secret-value',
        sessionId: 'sid-secret-value',
        headers: { authorization: 'Bearer tok-secret-value', cookie: 'c=cookie-secret-value' },
        request: { headers: { 'set-cookie': 'sc-secret-value', authorization: 'a-secret-value' } },
        oauth: { clientSecret: 'cs-secret-value', access_token: 'at-secret-value' },
      },
      'oops',
    );
    expect(lines.join('\n')).not.toMatch(/secret-value/);
    expect(lines.join('\n')).toContain('[redacted]');
  });
});
