// A browser's trip through single sign-on, for route tests: the BFF answered through app.request,
// the identity provider (src/mocks/identity-provider.ts) over real HTTP with its own cookies,
// its sign-in form filled in as a person would.
import {
  DEMO_IDP_PASSWORD,
  startIdentityProvider,
  type IdentityProviderServer,
} from '../../mocks/identity-provider';

/** The console's address in these tests (PUBLIC_URL): the provider sends browsers back here. */
export const TEST_PUBLIC_URL = 'http://console.test';
export const TEST_CLIENT = {
  clientId: 'privacy-console',
  clientSecret: 'a-client-secret-for-tests',
};

/** Cookies of one site, as a browser keeps them. */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const equals = pair.indexOf('=');
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired || value === '') this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  /** Adds the cookies of a `Cookie` header. */
  seed(header: string): void {
    for (const pair of header.split(';')) {
      const equals = pair.indexOf('=');
      if (equals > 0)
        this.#cookies.set(pair.slice(0, equals).trim(), pair.slice(equals + 1).trim());
    }
  }

  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get(name: string): string | undefined {
    return this.#cookies.get(name);
  }
}

/** The test provider, and the logout tokens it sent with the console's answers. */
export interface TestProvider extends IdentityProviderServer {
  readonly logouts: { token: string; status: number }[];
}

/** Starts the identity provider with the console as its client; back-channel calls go to `app()`. */
export async function startTestProvider(
  app: () => { request(input: string, init?: RequestInit): Response | Promise<Response> },
  options: { idTokenTtlSeconds?: number; otherClient?: boolean } = {},
): Promise<TestProvider> {
  const logouts: { token: string; status: number }[] = [];
  const provider = await startIdentityProvider({
    clients: [
      { ...TEST_CLIENT, publicUrl: TEST_PUBLIC_URL },
      // Another application at the same provider, with the same callback address.
      { clientId: OTHER_CLIENT_ID, clientSecret: 'another-secret', publicUrl: TEST_PUBLIC_URL },
    ],
    ...(options.idTokenTtlSeconds ? { idTokenTtlSeconds: options.idTokenTtlSeconds } : {}),
    // The provider's back-channel logout reaches the BFF in-process.
    fetch: async (url, init) => {
      const response = await app().request(url, init);
      const token = new URLSearchParams(String(init.body)).get('logout_token');
      if (token) logouts.push({ token, status: response.status });
      return response;
    },
  });
  return Object.assign(provider, { logouts });
}

/** A second client registered at the test provider. */
export const OTHER_CLIENT_ID = 'another-application';

/** The environment pointing the console at `provider`. */
export function providerEnv(provider: IdentityProviderServer): Record<string, string> {
  return {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: TEST_CLIENT.clientId,
    OIDC_CLIENT_SECRET: TEST_CLIENT.clientSecret,
    OIDC_ROLE_MAP: 'admin=privacy-admins;auditor=dpo;support=support-team,helpdesk',
    PUBLIC_URL: TEST_PUBLIC_URL,
  };
}

export interface SignInTrip {
  /** The BFF's answer to /auth/callback. */
  readonly callback: Response;
  /** The session cookie (`name=value`) when one was set. */
  readonly sessionCookie: string | undefined;
  /** The browser's cookies at the console, to replay requests with. */
  readonly consoleCookies: string;
  /** The callback address the provider sent the browser to (path and query). */
  readonly callbackPath: string;
  /** The cookies the browser sent with it (the transaction among them). */
  readonly callbackCookies: string;
}

export interface SignInTripOptions {
  /** The query of /auth/sign-in, e.g. `returnTo=/audit`. */
  readonly query?: string;
  /** Changes the authorization request on its way to the provider. */
  readonly tamperAuthorization?: (url: URL) => void;
  /** Changes the callback address on its way back. */
  readonly tamperCallback?: (url: URL) => void;
  /** Cookies the console already set in this browser (a session signed in before). */
  readonly consoleCookies?: string;
  /** The provider's cookies of an earlier trip (the person is still signed in there). */
  readonly providerJar?: CookieJar;
}

/**
 * Signs `login` in: /auth/sign-in, the provider's sign-in form (skipped when the provider
 * remembers the person), back to /auth/callback.
 */
export async function signInTrip(
  app: { request(input: string, init?: RequestInit): Response | Promise<Response> },
  login: string,
  options: SignInTripOptions = {},
): Promise<SignInTrip & { providerJar: CookieJar }> {
  const consoleJar = new CookieJar();
  if (options.consoleCookies) consoleJar.seed(options.consoleCookies);
  const start = await app.request(`/auth/sign-in${options.query ? `?${options.query}` : ''}`, {
    headers: { Cookie: consoleJar.header() },
  });
  if (start.status !== 303) throw new Error(`/auth/sign-in answered ${start.status}`);
  consoleJar.take(start);
  const authorization = new URL(start.headers.get('location')!);
  options.tamperAuthorization?.(authorization);
  const providerJar = options.providerJar ?? new CookieJar();
  let next = authorization.href;
  let callbackUrl: URL | undefined;
  for (let hop = 0; hop < 10 && !callbackUrl; hop++) {
    let response = await fetch(next, {
      redirect: 'manual',
      headers: { Cookie: providerJar.header() },
    });
    providerJar.take(response);
    if (response.status === 200 && next.includes('/interaction/')) {
      // The provider's own sign-in form.
      response = await fetch(`${next}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          Cookie: providerJar.header(),
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ login, password: DEMO_IDP_PASSWORD }),
      });
      providerJar.take(response);
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`the provider answered ${response.status} without a redirect`);
    const target = new URL(location, next);
    if (target.origin === TEST_PUBLIC_URL) callbackUrl = target;
    else next = target.href;
  }
  if (!callbackUrl) throw new Error('the provider never sent the browser back');
  options.tamperCallback?.(callbackUrl);
  const callbackPath = `${callbackUrl.pathname}${callbackUrl.search}`;
  const callbackCookies = consoleJar.header();
  const callback = await app.request(callbackPath, { headers: { Cookie: callbackCookies } });
  consoleJar.take(callback);
  const session = consoleJar.get('console_session');
  return {
    callback,
    sessionCookie: session ? `console_session=${session}` : undefined,
    consoleCookies: consoleJar.header(),
    callbackPath,
    callbackCookies,
    providerJar,
  };
}
