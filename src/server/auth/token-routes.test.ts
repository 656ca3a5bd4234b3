// Tokens for scripts, as a script and the Tokens page use them: made once, used without a cookie
// or X-CSRF, capped by their role, refused with a Bearer challenge once revoked or expired, and
// kept in the database only as a hash.
import { describe, expect, it } from 'vitest';
import { CreatedApiTokenSchema, ApiTokenListSchema } from '../../shared/api-tokens';
import { AuditPageSchema, AuditVerificationSchema } from '../../shared/audit-trail';
import { DEMO_IDENTIFIERS } from '../../shared/data-subject-demo';
import type { Role } from '../../shared/session';
import { openDatabase } from '../store/database';
import type { BffHarness } from '../test-support/bff-harness';
import { harnessPerTest } from '../test-support/harness-per-test';
import { withPurpose } from '../test-support/lookup-purpose';

const start = harnessPerTest();
const DAY = 86_400_000;

async function makeToken(
  h: BffHarness,
  body: { name?: string; role: Role; expiresInDays?: number },
  as: Role = 'admin',
) {
  return h.request(
    '/api/tokens',
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'nightly export', expiresInDays: 30, ...body }),
    },
    { as },
  );
}

async function tokenOf(h: BffHarness, role: Role, as: Role = 'admin', expiresInDays = 30) {
  const response = await makeToken(h, { role, expiresInDays }, as);
  expect(response.status).toBe(201);
  return CreatedApiTokenSchema.parse(await response.json());
}

/** A script's request: the token only; no cookie, no X-CSRF, optionally another Origin. */
function withToken(h: BffHarness, path: string, token: string, init: RequestInit = {}) {
  return h.app.request(path, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
  });
}

describe('POST /api/tokens', () => {
  it('answers the token once, with its prefix, and lists it without it', async () => {
    const h = await start();
    const created = await tokenOf(h, 'auditor');
    expect(created.token).toMatch(/^pac_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: 'nightly export', owner: 'admin', role: 'auditor' });
    expect(Date.parse(created.expiresAt) - Date.parse(created.createdAt)).toBe(30 * DAY);
    const list = await h.request('/api/tokens');
    const text = await list.text();
    expect(text).not.toContain(created.token);
    expect(ApiTokenListSchema.parse(JSON.parse(text)).items.map((item) => item.id)).toEqual([
      created.id,
    ]);
  });

  it('gives no role above the creator’s: an admin any, the others only their own', async () => {
    const h = await start();
    expect((await makeToken(h, { role: 'support' })).status).toBe(201);
    expect((await makeToken(h, { role: 'support' }, 'support')).status).toBe(201);
    expect((await makeToken(h, { role: 'auditor' }, 'auditor')).status).toBe(201);
    for (const [role, as] of [
      ['admin', 'support'],
      ['auditor', 'support'],
      ['admin', 'auditor'],
      ['support', 'auditor'],
    ] as const) {
      const refused = await makeToken(h, { role }, as);
      expect(refused.status, `${as} giving ${role}`).toBe(400);
      expect(await refused.json()).toMatchObject({ parameter: 'role' });
    }
  });

  it('refuses an expiry beyond a year, a blank or odd name, and a token making a token', async () => {
    const h = await start();
    for (const body of [
      { role: 'admin' as const, expiresInDays: 366 },
      { role: 'admin' as const, expiresInDays: 0 },
      { role: 'admin' as const, name: '   ' },
      { role: 'admin' as const, name: '<script>' },
    ]) {
      expect((await makeToken(h, body)).status, JSON.stringify(body)).toBe(400);
    }
    const { token } = await tokenOf(h, 'admin');
    const again = await withToken(h, '/api/tokens', token, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'another', role: 'admin', expiresInDays: 365 }),
    });
    expect(again.status).toBe(403);
  });
});

