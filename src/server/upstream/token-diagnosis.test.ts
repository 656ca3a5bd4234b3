// Every way a token request can fail, over real sockets, as the administrator is told it: each
// cause has its own reason and its own words, and none reads as "bad credentials" unless the
// endpoint refused the credentials.
import { afterEach, describe, expect, it } from 'vitest';
import {
  TOKEN_CLIENT,
  certifiedOAuthServer,
  closeTokenEndpoints,
  closedPort,
  rawEndpoint,
} from '../test-support/token-endpoints';
import { createHttpTransport } from './http-transport';
import { TokenError, type TokenFailureReason } from './token-failure';
import { TokenManager } from './token-manager';

const transports: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
  await closeTokenEndpoints();
});

async function failureAt(url: URL, { secret = 'the-secret', timeoutMs = 2_000 } = {}) {
  const transport = createHttpTransport({ timeoutMs });
  transports.push(transport);
  const tokens = new TokenManager({
    tokenUrl: url,
    clientId: TOKEN_CLIENT.id,
    clientSecret: secret,
    clientAuth: 'body',
    encoding: 'form',
    defaultTtlSeconds: 300,
    transport,
    timeoutMs,
  });
  const error = await tokens.getToken().catch((e: unknown) => e);
  if (!(error instanceof TokenError)) throw new Error('expected a TokenError');
  return error;
}

const http = (head: string, body = '') =>
  `HTTP/1.1 ${head}\r\nConnection: close\r\n${body === '' ? 'Content-Length: 0\r\n' : ''}`;

/** Each cause: the endpoint to meet, the reason, and words the administrator must read. */
const CASES: Array<[string, () => Promise<URL>, TokenFailureReason, RegExp, object?]> = [
  [
    'nothing listening',
    async () => new URL(`http://127.0.0.1:${await closedPort()}/token`),
    'unreachable',
    /could not be reached.*ECONNREFUSED/s,
  ],
  [
    'plain HTTP where TLS is expected',
    async () => {
      const url = await rawEndpoint(`${http('200 OK')}\r\n`);
      return new URL(url.href.replace('http:', 'https:'));
    },
    'tls',
    /TLS connection .* failed.*ERR_SSL_WRONG_VERSION_NUMBER/s,
  ],
  [
    'no answer',
    () => rawEndpoint(undefined, { hold: true }),
    'timeout',
    /did not answer in time.*UPSTREAM_TIMEOUT_MS \(300 ms\)/s,
    { timeoutMs: 300 },
  ],
  [
    'a 415 to both encodings',
    () => rawEndpoint(`${http('415 Unsupported Media Type')}\r\n`),
    'unsupported-encoding',
    /accepts neither form encoding/,
  ],
  [
    'a 60 MB token answer',
    () =>
      rawEndpoint(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 62914560\r\n\r\n{"access_token":"',
        { hold: true },
      ),
    'too-large',
    /too large to read.*65536 bytes/s,
  ],
  [
    'an obs-fold header',
    () =>
      rawEndpoint(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Folded: one\r\n two\r\nContent-Length: 2\r\n\r\n{}',
      ),
    'malformed-http',
    /broken HTTP.*Unexpected whitespace after header value/s,
  ],
  [
    'a Content-Length larger than the body',
    () =>
      rawEndpoint(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"access_token":"x"}',
      ),
    'closed',
    /after 20 of the 1000 bytes its Content-Length declared.*Content-Length was wrong/s,
  ],
  [
    'a sign-in page',
    () =>
      rawEndpoint(
        'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 15\r\nConnection: close\r\n\r\n<html>in</html>',
      ),
    'not-json',
    /did not answer with JSON.*text\/html \(15 bytes\)/s,
  ],
  [
    'JSON without a token',
    () =>
      rawEndpoint(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\nConnection: close\r\n\r\n{"ok":"fine"}',
      ),
    'unexpected-shape',
    /without a usable access token.*without an access_token/s,
  ],
  [
    'a server error',
    () => rawEndpoint(`${http('503 Service Unavailable')}\r\n`),
    'endpoint-error',
    /answered 503.*usually temporary/s,
  ],
];

describe('token failure diagnosis', () => {
  it.each(CASES)('%s', async (_, endpoint, reason, words, options = {}) => {
    const error = await failureAt(await endpoint(), options);
    expect(error.reason).toBe(reason);
    expect(error.message).toMatch(words);
    expect(error.message).not.toMatch(/OAUTH_CLIENT_SECRET/);
    expect(error.message).not.toContain('the-secret');
  });

  it('a certified OAuth server refusing the secret: refused credentials with its own words', async () => {
    const server = await certifiedOAuthServer();
    const error = await failureAt(server.url, { secret: 'not-the-secret' });
    expect(error.reason).toBe('credentials-refused');
    expect(error.message).toMatch(
      /401 invalid_client: “client authentication failed”.*OAUTH_CLIENT_SECRET/s,
    );
  });

  it('words every cause differently', async () => {
    const titles = new Set<string>();
    for (const [, endpoint, , , options = {}] of CASES) {
      titles.add((await failureAt(await endpoint(), options)).title);
    }
    expect(titles.size).toBe(CASES.length);
  });
});
