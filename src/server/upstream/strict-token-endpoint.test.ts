// The token request against endpoints that read it strictly, over real HTTP: one that takes only
// the vendor document's multipart/form-data (its form read by Node's WHATWG parser), and a
// certified OAuth server (oidc-provider) that takes only RFC 6749's urlencoded form and refuses
// a wrong secret in its own words.
import { afterEach, describe, expect, it } from 'vitest';
import {
  TOKEN_CLIENT,
  certifiedOAuthServer,
  closeTokenEndpoints,
  strictMultipartEndpoint,
} from '../test-support/token-endpoints';
import { createHttpTransport } from './http-transport';
import { TokenError } from './token-failure';
import { TokenManager, type TokenRequestEvent } from './token-manager';
import type { TokenEncoding } from './token-request';

const transports: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
  await closeTokenEndpoints();
});

function tokensAt(
  url: URL,
  {
    secret = TOKEN_CLIENT.secret as string,
    encoding,
  }: { secret?: string; encoding?: TokenEncoding } = {},
) {
  const transport = createHttpTransport({ timeoutMs: 5_000 });
  transports.push(transport);
  const events: TokenRequestEvent[] = [];
  const tokens = new TokenManager({
    tokenUrl: url,
    clientId: TOKEN_CLIENT.id,
    clientSecret: secret,
    clientAuth: 'body',
    ...(encoding ? { encoding } : {}),
    defaultTtlSeconds: 300,
    transport,
    onTokenRequest: (event) => events.push(event),
  });
  return { tokens, events };
}

describe('an endpoint as strict as the vendor’s token document (multipart only)', () => {
  it('gives the console a token on its first request, by default', async () => {
    const endpoint = await strictMultipartEndpoint();
    const { tokens, events } = tokensAt(endpoint.url);
    expect(await tokens.getToken()).toBe('eyJhbGciOiJSUzI1NiJ9.e30.c2ln');
    expect(endpoint.contentTypes).toHaveLength(1);
    expect(endpoint.contentTypes[0]).toMatch(/^multipart\/form-data; boundary=/);
    expect(events).toEqual([{ outcome: 'success', encoding: 'multipart', status: 200 }]);
  });

  it('with OAUTH_TOKEN_ENCODING=form: refused with 415, then multipart once, and it stays', async () => {
    const endpoint = await strictMultipartEndpoint();
    const { tokens, events } = tokensAt(endpoint.url, { encoding: 'form' });
    expect(await tokens.getToken()).toBe('eyJhbGciOiJSUzI1NiJ9.e30.c2ln');
    expect(endpoint.contentTypes.map((type) => type.split(';')[0])).toEqual([
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    expect(events.at(-1)).toMatchObject({ encoding: 'multipart', switchedFrom: 'form' });
    expect(tokens.encoding).toBe('multipart');
  });

  it('shows its refusal of a wrong secret as refused credentials', async () => {
    const endpoint = await strictMultipartEndpoint();
    const { tokens } = tokensAt(endpoint.url, { secret: 'not-the-secret' });
    const error = (await tokens.getToken().catch((e: unknown) => e)) as TokenError;
    expect(error.reason).toBe('credentials-refused');
    expect(error.message).toContain('401 invalid_client: “Invalid client credentials”');
  });
});

describe('a certified OAuth server (oidc-provider, urlencoded only)', () => {
  it('shows its refusal of a wrong secret as refused credentials, with its error and description', async () => {
    const server = await certifiedOAuthServer();
    const { tokens, events } = tokensAt(server.url, { secret: 'not-the-secret', encoding: 'form' });
    const error = (await tokens.getToken().catch((e: unknown) => e)) as TokenError;
    expect(error).toBeInstanceOf(TokenError);
    expect(error.reason).toBe('credentials-refused');
    expect(error.title).toBe(
      'The platform’s token endpoint refused the console’s client credentials',
    );
    expect(error.detail).toContain(
      'It answered 401 invalid_client: “client authentication failed”.',
    );
    expect(error.detail).toContain('OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET');
    expect(error.message).not.toContain('not-the-secret');
    expect(events).toEqual([
      {
        outcome: 'failure',
        encoding: 'form',
        status: 401,
        reason: 'credentials-refused',
        oauthError: 'invalid_client',
        retryInMs: expect.any(Number),
      },
    ]);
  });

  it('takes the console’s default multipart request after one switch to its urlencoded form', async () => {
    const server = await certifiedOAuthServer();
    const { tokens, events } = tokensAt(server.url);
    expect(await tokens.getToken()).toMatch(/^[\w-]{20,}$/);
    expect(events).toEqual([
      {
        outcome: 'failure',
        encoding: 'multipart',
        status: 400,
        reason: 'request-refused',
        oauthError: 'invalid_request',
      },
      { outcome: 'success', encoding: 'form', status: 200, switchedFrom: 'multipart' },
    ]);
  });
});
