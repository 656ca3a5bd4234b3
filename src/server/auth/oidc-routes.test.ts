// Single sign-on through a real OpenID provider (oidc-provider on loopback): the console's /auth
// routes answered through app.request, the provider over HTTP with its own sign-in form.
import { generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_IDENTIFIERS } from '../../shared/data-subject-demo';
import type { BffHarness, HarnessOptions } from '../test-support/bff-harness';
import { harnessPerTest } from '../test-support/harness-per-test';
import {
  OTHER_CLIENT_ID,
  providerEnv,
  signInTrip,
  startTestProvider,
  TEST_CLIENT,
  TEST_PUBLIC_URL,
  type TestProvider,
} from '../test-support/oidc-sign-in-flow';
import { withPurpose } from '../test-support/lookup-purpose';

const startHarness = harnessPerTest();
const providers: TestProvider[] = [];
afterEach(async () => {
  for (const provider of providers.splice(0)) await provider.close();
});

interface Setup {
  env?: Record<string, string>;
  harness?: Omit<HarnessOptions, 'env'>;
  idTokenTtlSeconds?: number;
}

/** A console with single sign-on through a fresh provider. */
async function consoleWithProvider({ env = {}, harness: options = {}, ...provider }: Setup = {}) {
  // The provider's back-channel calls reach the console, which needs the provider's address.
  const late: { harness?: BffHarness } = {};
  const idp = await startTestProvider(() => late.harness!.app, provider);
  providers.push(idp);
  const harness = await startHarness({ ...options, env: { ...providerEnv(idp), ...env } });
  late.harness = harness;
  return { harness, provider: idp };
}

async function sessionOf(harness: BffHarness, cookie: string | undefined) {
  const response = await harness.app.request('/api/session', {
    headers: { 'X-CSRF': '1', ...(cookie ? { Cookie: cookie } : {}) },
  });
  const body = response.status === 204 ? {} : ((await response.json()) as Record<string, unknown>);
  return { status: response.status, body };
}

