import { describe, expect, it } from 'vitest';
import type { Transport, TransportRequest } from './http-transport';
import { TokenError, TokenManager } from './token-manager';

/** The request's form as the WHATWG parser (Node's own Request) reads it, either encoding. */
function parsedForm(request: TransportRequest | undefined): Promise<FormData> {
  return new Request('http://token.test/', {
    method: 'POST',
    headers: { 'content-type': request?.headers['content-type'] ?? '' },
    body: request?.body ?? '',
  }).formData();
}

/** A token endpoint double that counts requests and answers what each test scripts. */
function tokenEndpoint(answer: (n: number) => { status: number; body: unknown } | Error) {
  const requests: TransportRequest[] = [];
  let release: () => void = () => {};
  let gate: Promise<void> | undefined;
  const transport: Transport = async (request) => {
    requests.push(request);
    const n = requests.length;
    if (gate) await gate;
    const result = answer(n);
    if (result instanceof Error) throw result;
    return { status: result.status, headers: {}, body: JSON.stringify(result.body) };
  };
  return {
    transport,
    requests,
    /** Holds every answer until `open()` is called, so concurrency is real. */
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    open() {
      gate = undefined;
      release();
    },
  };
}

function manager(
  transport: Transport,
  clock: { now: number },
  extra: Partial<ConstructorParameters<typeof TokenManager>[0]> = {},
) {
  return new TokenManager({
    tokenUrl: new URL('https://upstream.test/api/access/v1/oauth/token'),
    clientId: 'client id',
    clientSecret: 's3cret:&',
    scope: 'ACTIVITY_LOG',
    clientAuth: 'body',
    defaultTtlSeconds: 300,
    transport,
    now: () => clock.now,
    ...extra,
  });
}

const ok = (token: string, expires_in?: number) => ({
  status: 200,
  body: { access_token: token, token_type: 'Bearer', ...(expires_in ? { expires_in } : {}) },
});