describe('Authorization: Bearer', () => {
  it('works on /api without a cookie, X-CSRF or the console’s Origin, for the token’s role', async () => {
    const h = await start({ mockRateLimits: true });
    const { token } = await tokenOf(h, 'auditor');
    const trail = await withToken(h, '/api/audit-trail', token, {
      headers: { Origin: 'https://scripts.example' },
    });
    expect(trail.status).toBe(200);
    const verify = await withToken(h, '/api/audit-trail/verify', token, { method: 'POST' });
    expect(verify.status).toBe(200);
    expect((await withToken(h, '/api/event-types', token)).status).toBe(200);
    // The platform sees the console's own access token, never the script's.
    const call = h.sent.find((request) => request.url.pathname.endsWith('/event-types'));
    expect(call?.headers.authorization).not.toContain(token);
    expect(h.mock.checkToken(call?.headers.authorization?.replace('Bearer ', '') ?? '').ok).toBe(
      true,
    );
  });

  it('answers a route above the token’s role with 403 and an insufficient_scope challenge', async () => {
    const h = await start();
    const { token } = await tokenOf(h, 'auditor');
    const lookup = await withToken(h, '/api/data-subjects/lookups', token, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ operation: 'v4-details', params: { identifier: 'a@example.com' } }),
    });
    expect(lookup.status).toBe(403);
    expect(lookup.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope"');
    expect(h.sent).toHaveLength(0);
  });

  it.each([
    ['a malformed token', 'pac_short'],
    ['another scheme’s token', 'ghp_0123456789abcdefghijklmnopqrstuvwxyzABCDEF'],
    ['a well-formed unknown token', `pac_${'A'.repeat(43)}`],
    ['an empty bearer', ''],
  ])('refuses %s with 401 and Bearer error="invalid_token"', async (_, token) => {
    const h = await start();
    const response = await withToken(h, '/api/event-types', token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });

  it('never falls back to the cookie: a bad token beside a good session is 401', async () => {
    const h = await start();
    const cookie = await h.signIn('admin');
    const response = await h.app.request('/api/event-types', {
      headers: { Cookie: cookie, 'X-CSRF': '1', Authorization: `Bearer pac_${'B'.repeat(43)}` },
    });
    expect(response.status).toBe(401);
    // And a good token beside another person's cookie acts for the token.
    const { token } = await tokenOf(h, 'support');
    const session = await h.app.request('/api/audit-trail', {
      headers: { Cookie: cookie, 'X-CSRF': '1', Authorization: `Bearer ${token}` },
    });
    expect(session.status).toBe(403);
  });

  it('stops working once revoked, by its owner or by an admin', async () => {
    const h = await start();
    const own = await tokenOf(h, 'support', 'support');
    const other = await tokenOf(h, 'support', 'support');
    expect((await withToken(h, '/api/event-types', own.token)).status).toBe(200);
    const revoke = (id: string, as: Role) =>
      h.request(`/api/tokens/${id}`, { method: 'DELETE' }, { as });
    expect((await revoke(own.id, 'support')).status).toBe(200);
    // Not theirs: the auditor learns nothing, not even that it exists.
    expect((await revoke(other.id, 'auditor')).status).toBe(404);
    expect((await revoke(other.id, 'admin')).status).toBe(200);
    for (const token of [own.token, other.token]) {
      const refused = await withToken(h, '/api/event-types', token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
    expect((await revoke(own.id, 'support')).status).toBe(404);
  });

  it('stops working when it expires', async () => {
    const clock = { now: Date.parse('2030-01-01T09:00:00Z') };
    const h = await start({ now: () => clock.now });
    const { token } = await tokenOf(h, 'support', 'admin', 1);
    clock.now += DAY - 1;
    expect((await withToken(h, '/api/event-types', token)).status).toBe(200);
    clock.now += 1;
    expect((await withToken(h, '/api/event-types', token)).status).toBe(401);
  });
});

describe('GET /api/tokens', () => {
  it('lists one’s own tokens, an admin everyone’s, with when each was last used', async () => {
    const clock = { now: Date.parse('2030-01-01T09:00:00Z') };
    const h = await start({ now: () => clock.now });
    const mine = await tokenOf(h, 'support', 'support');
    await tokenOf(h, 'admin');
    const list = async (as: Role) =>
      ApiTokenListSchema.parse(await (await h.request('/api/tokens', {}, { as })).json()).items;
    expect((await list('support')).map((item) => item.id)).toEqual([mine.id]);
    expect(await list('admin')).toHaveLength(2);
    expect((await list('support'))[0]?.lastUsedAt).toBeNull();
    clock.now += 5_000;
    await withToken(h, '/api/event-types', mine.token);
    expect((await list('support'))[0]?.lastUsedAt).toBe('2030-01-01T09:00:05.000Z');
    // Within the minute, uses are not each written.
    clock.now += 30_000;
    await withToken(h, '/api/event-types', mine.token);
    expect((await list('support'))[0]?.lastUsedAt).toBe('2030-01-01T09:00:05.000Z');
    clock.now += 30_000;
    await withToken(h, '/api/event-types', mine.token);
    expect((await list('support'))[0]?.lastUsedAt).toBe('2030-01-01T09:01:05.000Z');
  });
});

describe('the audit trail', () => {
  it('names the token and its owner for a lookup made with it, and the chain still verifies', async () => {
    const h = await start();
    const lookup = (init: RequestInit) =>
      h.app.request('/api/data-subjects/lookups', {
        method: 'POST',
        ...init,
        body: JSON.stringify(
          withPurpose({ operation: 'v4-details', params: { identifier: DEMO_IDENTIFIERS[0] } }),
        ),
      });
    // A person first, then a script: records with and without a token in one chain.
    const cookie = await h.signIn('admin');
    await lookup({
      headers: { Cookie: cookie, 'X-CSRF': '1', 'Content-Type': 'application/json' },
    });
    const { token } = await tokenOf(h, 'admin');
    const scripted = await lookup({
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    });
    expect(scripted.status).toBeLessThan(500);
    const trail = AuditPageSchema.parse(
      await (await h.request('/api/audit-trail', {}, { as: 'auditor' })).json(),
    );
    expect(trail.items.map((item) => [item.user, item.token])).toEqual([
      ['admin', 'nightly export'],
      ['admin', undefined],
    ]);
    const verified = AuditVerificationSchema.parse(
      await (await withToken(h, '/api/audit-trail/verify', token, { method: 'POST' })).json(),
    );
    expect(verified).toMatchObject({ ok: true, brokenAt: null });
  });
});

describe('the database', () => {
  it('holds the token’s hash only', async () => {
    const database = await openDatabase();
    try {
      const h = await start({ database });
      const { token } = await tokenOf(h, 'auditor');
      const { rows } = await database.query('SELECT * FROM api_tokens');
      expect(rows).toHaveLength(1);
      const stored = JSON.stringify(rows);
      expect(stored).not.toContain(token);
      expect(stored).not.toContain(token.slice(4));
      expect(stored).toContain('"token_hash"');
    } finally {
      await database.close();
    }
  });
});