describe('signing in with the identity provider', () => {
  it.each([
    ['ada', 'admin', 'Ada Admin', 'ada@example.com'],
    ['dora', 'auditor', 'Dora Auditor', 'dora@example.com'],
    ['sam', 'support', 'Sam Support', 'sam@example.com'],
  ])(
    'signs %s in as %s with the name and e-mail of the claims',
    async (login, role, name, email) => {
      const { harness } = await consoleWithProvider();
      const trip = await signInTrip(harness.app, login, { query: 'returnTo=/audit?x=1' });
      expect(trip.callback.status).toBe(303);
      expect(trip.callback.headers.get('location')).toBe('/audit?x=1');
      const session = await sessionOf(harness, trip.sessionCookie);
      expect(session).toMatchObject({
        status: 200,
        body: { username: login, role, name, email, method: 'provider' },
      });
    },
  );

  it('gives a person in no mapped group the no-access page and no session', async () => {
    const { harness } = await consoleWithProvider({
      env: { OIDC_ACCESS_CONTACT: 'the privacy team' },
    });
    const trip = await signInTrip(harness.app, 'nora');
    expect(trip.callback.status).toBe(403);
    const page = await trip.callback.text();
    expect(page).toContain('You have no access to this console');
    expect(page).toContain('Nora Nogroup');
    expect(page).toContain('ask the privacy team');
    expect(trip.sessionCookie).toBeUndefined();
    expect(await harness.auth.sessions.list()).toEqual([]);
  });

  it('gives a group mapped in a named connection a role there only, and no console-wide pages', async () => {
    const { harness } = await consoleWithProvider({
      env: {
        OIDC_ROLE_MAP: 'admin=privacy-admins;auditor=dpo;support@default=support-team,helpdesk',
      },
    });
    const trip = await signInTrip(harness.app, 'sam');
    const session = await sessionOf(harness, trip.sessionCookie);
    expect(session).toMatchObject({
      status: 200,
      body: { username: 'sam', roles: { default: 'support' }, method: 'provider' },
    });
    expect(session.body).not.toHaveProperty('role');
    const headers = { 'X-CSRF': '1', Cookie: trip.sessionCookie! };
    expect((await harness.app.request('/api/sessions', { headers })).status).toBe(403);
    const connections = await harness.app.request('/api/connections', { headers });
    expect(await connections.json()).toMatchObject({
      connections: [{ name: 'default', role: 'support' }],
    });
  });

  it('reads roles from a nested claim (OIDC_ROLES_CLAIM=realm_access.roles)', async () => {
    const { harness } = await consoleWithProvider({
      env: { OIDC_ROLES_CLAIM: 'realm_access.roles' },
    });
    const trip = await signInTrip(harness.app, 'dora');
    expect((await sessionOf(harness, trip.sessionCookie)).body).toMatchObject({ role: 'auditor' });
  });

  it.each(['//evil.example', 'https://evil.example/', '/\\evil.example'])(
    'ignores returnTo=%s and lands on the home page',
    async (returnTo) => {
      const { harness } = await consoleWithProvider();
      const trip = await signInTrip(harness.app, 'ada', {
        query: `returnTo=${encodeURIComponent(returnTo)}`,
      });
      expect(trip.callback.headers.get('location')).toBe('/');
    },
  );

  it('refuses a sign-in without a second factor when OIDC_REQUIRE_MFA=true, and takes one with it', async () => {
    const { harness } = await consoleWithProvider({ env: { OIDC_REQUIRE_MFA: 'true' } });
    const without = await signInTrip(harness.app, 'ada');
    expect(without.callback.status).toBe(403);
    expect(await without.callback.text()).toContain('Sign in with a second factor');
    expect(without.sessionCookie).toBeUndefined();
    const withIt = await signInTrip(harness.app, 'max');
    expect(withIt.callback.status, await withIt.callback.clone().text()).toBe(303);
    expect((await sessionOf(harness, withIt.sessionCookie)).body).toMatchObject({
      username: 'max',
      role: 'admin',
    });
  });

  it('turns password sign-in off with LOCAL_SIGN_IN=off', async () => {
    const { harness } = await consoleWithProvider({ env: { LOCAL_SIGN_IN: 'off' } });
    await expect(harness.signIn('admin')).rejects.toThrow('failed with 403');
    const options = await harness.app.request('/auth/options');
    expect(await options.json()).toEqual({
      provider: { name: new URL(providerEnv(providers[0]!).OIDC_ISSUER!).host },
      localSignIn: false,
    });
  });
});

describe('provider sign-ins in the audit trail', () => {
  const signIns = async (harness: BffHarness) =>
    (await harness.audit.search.listChanges({ kind: 'sign-in', limit: 10 })).items;

  it('records a sign-in with the person and method, once', async () => {
    const { harness } = await consoleWithProvider();
    await signInTrip(harness.app, 'dora');
    const entries = await signIns(harness);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'sign-in.succeeded',
      username: 'dora',
      target: 'dora',
      before: null,
    });
    expect(JSON.parse(entries[0]!.after!)).toEqual({ method: 'provider', role: 'auditor' });
  });

  it('records a refused sign-in with its reason, never the code or the provider’s words', async () => {
    const { harness } = await consoleWithProvider();
    await signInTrip(harness.app, 'nora');
    const forged = await signInTrip(harness.app, 'ada', {
      tamperCallback: (url) => url.searchParams.set('state', 'forged'),
    });
    const code = new URL(forged.callbackPath, TEST_PUBLIC_URL).searchParams.get('code')!;
    // A callback without a transaction reached no provider: logged, not recorded.
    expect((await harness.app.request(forged.callbackPath)).status).toBe(400);
    const entries = await signIns(harness);
    expect(entries.map((entry) => [entry.action, entry.username, entry.target])).toEqual([
      ['sign-in.refused', 'anonymous', null],
      ['sign-in.refused', 'anonymous', null],
    ]);
    expect(entries.map((entry) => JSON.parse(entry.after!) as unknown)).toEqual([
      { method: 'provider', reason: 'invalid-response' },
      { method: 'provider', reason: 'no-access' },
    ]);
    const text = JSON.stringify(entries);
    expect(code.length).toBeGreaterThan(10);
    expect(text).not.toContain(code);
    expect(text).not.toContain('Nora');
  });
});