describe('TokenManager', () => {
  it('sends the vendor document’s multipart form by default, as a standard parser reads it', async () => {
    const endpoint = tokenEndpoint(() => ok('t1', 3600));
    const token = await manager(endpoint.transport, { now: 0 }).getToken();
    expect(token).toBe('t1');
    const [request] = endpoint.requests;
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await parsedForm(request);
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.get('scope')).toBe('ACTIVITY_LOG');
    expect(form.get('client_id')).toBe('client id');
    expect(form.get('client_secret')).toBe('s3cret:&');
  });

  it('sends RFC 6749’s urlencoded form when configured to', async () => {
    const endpoint = tokenEndpoint(() => ok('t1', 3600));
    await manager(endpoint.transport, { now: 0 }, { encoding: 'form' }).getToken();
    const [request] = endpoint.requests;
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(request?.body);
    expect(form.get('client_id')).toBe('client id');
    expect(form.get('client_secret')).toBe('s3cret:&');
  });

  it('can authenticate with HTTP Basic, form-encoding id and secret first', async () => {
    const endpoint = tokenEndpoint(() => ok('t1', 3600));
    await manager(endpoint.transport, { now: 0 }, { clientAuth: 'basic' }).getToken();
    const request = endpoint.requests[0];
    const encoded = request?.headers.authorization?.replace('Basic ', '') ?? '';
    expect(Buffer.from(encoded, 'base64').toString()).toBe('client%20id:s3cret%3A%26');
    expect((await parsedForm(request)).has('client_secret')).toBe(false);
  });

  it('gives 1,000 concurrent callers on a cold start one token request', async () => {
    const endpoint = tokenEndpoint(() => ok('shared', 3600));
    const tokens = manager(endpoint.transport, { now: 0 });
    endpoint.hold();
    const callers = Array.from({ length: 1000 }, () => tokens.getToken());
    endpoint.open();
    const results = await Promise.all(callers);
    expect(endpoint.requests).toHaveLength(1);
    expect(new Set(results)).toEqual(new Set(['shared']));
  });

  it('reuses the token until shortly before expires_in, then fetches a new one', async () => {
    const clock = { now: 0 };
    const endpoint = tokenEndpoint((n) => ok(`t${n}`, 3600));
    const tokens = manager(endpoint.transport, clock);
    expect(await tokens.getToken()).toBe('t1');
    clock.now = 3_500_000; // 100 s before expiry: still fine
    expect(await tokens.getToken()).toBe('t1');
    clock.now = 3_541_000; // inside the 60 s renewal margin
    expect(await tokens.getToken()).toBe('t2');
    expect(endpoint.requests).toHaveLength(2);
  });

  it('assumes the bounded default lifetime when expires_in is absent', async () => {
    const clock = { now: 0 };
    const endpoint = tokenEndpoint((n) => ok(`t${n}`));
    const tokens = manager(endpoint.transport, clock, { defaultTtlSeconds: 300 });
    await tokens.getToken();
    clock.now = 200_000;
    expect(await tokens.getToken()).toBe('t1');
    clock.now = 300_000;
    expect(await tokens.getToken()).toBe('t2');
  });

  it('does not cache a failed token request: after a short backoff the next caller tries again', async () => {
    const clock = { now: 0 };
    const endpoint = tokenEndpoint((n) => (n === 1 ? { status: 500, body: {} } : ok('t2', 3600)));
    const tokens = manager(endpoint.transport, clock, { random: () => 0.5 });
    await expect(tokens.getToken()).rejects.toMatchObject({ reason: 'endpoint-error' });
    clock.now = 1_000;
    expect(await tokens.getToken()).toBe('t2');
    expect(endpoint.requests).toHaveLength(2);
    expect(tokens.lastFailure()).toBeUndefined();
  });

  it('reports refused credentials with the endpoint’s error, never the secret', async () => {
    const endpoint = tokenEndpoint(() => ({
      status: 401,
      body: { error: 'invalid_client', error_description: 'bad secret s3cret:& for client id' },
    }));
    const error = await manager(endpoint.transport, { now: 0 })
      .getToken()
      .catch((e) => e);
    expect(error).toBeInstanceOf(TokenError);
    expect(error.reason).toBe('credentials-refused');
    expect(error.message).toContain('refused the console’s client credentials');
    expect(error.message).toContain('401 invalid_client: “bad secret [redacted] for client id”');
    expect(error.message).toContain('OAUTH_CLIENT_SECRET');
    expect(String(error.message)).not.toContain('s3cret');
  });

  it('tells an unreachable endpoint from an answer without a token', async () => {
    const down = tokenEndpoint(() => new Error('ECONNREFUSED'));
    await expect(manager(down.transport, { now: 0 }).getToken()).rejects.toMatchObject({
      reason: 'unreachable',
    });
    const empty = tokenEndpoint(() => ({ status: 200, body: { token_type: 'Bearer' } }));
    await expect(manager(empty.transport, { now: 0 }).getToken()).rejects.toMatchObject({
      reason: 'unexpected-shape',
      message: expect.stringContaining('without an access_token'),
    });
  });

  it('invalidating the rejected token renews once; a stale invalidation keeps the new token', async () => {
    const endpoint = tokenEndpoint((n) => ok(`t${n}`, 3600));
    const tokens = manager(endpoint.transport, { now: 0 });
    const first = await tokens.getToken();
    tokens.invalidate(first);
    const second = await tokens.getToken();
    expect(second).toBe('t2');
    tokens.invalidate(first); // a late 401 for the old token must not throw away t2
    expect(await tokens.getToken()).toBe('t2');
    expect(endpoint.requests).toHaveLength(2);
  });

  it('sends the vendor document’s three form fields and no scope unless one is configured', async () => {
    const endpoint = tokenEndpoint(() => ok('t1', 3600));
    await manager(endpoint.transport, { now: 0 }, { scope: undefined }).getToken();
    const form = await parsedForm(endpoint.requests[0]);
    expect([...form.keys()].sort()).toEqual(['client_id', 'client_secret', 'grant_type']);
    expect(form.get('grant_type')).toBe('client_credentials');
  });

  it('keeps a token of a year, and takes the vendor’s answer with its extra fields', async () => {
    const endpoint = tokenEndpoint(() => ({
      status: 200,
      body: {
        access_token: 'eyJhbGciOiJSUzI1NiJ9.e30.sig',
        token_type: 'bearer',
        expires_in: 31_535_999,
        email: 'x@api.example',
        jti: 'U3TA',
        'ot-scopes': 'CONSENT,CONSENT_READ',
        tenantId: 36,
      },
    }));
    const clock = { now: 0 };
    const tokens = manager(endpoint.transport, clock);
    expect(await tokens.getToken()).toBe('eyJhbGciOiJSUzI1NiJ9.e30.sig');
    clock.now = 300 * 24 * 3_600_000;
    await tokens.getToken();
    expect(endpoint.requests).toHaveLength(1);
  });

  it('uses the default lifetime when expires_in is missing', async () => {
    const endpoint = tokenEndpoint(() => ok('t1'));
    const clock = { now: 0 };
    const tokens = manager(endpoint.transport, clock);
    await tokens.getToken();
    clock.now = 200_000;
    await tokens.getToken();
    expect(endpoint.requests).toHaveLength(1);
    clock.now = 300_000;
    await tokens.getToken();
    expect(endpoint.requests).toHaveLength(2);
  });

  it('keeps a token at least 30 s however short its expires_in: not one token per call', async () => {
    const endpoint = tokenEndpoint(() => ({
      status: 200,
      body: { access_token: 'short', expires_in: 0.001 },
    }));
    const clock = { now: 0 };
    const tokens = manager(endpoint.transport, clock);
    for (let call = 0; call < 50; call += 1) {
      await tokens.getToken();
      clock.now += 100;
    }
    expect(endpoint.requests).toHaveLength(1);
  });

  it.each([
    ['a CR/LF', 'abc\r\nX-Injected: 1'],
    ['a control character', 'abc\u0000def'],
    ['2 MB', 'a'.repeat(2 * 1024 * 1024)],
  ])('refuses a token with %s when it arrives, and asks again next time', async (_, value) => {
    const endpoint = tokenEndpoint((n) => ok(n === 1 ? value : 'good', 3600));
    const clock = { now: 0 };
    const tokens = manager(endpoint.transport, clock);
    const error = (await tokens.getToken().catch((e: unknown) => e)) as TokenError;
    expect(error).toBeInstanceOf(TokenError);
    expect(error.message).toContain('cannot send');
    clock.now = 1_000;
    expect(await tokens.getToken()).toBe('good');
  });
});
