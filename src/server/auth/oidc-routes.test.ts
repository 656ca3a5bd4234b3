// Single sign-on through a real OpenID provider (oidc-provider on loopback): the console's /auth
// routes answered through app.request, the provider over HTTP with its own sign-in form.
import { afterEach, describe, expect, it } from 'vitest';
import type { IdentityProviderServer } from '../../mocks/identity-provider';
import type { BffHarness } from '../test-support/bff-harness';
import { harnessPerTest } from '../test-support/harness-per-test';
import { providerEnv, signInTrip, startTestProvider } from '../test-support/oidc-sign-in-flow';

const startHarness = harnessPerTest();
const providers: IdentityProviderServer[] = [];
afterEach(async () => {
  for (const provider of providers.splice(0)) await provider.close();
});

/** A console with single sign-on through a fresh provider. */
async function consoleWithProvider(env: Record<string, string> = {}) {
  // The provider's back-channel calls reach the console, which needs the provider's address.
  const console: { harness?: BffHarness } = {};
  const provider = await startTestProvider(() => console.harness!.app);
  providers.push(provider);
  const harness = await startHarness({ env: { ...providerEnv(provider), ...env } });
  console.harness = harness;
  return { harness, provider };
}

async function sessionOf(harness: BffHarness, cookie: string | undefined) {
  const response = await harness.app.request('/api/session', {
    headers: { 'X-CSRF': '1', ...(cookie ? { Cookie: cookie } : {}) },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
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
    const { harness } = await consoleWithProvider();
    const trip = await signInTrip(harness.app, 'nora');
    expect(trip.callback.status).toBe(403);
    const page = await trip.callback.text();
    expect(page).toContain('You have no access to this console');
    expect(page).toContain('Nora Nogroup');
    expect(trip.sessionCookie).toBeUndefined();
    expect(await harness.auth.sessions.list()).toEqual([]);
  });
});