describe('bad answers on the way back from the provider', () => {
  it.each<[string, (url: URL) => void, RegExp]>([
    ['a wrong state', (url) => url.searchParams.set('state', 'forged'), /state/],
    [
      'an issuer that is not the provider',
      (url) => url.searchParams.set('iss', 'https://evil.example'),
      /iss/,
    ],
  ])('refuses %s with a page naming the reason, and no session', async (_case, tamper, reason) => {
    const { harness } = await consoleWithProvider();
    const trip = await signInTrip(harness.app, 'ada', { tamperCallback: tamper });
    expect(trip.callback.status).toBe(400);
    const page = await trip.callback.text();
    expect(page).toContain('answer was refused');
    expect(page).toMatch(reason);
    expect(trip.sessionCookie).toBeUndefined();
  });

  it.each<[string, (url: URL) => void, number, RegExp]>([
    [
      'a wrong nonce',
      (url) => url.searchParams.set('nonce', 'not-the-console-nonce'),
      400,
      /nonce/,
    ],
    [
      'a wrong PKCE verifier',
      (url) =>
        url.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
      400,
      /invalid_grant/,
    ],
    [
      'no PKCE challenge',
      (url) => url.searchParams.delete('code_challenge'),
      400,
      /invalid_request/,
    ],
    [
      "another application's code (the wrong audience)",
      (url) => url.searchParams.set('client_id', OTHER_CLIENT_ID),
      400,
      /invalid_grant/,
    ],
  ])(
    'refuses %s, with a page naming the reason, and no session',
    async (_case, tamper, status, reason) => {
      const { harness } = await consoleWithProvider();
      const trip = await signInTrip(harness.app, 'ada', { tamperAuthorization: tamper });
      expect(trip.callback.status).toBe(status);
      expect(await trip.callback.text()).toMatch(reason);
      expect(trip.sessionCookie).toBeUndefined();
      expect(await harness.auth.sessions.list()).toEqual([]);
    },
  );

  it('refuses a replayed code', async () => {
    const { harness } = await consoleWithProvider();
    const trip = await signInTrip(harness.app, 'ada');
    expect(trip.callback.status).toBe(303);
    const replay = await harness.app.request(trip.callbackPath, {
      headers: { Cookie: trip.callbackCookies.replace(/console_session=[^;]*;?\s*/, '') },
    });
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('invalid_grant');
    expect(replay.headers.get('set-cookie') ?? '').not.toMatch(/console_session=[^;]/);
  });

  it('refuses a return without the transaction cookie (another browser, or too late)', async () => {
    const { harness } = await consoleWithProvider();
    const trip = await signInTrip(harness.app, 'ada');
    const elsewhere = await harness.app.request(trip.callbackPath);
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('can no longer be completed');
  });

  it('refuses an expired ID token', async () => {
    let offset = 0;
    const { harness } = await consoleWithProvider({
      idTokenTtlSeconds: 60,
      harness: { now: () => Date.now() + offset },
    });
    // The console reads the answer five minutes on: within the transaction's ten, past the
    // token's one minute (and openid-client's 30 s tolerance).
    const trip = await signInTrip(harness.app, 'ada', { tamperCallback: () => (offset = 300_000) });
    expect(trip.callback.status).toBe(400);
    expect(await trip.callback.text()).toMatch(/exp/);
    expect(trip.sessionCookie).toBeUndefined();
  });

  it('refuses an unsigned ID token', async () => {
    // Someone between the console and the provider swaps the ID token for an unsigned one.
    const providerFetch = async (url: string, init: RequestInit) => {
      const response = await fetch(url, init as RequestInit);
      if (!url.endsWith('/token')) return response;
      const body = (await response.json()) as { id_token: string };
      const claims = JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString());
      body.id_token = new UnsecuredJWT(claims).encode();
      return Response.json(body, { status: response.status });
    };
    const { harness } = await consoleWithProvider({
      harness: { providerFetch: providerFetch as never },
    });
    const trip = await signInTrip(harness.app, 'ada');
    expect(trip.callback.status).toBe(400);
    expect(await trip.callback.text()).toMatch(/alg/);
    expect(trip.sessionCookie).toBeUndefined();
  });

  it('says the provider cannot be reached when it is down, keeps password sign-in, and /readyz names it', async () => {
    const { harness, provider } = await consoleWithProvider();
    provider.setDown(true);
    const start = await harness.app.request('/auth/sign-in');
    expect(start.status).toBe(502);
    expect(await start.text()).toContain('The identity provider cannot be reached');
    await expect(harness.signIn('admin')).resolves.toMatch(/^console_session=/);
    const ready = await harness.app.request('/readyz');
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; checks: Record<string, unknown> };
    expect(body.status).toBe('degraded');
    expect(body.checks.identityProvider).toMatchObject({ ok: false });
    expect(JSON.stringify(body.checks.identityProvider)).toContain(provider.issuer);
  });
});

