// The token request's encoding: on a 415 the console tries the other form encoding once, keeps
// the one the endpoint took for every later request, and says so in its log; an endpoint that
// takes neither is diagnosed as such, not as refused credentials.
import { describe, expect, it } from 'vitest';
import type { Transport, TransportRequest } from './http-transport';
import { TokenError } from './token-failure';
import { TokenManager, type TokenRequestEvent } from './token-manager';

/** An endpoint that answers 415 to every content type but `accepts` (none: it refuses both). */
function endpointAccepting(accepts: RegExp | undefined) {
  const requests: TransportRequest[] = [];
  const transport: Transport = async (request) => {
    requests.push(request);
    if (accepts?.test(request.headers['content-type'] ?? '')) {
      return {
        status: 200,
        headers: {},
        body: JSON.stringify({ access_token: `t${requests.length}`, expires_in: 1 }),
      };
    }
    return { status: 415, headers: {}, body: '' };
  };
  return { transport, requests };
}

function tokensFor(transport: Transport, encoding: 'multipart' | 'form', clock = { now: 0 }) {
  const events: TokenRequestEvent[] = [];
  const tokens = new TokenManager({
    tokenUrl: new URL('https://platform.test/api/access/v1/oauth/token'),
    clientId: 'console',
    clientSecret: 'secret',
    clientAuth: 'body',
    encoding,
    defaultTtlSeconds: 300,
    transport,
    now: () => clock.now,
    onTokenRequest: (event) => events.push(event),
  });
  return { tokens, events, clock };
}

describe('token request encoding', () => {
  it('switches once from urlencoded to multipart on a 415, and keeps multipart', async () => {
    const endpoint = endpointAccepting(/^multipart\/form-data; boundary=/);
    const { tokens, events, clock } = tokensFor(endpoint.transport, 'form');
    expect(await tokens.getToken()).toBe('t2');
    expect(endpoint.requests.map((request) => request.headers['content-type'])).toEqual([
      'application/x-www-form-urlencoded',
      expect.stringMatching(/^multipart\/form-data/),
    ]);
    expect(events).toEqual([
      { outcome: 'failure', encoding: 'form', status: 415, reason: 'unsupported-encoding' },
      { outcome: 'success', encoding: 'multipart', status: 200, switchedFrom: 'form' },
    ]);
    // The next token (the first lived 30 s at least) goes out in multipart straight away.
    clock.now = 31_000;
    expect(await tokens.getToken()).toBe('t3');
    expect(endpoint.requests).toHaveLength(3);
    expect(tokens.encoding).toBe('multipart');
  });

  it('switches from multipart to urlencoded for an RFC-only endpoint', async () => {
    const endpoint = endpointAccepting(/^application\/x-www-form-urlencoded$/);
    const { tokens, events } = tokensFor(endpoint.transport, 'multipart');
    expect(await tokens.getToken()).toBe('t2');
    expect(events.at(-1)).toMatchObject({ encoding: 'form', switchedFrom: 'multipart' });
  });

  it('names both encodings when the endpoint takes neither, and never blames the credentials', async () => {
    const endpoint = endpointAccepting(undefined);
    const { tokens } = tokensFor(endpoint.transport, 'multipart');
    const error = (await tokens.getToken().catch((e: unknown) => e)) as TokenError;
    expect(error).toBeInstanceOf(TokenError);
    expect(error.reason).toBe('unsupported-encoding');
    expect(error.message).toContain('accepts neither form encoding');
    expect(error.message).toContain(
      '415 Unsupported Media Type to multipart/form-data and to application/x-www-form-urlencoded',
    );
    expect(error.message).not.toMatch(/OAUTH_CLIENT_SECRET/);
    expect(endpoint.requests).toHaveLength(2);
  });
});
