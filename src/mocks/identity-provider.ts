// A local OpenID provider for trying single sign-on and for the tests: oidc-provider (OpenID
// certified) with demo accounts, its own sign-in form, back-channel logout and RP-initiated logout.
// Not for production: accounts and keys live in memory, every password is the same.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** One demo person at the provider. */
export interface DemoAccount {
  /** What is typed into the provider's sign-in form, and the `preferred_username` claim. */
  readonly login: string;
  readonly name: string;
  readonly email: string;
  /** The `groups` claim (also under `realm_access.roles`, as Keycloak sends it). */
  readonly groups: readonly string[];
  /** Signs in with a second factor: the ID token's `amr` says `otp` as well as `pwd`. */
  readonly mfa?: boolean;
}

/** The demo accounts: one per console role, one in no mapped group, one with a second factor. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { login: 'ada', name: 'Ada Admin', email: 'ada@example.com', groups: ['privacy-admins'] },
  { login: 'dora', name: 'Dora Auditor', email: 'dora@example.com', groups: ['dpo'] },
  { login: 'sam', name: 'Sam Support', email: 'sam@example.com', groups: ['support-team'] },
  { login: 'nora', name: 'Nora Nogroup', email: 'nora@example.com', groups: ['marketing'] },
  {
    login: 'max',
    name: 'Max Multifactor',
    email: 'max@example.com',
    groups: ['privacy-admins'],
    mfa: true,
  },
];

/** The OIDC_ROLE_MAP that fits the demo accounts' groups. */
export const DEMO_ROLE_MAP = 'admin=privacy-admins;auditor=dpo;support=support-team,helpdesk';

/** The one password of every demo account. */
export const DEMO_IDP_PASSWORD = 'demo';

/** The console as a client of the provider. */
export interface IdentityProviderClient {
  readonly clientId: string;
  readonly clientSecret: string;
  /** The console's origin (PUBLIC_URL): its callback and back-channel addresses follow from it. */
  readonly publicUrl: string;
  /** `client_secret_basic` (default) or `client_secret_post`. */
  readonly authMethod?: 'client_secret_basic' | 'client_secret_post';
}

export interface IdentityProviderOptions {
  readonly clients: readonly IdentityProviderClient[];
  readonly accounts?: readonly DemoAccount[];
  readonly port?: number;
  /** Host in the issuer URL (default 127.0.0.1; `localhost` makes the provider another site). */
  readonly host?: string;
  /** Lifetime of its ID tokens (default 600 s). */
  readonly idTokenTtlSeconds?: number;
  /** How the provider calls clients (back-channel logout); default fetch, loopback allowed. */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

export interface IdentityProviderServer {
  /** The issuer (OIDC_ISSUER). */
  readonly issuer: string;
  readonly provider: Provider;
  /**
   * Sends the client a back-channel logout for `login`'s provider session `sid` (the provider does
   * so itself when the person signs out there).
   */
  backchannelLogout(clientId: string, login: string, sid: string): Promise<void>;
  /** Makes discovery answer 503 (`true`) or work again: the provider "down". */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The provider's own sign-in page. */
function signInPage(uid: string, failed: boolean): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Demo identity provider: sign in</title></head>
<body>
<main>
<h1>Demo identity provider</h1>
<p>Sign in to continue to the Privacy API Console.</p>
${failed ? '<p role="alert">Unknown account or wrong password.</p>' : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login" autocomplete="off">
<label>Account <input name="login" required></label>
<label>Password <input name="password" type="password" required></label>
<button type="submit">Sign in</button>
</form>
</main>
</body></html>`;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Starts the provider on loopback. */
export async function startIdentityProvider({
  clients,
  accounts = DEMO_ACCOUNTS,
  port = 0,
  host = '127.0.0.1',
  fetch = (url, init) => globalThis.fetch(url, init),
  idTokenTtlSeconds = 600,
}: IdentityProviderOptions): Promise<IdentityProviderServer> {
  // The issuer names the port, so the server listens before the provider exists; a request that
  // arrives in between (a readiness probe polling the port) waits for the provider instead of
  // reaching a server with no handler, which accepts it and never answers.
  let providerReady!: () => void;
  const built = new Promise<void>((resolve) => (providerReady = resolve));
  const server = createServer((request, response) => {
    void built.then(() =>
      handle(request, response).catch(() => {
        if (!response.headersSent) response.writeHead(500).end();
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;
  const byLogin = new Map(accounts.map((account) => [account.login, account]));
  // A signing key of its own for each start (the package's development keys are shared by all).
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'demo' }] },
    ttl: {
      Interaction: 600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
      AccessToken: 600,
      IdToken: idTokenTtlSeconds,
    },
    clients: clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: [`${client.publicUrl}/auth/callback`],
      post_logout_redirect_uris: [`${client.publicUrl}/sign-in`],
      backchannel_logout_uri: `${client.publicUrl}/auth/backchannel-logout`,
      backchannel_logout_session_required: true,
      token_endpoint_auth_method: client.authMethod ?? 'client_secret_basic',
    })),
    // Its outgoing calls (back-channel logout) go to the console on loopback, which the default
    // fetch refuses as a special-use address.
    fetch,
    claims: {
      // How and when the person signed in, in every ID token (as Entra ID, Okta and Keycloak do).
      openid: ['sub', 'amr', 'acr', 'auth_time'],
      profile: ['name', 'preferred_username', 'groups', 'realm_access'],
      email: ['email', 'email_verified'],
    },
    // Profile claims in the ID token itself, as Entra ID, Okta and Keycloak can be set to send.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: { enabled: true },
    },
    cookies: { keys: ['demo-identity-provider-cookie-key'] },
    pkce: { required: () => true },
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}`,
    },
    // A first-party console: no consent screen, every requested scope granted.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { oidc } = ctx;
      const clientId = oidc.client!.clientId;
      const existing = oidc.session!.grantIdFor(clientId);
      if (existing) return oidc.provider.Grant.find(existing);
      const grant = new oidc.provider.Grant({ clientId, accountId: oidc.session!.accountId! });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      oidc.session!.ensureClientContainer(clientId);
      return grant;
    },
    findAccount: (_ctx: KoaContextWithOIDC, id: string) => {
      const account = byLogin.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          name: account.name,
          preferred_username: account.login,
          email: account.email,
          email_verified: true,
          groups: [...account.groups],
          realm_access: { roles: [...account.groups] },
        }),
      };
    },
  });
  let down = false;
  const callback = provider.callback();
  providerReady();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', issuer);
    if (down) {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
      return;
    }
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(url.pathname);
    if (!match) {
      callback(request, response);
      return;
    }
    const details = await provider.interactionDetails(request, response);
    if (request.method === 'GET') {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(signInPage(details.uid, false));
      return;
    }
    const form = await readForm(request);
    const account = byLogin.get(form.get('login') ?? '');
    if (!account || form.get('password') !== DEMO_IDP_PASSWORD) {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(signInPage(details.uid, true));
      return;
    }
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: account.login, amr: account.mfa ? ['pwd', 'otp'] : ['pwd'] } },
      { mergeWithLastSubmission: false },
    );
  }

  return {
    issuer,
    provider,
    async backchannelLogout(clientId, login, sid) {
      const client = await provider.Client.find(clientId);
      if (!client) throw new Error(`no client ${clientId}`);
      await client.backchannelLogout(login, sid);
    },
    setDown(value) {
      down = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