describe('signing out', () => {
  it('ends the console session, then sends the browser to the provider to end its session too', async () => {
    const { harness, provider } = await consoleWithProvider();
    const trip = await signInTrip(harness.app, 'ada');
    const signOut = await harness.app.request('/api/session', {
      method: 'DELETE',
      headers: { 'X-CSRF': '1', Cookie: trip.sessionCookie! },
    });
    expect(signOut.status).toBe(204);
    expect((await sessionOf(harness, trip.sessionCookie)).status).toBe(204);
    const atProvider = await harness.app.request('/auth/sign-out');
    expect(atProvider.status).toBe(303);
    const location = new URL(atProvider.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(`${provider.issuer}/session/end`);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      client_id: TEST_CLIENT.clientId,
      post_logout_redirect_uri: `${TEST_PUBLIC_URL}/sign-in`,
    });
    // The provider takes it: its own "sign out?" question.
    const question = await fetch(location, { redirect: 'manual' });
    expect(question.status).toBe(200);
  });
});

describe('back-channel logout', () => {
  /** Signs ada in and answers the session cookie and the provider session's sid. */
  async function signedIn(harness: BffHarness) {
    const trip = await signInTrip(harness.app, 'ada');
    const [record] = await harness.auth.sessions.list();
    return { cookie: trip.sessionCookie!, sid: record!.provider!.sid! };
  }

  function postLogout(harness: BffHarness, token: string) {
    return harness.app.request('/auth/backchannel-logout', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: token }),
    });
  }

  it('ends the session the provider names', async () => {
    const { harness, provider } = await consoleWithProvider();
    const { cookie, sid } = await signedIn(harness);
    await provider.backchannelLogout(TEST_CLIENT.clientId, 'ada', sid);
    expect(provider.logouts.map((logout) => logout.status)).toEqual([200]);
    expect((await sessionOf(harness, cookie)).status).toBe(204);
  });

  it('refuses a replayed logout token with 400', async () => {
    const { harness, provider } = await consoleWithProvider();
    const { sid } = await signedIn(harness);
    await provider.backchannelLogout(TEST_CLIENT.clientId, 'ada', sid);
    const again = await signedIn(harness);
    const replay = await postLogout(harness, provider.logouts[0]!.token);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error_description: expect.stringMatching(/jti/) });
    expect((await sessionOf(harness, again.cookie)).status).toBe(200);
  });

  it('refuses an expired logout token with 400', async () => {
    let offset = 0;
    const { harness, provider } = await consoleWithProvider({
      harness: { now: () => Date.now() + offset },
    });
    const { cookie, sid } = await signedIn(harness);
    // The token is delivered late: ten minutes after it was issued.
    offset = 600_000;
    await provider.backchannelLogout(TEST_CLIENT.clientId, 'ada', sid).catch(() => undefined);
    expect(provider.logouts.map((logout) => logout.status)).toEqual([400]);
    offset = 0;
    expect((await sessionOf(harness, cookie)).status).toBe(200);
  });

  it.each<[string, (claims: Record<string, unknown>, issuer: string) => Promise<string>]>([
    [
      'signed with another key',
      async (claims) => {
        const { privateKey } = await generateKeyPair('RS256');
        return new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: 'demo' })
          .sign(privateKey);
      },
    ],
    ['unsigned', async (claims) => new UnsecuredJWT(claims).encode()],
    [
      'from another issuer',
      async (claims) => {
        const { privateKey } = await generateKeyPair('RS256');
        return new SignJWT({ ...claims, iss: 'https://evil.example' })
          .setProtectedHeader({ alg: 'RS256' })
          .sign(privateKey);
      },
    ],
  ])('refuses a logout token %s with 400, and every session stays', async (_case, forge) => {
    const { harness, provider } = await consoleWithProvider();
    const { cookie, sid } = await signedIn(harness);
    const now = Math.floor(Date.now() / 1000);
    const token = await forge(
      {
        iss: provider.issuer,
        aud: TEST_CLIENT.clientId,
        iat: now,
        exp: now + 120,
        jti: `forged-${now}`,
        sub: 'ada',
        sid,
        events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
      },
      provider.issuer,
    );
    const response = await postLogout(harness, token);
    expect(response.status).toBe(400);
    expect((await sessionOf(harness, cookie)).status).toBe(200);
  });
});

describe('step-up before a lookup (PERSONAL_DATA_MAX_AUTH_AGE_MINUTES)', () => {
  it('asks for a recent sign-in at the provider, keeps the session, and comes back to the lookup page', async () => {
    let offset = 0;
    const { harness } = await consoleWithProvider({
      env: { PERSONAL_DATA_MAX_AUTH_AGE_MINUTES: '5' },
      harness: { now: () => Date.now() + offset },
    });
    const first = await signInTrip(harness.app, 'ada');
    const lookUp = (cookie: string) =>
      harness.app.request('/api/data-subjects/lookups', {
        method: 'POST',
        headers: { 'X-CSRF': '1', 'Content-Type': 'application/json', Cookie: cookie },
        body: JSON.stringify(
          withPurpose({ operation: 'v4-details', params: { identifier: DEMO_IDENTIFIERS[0] } }),
        ),
      });
    expect((await lookUp(first.sessionCookie!)).status).toBe(200);
    // Ten minutes later the same lookup needs the provider again; the session goes on.
    offset = 600_000;
    const refused = await lookUp(first.sessionCookie!);
    expect(refused.status).toBe(401);
    const problem = (await refused.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({
      type: '/problems/reauthentication-required',
      signInUrl: '/auth/sign-in?reauthenticate=1',
    });
    expect((await sessionOf(harness, first.sessionCookie)).status).toBe(200);
    // The page follows signInUrl with itself (its operation only) as returnTo. The provider is
    // told max_age; its clock cannot be moved, so the console's goes back for the return.
    offset = 0;
    let maxAge: string | null = null;
    const again = await signInTrip(harness.app, 'ada', {
      query: `reauthenticate=1&returnTo=${encodeURIComponent('/data-subjects?operation=v4-details')}`,
      consoleCookies: first.sessionCookie!,
      tamperAuthorization: (url) => (maxAge = url.searchParams.get('max_age')),
    });
    expect(maxAge).toBe('300');
    expect(again.callback.headers.get('location')).toBe('/data-subjects?operation=v4-details');
    expect((await lookUp(again.sessionCookie!)).status).toBe(200);
    // The session it replaced ended (a fresh id at every sign-in).
    expect((await sessionOf(harness, first.sessionCookie)).status).toBe(204);
  });

  it('leaves password sessions (break-glass accounts) alone', async () => {
    let offset = 0;
    const { harness } = await consoleWithProvider({
      env: { PERSONAL_DATA_MAX_AUTH_AGE_MINUTES: '5' },
      harness: { now: () => Date.now() + offset },
    });
    const cookie = await harness.signIn('admin');
    offset = 600_000;
    const response = await harness.app.request('/api/data-subjects/lookups', {
      method: 'POST',
      headers: { 'X-CSRF': '1', 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify(
        withPurpose({ operation: 'v4-details', params: { identifier: DEMO_IDENTIFIERS[0] } }),
      ),
    });
    expect(response.status).toBe(200);
  });
});
