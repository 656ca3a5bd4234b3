// The BFF under attack. It holds a privileged upstream token shared by every console user, so each
// case here must end in a 4xx problem+json (never a 500), and where it says so with nothing sent
// upstream and no token fetched. The upstream is the real mock (it counts what it receives), a
// tiny node:http server for redirect and echo tricks, and a listening BFF for raw socket cases.
import { spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDENTIFIERS } from '../shared/data-subject-demo';
import { DEMO_CLIENT_CREDENTIALS } from './config/config';
import { createConsoleServer } from './http-server';
import { GZIP_MIN_BYTES } from './http/gzip-answer';
import { HARNESS_USERS, startBffHarness, type BffHarness } from './test-support/bff-harness';
import { createHttpTransport } from './upstream/http-transport';
import { buildUpstreamUrl, UnsafeUpstreamUrlError } from './upstream/upstream-client';
import { withPurpose } from './test-support/lookup-purpose';

let harness: BffHarness | undefined;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(options: Parameters<typeof startBffHarness>[0] = {}) {
  harness = await startBffHarness(options);
  return harness;
}

/** Asserts a refusal: the status, problem+json with a stable type, the security headers. */
async function expectRefusal(response: Response, status: number, type?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const problem = (await response.json()) as Record<string, unknown>;
  expect(problem.status).toBe(status);
  expect(typeof problem.title).toBe('string');
  if (type) expect(problem.type).toBe(type);
  expect(JSON.stringify(problem)).not.toMatch(/stack|at .*\.ts|Bearer|access_token/);
  expectSecurityHeaders(response.headers);
  return problem;
}

function expectSecurityHeaders(headers: Headers) {
  const csp = headers.get('content-security-policy') ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('access-control-allow-origin')).toBeNull();
}

/** Nothing reached the upstream: no API call and no token request. */
function expectNothingSent(h: BffHarness) {
  expect(h.sent).toHaveLength(0);
  expect(h.mock.stats().tokenRequests).toBe(0);
}

/** An admin's GET of `path` is refused with `status` and `type`, and nothing reaches the upstream. */
async function expectRefusedUnsent(path: string, status: number, type: string) {
  const h = await start();
  await expectRefusal(await h.request(path), status, type);
  expectNothingSent(h);
}

// ---------------------------------------------------------------------------------------------
// Helpers for cases that need real sockets.

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `request` as raw bytes to a listening server and reads the whole answer. */
function rawRequest(port: number, request: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer')));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

function expectRawRefusal(answer: RawAnswer, status: number, type?: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  // A chunked body starts with its size line; take the JSON object either way.
  const json = answer.body.slice(answer.body.indexOf('{'), answer.body.lastIndexOf('}') + 1);
  const problem = JSON.parse(json) as Record<string, unknown>;
  expect(problem.status).toBe(status);
  if (type) expect(problem.type).toBe(type);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(answer.headers['access-control-allow-origin']).toBeUndefined();
}

/**
 * Sends `requestLine` to the harness's BFF on a real port, with Host, then (unless `signedIn` is
 * false) X-CSRF and an admin's session cookie, then the raw `headers` lines, then Connection: close.
 */
async function requestAtSocket(
  h: BffHarness,
  requestLine: string,
  { signedIn = true, headers = '' }: { signedIn?: boolean; headers?: string } = {},
): Promise<RawAnswer> {
  const port = await listen(h);
  const session = signedIn ? `X-CSRF: 1\r\nCookie: ${await h.signIn('admin')}\r\n` : '';
  return rawRequest(
    port,
    `${requestLine}\r\nHost: 127.0.0.1\r\n${session}${headers}Connection: close\r\n\r\n`,
  );
}

/** Serves the harness's BFF on a real port with the production server settings. */
async function listen(h: BffHarness): Promise<number> {
  const server = createConsoleServer({ fetch: h.app.fetch, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return (server.address() as AddressInfo).port;
}

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/**
 * A tiny upstream on an ephemeral port: it issues a token to anyone and answers the event-types
 * operation with whatever `answer` does, recording every request it receives.
 */
async function tinyUpstream(
  answer: (
    request: Received,
    reply: (status: number, headers: Record<string, string>, body: string) => void,
  ) => void,
) {
  const received: Received[] = [];
  const token = `tiny-${randomBytes(18).toString('hex')}`;
  const server: Server = createServer((req, res) => {
    const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
    received.push(request);
    req.resume();
    const reply = (status: number, headers: Record<string, string>, body: string) => {
      res.writeHead(status, headers);
      res.end(body);
    };
    if (request.url.startsWith('/api/access/v1/oauth/token')) {
      reply(
        200,
        { 'content-type': 'application/json' },
        JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }),
      );
      return;
    }
    answer(request, reply);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url, received, token };
}

// ---------------------------------------------------------------------------------------------

describe('path traversal', () => {
  it.each([
    ['an encoded slash', '/api/event-types/..%2F..%2Fadmin'],
    ['upper-case encoding', '/api/event-types/..%2f..%2Fadmin'],
    ['double encoding', '/api/event-types/%252e%252e%252fadmin'],
    ['full-width dots and slash', '/api/event-types/．．／．．／admin'],
    ['an encoded backslash', '/api/event-types/..%5C..%5Cadmin'],
    ['an encoded NUL', '/api/event-types%00/admin'],
  ])('refuses %s in the request target with 400, sending nothing', (_, target) =>
    expectRefusedUnsent(target, 400, '/problems/invalid-request-target'),
  );

  // Dot segments and backslashes in the raw request target: see 'request targets at the socket'.

  it('refuses raw full-width dots (UTF-8 bytes) in the request line at the socket', async () => {
    const h = await start();
    const answer = await rawRequest(
      await listen(h),
      Buffer.concat([
        Buffer.from('GET /api/event-types/'),
        Buffer.from('．．／admin', 'utf8'),
        Buffer.from(' HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
      ]),
    );
    expectRawRefusal(answer, 400, '/problems/bad-request');
    expectNothingSent(h);
  });

  it('passes traversal-looking filter values upstream only as encoded query values', async () => {
    const h = await start();
    const response = await h.request('/api/event-types?modules=..%2F..%2Fadmin');
    expect(response.status).toBe(200);
    const sent = h.sent.find((request) => request.url.pathname.endsWith('/event-types'));
    expect(sent?.url.pathname).toBe('/api/audit/v4/audits/event-types');
    expect(sent?.url.searchParams.get('modules')).toBe('../../admin');
    expect(sent?.url.search).toBe('?modules=..%2F..%2Fadmin');
  });

  describe('buildUpstreamUrl with a catalog operation that has a path parameter', () => {
    const base = new URL('https://upstream.example.com/tenant');
    const profiles = {
      id: 'ds-profile-purpose',
      method: 'GET' as const,
      path: '/v4/datasubjects/profiles/{purposeGuid}',
    };

    it.each([
      ['../../admin', '..%2F..%2Fadmin'],
      ['..%2F..%2Fadmin', '..%252F..%252Fadmin'],
      ['%252e%252e%252f', '%25252e%25252e%25252f'],
      ['．．／admin', '%EF%BC%8E%EF%BC%8E%EF%BC%8Fadmin'],
      ['..\\..\\admin', '..%5C..%5Cadmin'],
      ['x?admin=1#frag', 'x%3Fadmin%3D1%23frag'],
    ])('keeps %j inside its one path segment', (value, segment) => {
      const url = buildUpstreamUrl(base, profiles, { pathParams: { purposeGuid: value } });
      expect(url.origin).toBe('https://upstream.example.com');
      expect(url.pathname).toBe(`/tenant/v4/datasubjects/profiles/${segment}`);
      expect(url.search).toBe('');
    });

    it.each(['..', '.', ''])('refuses %j, which would become a dot or empty segment', (value) => {
      expect(() =>
        buildUpstreamUrl(base, profiles, { pathParams: { purposeGuid: value } }),
      ).toThrow(UnsafeUpstreamUrlError);
    });
  });
});

describe('CR/LF and NUL', () => {
  it.each([
    ['CR/LF in a filter value', 'modules=Consent%0D%0AX-Injected:%201'],
    ['NUL in a filter value', 'modules=Consent%00'],
    ['CR/LF in a parameter name', 'mod%0D%0Aules=Consent'],
    ['a DEL character', 'objectTypes=Vendor%7F'],
  ])('refuses %s with 400, sending nothing', (_, query) =>
    expectRefusedUnsent(`/api/event-types?${query}`, 400, '/problems/invalid-parameter'),
  );

  it.each([
    ['NUL in a header value', 'X-CSRF: 1\x00\r\n'],
    ['a bare CR in a header value', 'X-Note: a\rInjected: 1\r\n'],
    ['conflicting Content-Length headers', 'Content-Length: 1\r\nContent-Length: 2\r\n'],
  ])('refuses %s at the socket with a problem+json 400', async (_, header) => {
    const h = await start();
    const answer = await requestAtSocket(h, 'GET /api/event-types HTTP/1.1', {
      signedIn: false,
      headers: header,
    });
    expectRawRefusal(answer, 400, '/problems/bad-request');
    expectNothingSent(h);
  });

  it('refuses CR/LF or NUL in a sign-in name with 400', async () => {
    const h = await start();
    for (const username of ['admin\r\nX-Injected: 1', 'admin\u0000']) {
      const response = await h.app.request('/api/session', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username, password: HARNESS_USERS.admin.password }),
      });
      await expectRefusal(response, 400, '/problems/invalid-parameter');
    }
  });

  it('never sends a header value with CR/LF upstream: the transport refuses it unsent', async () => {
    const upstream = await tinyUpstream((_, reply) => reply(200, {}, '[]'));
    const transport = createHttpTransport({ timeoutMs: 2_000 });
    cleanups.push(() => transport.close());
    for (const identifier of ['a\r\nAuthorization: Bearer stolen', 'a\u0000b', 'a\nb']) {
      await expect(
        transport({
          method: 'GET',
          url: new URL(`${upstream.url}/v4/datasubjects/basic-details`),
          headers: { identifier },
        }),
      ).rejects.toThrow();
    }
    expect(upstream.received).toHaveLength(0);
  });
});

describe('data-subject lookups: hostile parameter values', () => {
  const IDENTIFIER = 'ada.lovelace@example.com';
  const lookup = (h: BffHarness, operation: string, params: Record<string, string>) =>
    h.request('/api/data-subjects/lookups', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(withPurpose({ operation, params })),
    });

  it.each([
    ['../../admin'],
    ['..%2F..%2Fadmin'],
    ['%252e%252e%252f'],
    ['．．／．．／admin'],
    ['00000000-0000-4000-8000-000000000000/../../admin'],
  ])('refuses %j as a path parameter with 400, sending nothing', async (value) => {
    const h = await start();
    for (const [operation, params] of [
      ['v4-purpose-profile', { identifier: IDENTIFIER, purposeGuid: value }],
      ['v4-linked-group', { linkedIdentityGroupId: value }],
    ] as const) {
      await expectRefusal(await lookup(h, operation, params), 400, '/problems/invalid-parameter');
    }
    expectNothingSent(h);
  });

  it.each([
    ['CR/LF', `${IDENTIFIER}\r\nAuthorization: Bearer stolen`],
    ['a bare LF', `${IDENTIFIER}\nX-Injected: 1`],
    ['NUL', `${IDENTIFIER}\u0000`],
    ['an 8 KB value', 'a'.repeat(8 * 1024)],
  ])(
    'refuses an identifier (sent as a header) with %s with 400, sending nothing',
    async (_, value) => {
      const h = await start();
      const problem = await expectRefusal(
        await lookup(h, 'v4-basic-details', { identifier: value }),
        400,
        '/problems/invalid-parameter',
      );
      expect(problem.parameter).toBe('identifier');
      // The refusal names the parameter and never repeats its value.
      expect(JSON.stringify(problem)).not.toContain(value.slice(0, 40));
      expectNothingSent(h);
    },
  );
});

describe('oversized input', () => {
  it('refuses an 8 KB query value with 400, sending nothing', async () => {
    const h = await start();
    const response = await h.request(`/api/event-types?modules=${'x'.repeat(8 * 1024)}`);
    await expectRefusal(response, 400, '/problems/invalid-parameter');
    expectNothingSent(h);
  });

  it('refuses an 8 KB X-CSRF value with 403 and an 8 KB cookie with 401', async () => {
    const h = await start();
    const big = 'x'.repeat(8 * 1024);
    await expectRefusal(
      await h.request('/api/event-types', { headers: { 'X-CSRF': big } }),
      403,
      '/problems/csrf-missing',
    );
    await expectRefusal(
      await h.request('/api/event-types', { headers: { Cookie: `console_session=${big}` } }),
      401,
      '/problems/signed-out',
    );
    expectNothingSent(h);
  });

  it('refuses an 8 KB username with 400 before hashing', async () => {
    const h = await start();
    const response = await h.app.request('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'a'.repeat(8 * 1024), password: 'x' }),
    });
    await expectRefusal(response, 400, '/problems/invalid-parameter');
  });

  it('refuses more than 100 query values with 400', async () => {
    const h = await start();
    const query = Array.from({ length: 60 }, (_, i) => `modules=m${i}&objectTypes=o${i}`).join('&');
    await expectRefusal(
      await h.request(`/api/event-types?${query}`),
      400,
      '/problems/invalid-parameter',
    );
    expectNothingSent(h);
  });

  it('refuses a body over 64 KB with 413, announced or streamed', async () => {
    const h = await start();
    const body = JSON.stringify({ username: 'admin', password: 'x'.repeat(70 * 1024) });
    const announced = await h.app.request('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
      body,
    });
    await expectRefusal(announced, 413, '/problems/payload-too-large');
    const streamed = await h.app.request('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 80; i += 1)
            controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    await expectRefusal(streamed, 413, '/problems/payload-too-large');
  });

  // On Node, a body within its announced Content-Length skips Hono's counting stream
  // (request-limits.ts); these show the parser keeps the promise that skip rests on.
  it('at the socket, reads a body of its announced length and refuses one over 64 KB, announced or chunked', async () => {
    const h = await start();
    const port = await listen(h);
    const cookie = await h.signIn('admin');
    const head = (extra: string) =>
      `POST /api/data-subjects/lookups HTTP/1.1\r\nHost: 127.0.0.1\r\nX-CSRF: 1\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\n${extra}Connection: close\r\n\r\n`;
    const unknown = JSON.stringify(withPurpose({ operation: 'no-such-operation', params: {} }));

    const read = await rawRequest(
      port,
      `${head(`Content-Length: ${unknown.length}\r\n`)}${unknown}`,
    );
    expectRawRefusal(read, 400, '/problems/invalid-parameter');
    expect(read.body).toContain('is not an operation of the catalog');

    const big = 'x'.repeat(70 * 1024);
    const announced = await rawRequest(port, `${head(`Content-Length: ${big.length}\r\n`)}${big}`);
    expectRawRefusal(announced, 413, '/problems/payload-too-large');

    const chunk = 'x'.repeat(1024);
    const chunks = `${`400\r\n${chunk}\r\n`.repeat(80)}0\r\n\r\n`;
    const chunked = await rawRequest(port, `${head('Transfer-Encoding: chunked\r\n')}${chunks}`);
    expectRawRefusal(chunked, 413, '/problems/payload-too-large');

    // Both framings at once is request smuggling's opening move: Node's parser refuses it.
    const both = await rawRequest(
      port,
      `${head(`Content-Length: 10\r\nTransfer-Encoding: chunked\r\n`)}${chunks}`,
    );
    expectRawRefusal(both, 400);

    // Bytes past the announced length are not the body: the route reads the 10 announced, and
    // the rest is parsed as a next request, which is not HTTP. Which 400 comes back first (the
    // route's "not JSON" or the socket's "not HTTP") is a race; neither is a body of 70 KB.
    const longer = await rawRequest(port, `${head('Content-Length: 10\r\n')}${big}`);
    expect(longer.status).toBe(400);
    expect(longer.body).not.toContain('payload-too-large');
  });

  it('answers headers over 16 KB with 431 problem+json at the socket (maxHeaderSize)', async () => {
    const h = await start();
    const port = await listen(h);
    const answer = await rawRequest(
      port,
      `GET /api/event-types HTTP/1.1\r\nHost: 127.0.0.1\r\nX-CSRF: 1\r\nX-Padding: ${'p'.repeat(17 * 1024)}\r\nConnection: close\r\n\r\n`,
    );
    expectRawRefusal(answer, 431, '/problems/headers-too-large');
    // Just under the limit is fine (and then needs a session like any request).
    const under = await rawRequest(
      port,
      `GET /api/event-types HTTP/1.1\r\nHost: 127.0.0.1\r\nX-CSRF: 1\r\nX-Padding: ${'p'.repeat(15 * 1024)}\r\nConnection: close\r\n\r\n`,
    );
    expectRawRefusal(under, 401, '/problems/signed-out');
    expectNothingSent(h);
  });
});

describe('a parameter sent twice', () => {
  it('deduplicates a repeated filter value: one upstream call, the value once', async () => {
    const h = await start();
    const response = await h.request('/api/event-types?modules=Consent&modules=Consent');
    expect(response.status).toBe(200);
    const calls = h.sent.filter((request) => request.url.pathname.endsWith('/event-types'));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url.searchParams.getAll('modules')).toEqual(['Consent']);
  });

  it('refuses X-CSRF sent twice (it arrives as "1, 1") with 403', async () => {
    const h = await start();
    const headers = new Headers();
    headers.append('X-CSRF', '1');
    headers.append('X-CSRF', '1');
    headers.set('Cookie', await h.signIn('admin'));
    await expectRefusal(await h.app.request('/api/event-types', { headers }), 403);
    expectNothingSent(h);
  });

  it('refuses two session cookies (one planted) with 401, even if one is valid', async () => {
    const h = await start();
    const valid = await h.signIn('admin');
    const planted = valid.replace(/=.*/, `=${'A'.repeat(43)}.forged`);
    for (const cookie of [`${valid}; ${planted}`, `${planted}; ${valid}`, `${valid}; ${valid}`]) {
      await expectRefusal(
        await h.request('/api/event-types', { headers: { Cookie: cookie } }),
        401,
        '/problems/signed-out',
      );
    }
    expectNothingSent(h);
  });
});

describe('spoofed client headers', () => {
  const spoofed = {
    // Not Bearer: a bearer header is a token for scripts, checked instead of the cookie.
    Authorization: 'Basic YXR0YWNrZXI6c3VwcGxpZWQ=',
    'X-Forwarded-For': '10.0.0.1',
    'X-Forwarded-Host': 'evil.example',
    'X-Forwarded-Proto': 'https',
    Forwarded: 'for=10.0.0.1;host=evil.example',
    'X-Real-IP': '10.0.0.1',
    identifier: 'someone@example.com',
  };

  it('sends the upstream only the headers the BFF builds, with its own token', async () => {
    const h = await start();
    const cookie = await h.signIn('admin');
    const response = await h.request('/api/event-types', {
      headers: { ...spoofed, Cookie: `${cookie}; other=1`, Host: 'evil.example' },
    });
    expect(response.status).toBe(200);
    const call = h.sent.find((request) => request.url.pathname.endsWith('/event-types'));
    expect(Object.keys(call?.headers ?? {}).sort()).toEqual(['accept', 'authorization']);
    const token = call?.headers.authorization?.replace('Bearer ', '') ?? '';
    expect(h.mock.checkToken(token).ok).toBe(true);
    expect(call?.url.origin).toBe(new URL(h.upstream.url).origin);
  });

  it('lets the upstream see no Cookie, client Authorization, Host or X-Forwarded-* on the wire', async () => {
    const upstream = await tinyUpstream((_, reply) =>
      reply(200, { 'content-type': 'application/json' }, '[]'),
    );
    const h = await start({ env: { UPSTREAM_BASE_URL: upstream.url } });
    const port = await listen(h);
    const cookie = await h.signIn('admin');
    const lines = Object.entries(spoofed).map(([name, value]) => `${name}: ${value}`);
    const answer = await rawRequest(
      port,
      `GET /api/event-types HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-CSRF: 1\r\nCookie: ${cookie}\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    const call = upstream.received.find((request) => request.url.includes('event-types'));
    expect(call?.headers.host).toBe(new URL(upstream.url).host);
    expect(call?.headers.authorization).toBe(`Bearer ${upstream.token}`);
    for (const name of [
      'cookie',
      'x-forwarded-for',
      'x-forwarded-host',
      'x-forwarded-proto',
      'forwarded',
      'x-real-ip',
      'identifier',
      'x-csrf',
    ]) {
      expect(call?.headers[name]).toBeUndefined();
    }
  });
});

describe('methods and routes', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])(
    'answers %s /api/event-types with 405 and Allow: GET, HEAD',
    async (method) => {
      const h = await start();
      const response = await h.request('/api/event-types', { method });
      await expectRefusal(response, 405, '/problems/method-not-allowed');
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expectNothingSent(h);
    },
  );

  it('answers PUT /api/session with 405 and the methods it has', async () => {
    const h = await start();
    const response = await h.request('/api/session', { method: 'PUT' });
    await expectRefusal(response, 405);
    expect(response.headers.get('allow')).toBe('DELETE, GET, HEAD, POST');
  });

  it.each(['TRACE', 'CONNECT'])(
    'answers %s at the socket with 4xx problem+json',
    async (method) => {
      const h = await start();
      const target = method === 'CONNECT' ? 'evil.example:443' : '/api/event-types';
      const answer = await requestAtSocket(h, `${method} ${target} HTTP/1.1`);
      expectRawRefusal(answer, 405, '/problems/method-not-allowed');
      expectNothingSent(h);
    },
  );

  it.each(['/api/nothing-here', '/api/event-types/extra', '/api/data-subjects/nothing'])(
    'answers the unknown route %s with 404 for an admin and 401 when signed out',
    async (path) => {
      const h = await start();
      await expectRefusal(await h.request(path), 404, '/problems/not-found');
      await expectRefusal(await h.request(path, {}, { as: null }), 401, '/problems/signed-out');
      expectNothingSent(h);
    },
  );
});

describe('request targets at the socket', () => {
  it.each([
    ['an absolute URL', 'GET http://evil.example/api/event-types HTTP/1.1'],
    ['an absolute URL to the console itself', 'GET http://127.0.0.1/api/event-types HTTP/1.1'],
    ['a protocol-relative //host target', 'GET //evil.example/api/event-types HTTP/1.1'],
    ['an asterisk target', 'OPTIONS * HTTP/1.1'],
    // Path traversal in the raw target, which Request() would already have resolved.
    ['dot segments', 'GET /api/event-types/../../admin HTTP/1.1'],
    ['a dot segment back into the API', 'GET /api/../api/event-types HTTP/1.1'],
    ['a single dot segment', 'GET /api/./event-types HTTP/1.1'],
    // URL parsers read %2e as ".".
    ['encoded dot segments', 'GET /api/event-types/%2e%2e/%2e%2e/admin HTTP/1.1'],
    ['mixed-case encoded dot segments', 'GET /api/event-types/.%2E/%2e./admin HTTP/1.1'],
    ['a backslash', 'GET /api/event-types\\..\\admin HTTP/1.1'],
  ])('refuses %s with 400 problem+json, sending nothing', async (_, requestLine) => {
    const h = await start();
    expectRawRefusal(await requestAtSocket(h, requestLine), 400);
    expectNothingSent(h);
  });

  it('refuses an HTTP/1.1 request without Host with 400 problem+json', async () => {
    const h = await start();
    const withoutHost = 'GET /api/event-types HTTP/1.1\r\nConnection: close\r\n\r\n';
    const answer = await rawRequest(await listen(h), withoutHost);
    expectRawRefusal(answer, 400, '/problems/invalid-request-target');
  });
});

describe('sessions', () => {
  /** A cookie signed with the wrong secret: what someone who guessed an id could forge. */
  function forged(id: string, secret: string) {
    const signature = createHmac('sha256', secret).update(id).digest('base64');
    return `console_session=${encodeURIComponent(`${id}.${signature}`)}`;
  }

  it.each<[string, (valid: string) => string]>([
    ['no cookie', () => ''],
    ['an unsigned id', (valid) => valid.replace(/\..*$/, '')],
    [
      'a tampered signature',
      (valid) => valid.replace(/\.(.)/, (_, c: string) => `.${c === 'A' ? 'B' : 'A'}`),
    ],
    [
      'a tampered id',
      (valid) => valid.replace(/=(.)/, (_, c: string) => `=${c === 'A' ? 'B' : 'A'}`),
    ],
    ['a signature with characters added', (valid) => `${valid}AB`],
    ['a signature cut short', (valid) => valid.slice(0, -3)],
    ['an id signed with another secret', () => forged('A'.repeat(43), 'not-the-secret-'.repeat(3))],
    ['a cookie under the __Host- name over plain HTTP', (valid) => `__Host-${valid}`],
  ])('answers %s with 401, sending nothing', async (_, cookieFrom) => {
    const h = await start();
    const cookie = cookieFrom(await h.signIn('admin'));
    const response = await h.request(
      '/api/event-types',
      {
        headers: cookie ? { Cookie: cookie } : {},
      },
      { as: null },
    );
    await expectRefusal(response, 401, '/problems/signed-out');
    expectNothingSent(h);
  });

  it('refuses a signed-out cookie that the browser kept', async () => {
    const h = await start();
    const cookie = await h.signIn('admin');
    await h.request('/api/session', { method: 'DELETE', headers: { Cookie: cookie } });
    await expectRefusal(
      await h.request('/api/event-types', { headers: { Cookie: cookie } }),
      401,
      '/problems/signed-out',
    );
    expectNothingSent(h);
  });

  it('refuses support on every personal-data route with 403, sending nothing', async () => {
    const h = await start();
    for (const [method, path] of [
      ['GET', '/api/data-subjects/operations'],
      ['POST', '/api/data-subjects/lookups'],
      ['GET', '/api/audit-trail'],
      ['POST', '/api/audit-trail/search'],
    ] as const) {
      const response = await h.request(
        path,
        {
          method,
          headers: { 'Content-Type': 'application/json' },
          body: method === 'POST' ? '{"identifier":"jane@example.com"}' : null,
        },
        { as: 'support' },
      );
      await expectRefusal(response, 403, '/problems/forbidden');
    }
    expectNothingSent(h);
  });
});

describe('CSRF and other origins', () => {
  it.each([
    ['missing', undefined],
    ['"0"', '0'],
    ['"true"', 'true'],
    ['empty', ''],
  ])('refuses X-CSRF %s with 403 before fetching any token', async (_, value) => {
    const h = await start();
    const cookie = await h.signIn('admin');
    const response = await h.app.request('/api/event-types', {
      headers: value === undefined ? { Cookie: cookie } : { Cookie: cookie, 'X-CSRF': value },
    });
    await expectRefusal(response, 403, '/problems/csrf-missing');
    expectNothingSent(h);
  });

  it.each([
    ['another site', { Origin: 'https://evil.example' }],
    ['a look-alike of the console', { Origin: 'http://localhost.evil.example' }],
    ['the console on another port', { Origin: 'http://localhost:8080' }],
    ['an opaque origin', { Origin: 'null' }],
    ['a cross-site fetch without Origin', { 'Sec-Fetch-Site': 'cross-site' }],
    ['a same-site fetch from a sibling', { 'Sec-Fetch-Site': 'same-site' }],
  ])('refuses a request from %s with 403 and no CORS headers', async (_, headers) => {
    const h = await start();
    const response = await h.request('/api/event-types', { headers });
    await expectRefusal(response, 403, '/problems/cross-origin');
    expectNothingSent(h);
  });

  it('refuses a sign-in posted from another site (login CSRF)', async () => {
    const h = await start();
    const response = await h.app.request('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      body: JSON.stringify(HARNESS_USERS.admin),
    });
    await expectRefusal(response, 403, '/problems/cross-origin');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('answers a CORS preflight with 403 and no Access-Control-* headers', async () => {
    const h = await start();
    const response = await h.app.request('/api/event-types', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://evil.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-csrf',
      },
    });
    await expectRefusal(response, 403);
    for (const name of response.headers.keys()) expect(name).not.toMatch(/^access-control-/);
  });

  it('sends no CORS headers even to its own origin', async () => {
    const h = await start();
    const response = await h.request('/api/event-types', {
      headers: { Origin: 'http://localhost' },
    });
    expect(response.status).toBe(200);
    for (const name of response.headers.keys()) expect(name).not.toMatch(/^access-control-/);
  });
});

describe('an upstream that misbehaves', () => {
  it('does not follow a redirect to another host; the other host receives nothing', async () => {
    const elsewhere = await tinyUpstream((_, reply) => reply(200, {}, '[]'));
    const upstream = await tinyUpstream((_, reply) =>
      reply(302, { location: `${elsewhere.url}/steal?token=yes` }, ''),
    );
    const h = await start({ env: { UPSTREAM_BASE_URL: upstream.url } });
    const response = await h.request('/api/event-types');
    // Upstream misbehaviour is the upstream's failure (502), not the browser's request's.
    const problem = await expectRefusal(response, 502, '/problems/upstream-error');
    expect(problem.upstreamStatus).toBe(302);
    expect(response.headers.get('location')).toBeNull();
    expect(elsewhere.received).toHaveLength(0);
    expect(upstream.received.filter((r) => r.url.includes('event-types'))).toHaveLength(1);
  });

  it('never lets an echoed Authorization header, Set-Cookie or WWW-Authenticate reach the browser', async () => {
    let token = '';
    const upstream = await tinyUpstream((request, reply) => {
      token = String(request.headers.authorization);
      reply(
        200,
        {
          'content-type': 'application/json',
          'x-echo-authorization': token,
          'set-cookie': 'upstream_session=abc; Path=/',
          'www-authenticate': 'Bearer realm="upstream"',
        },
        JSON.stringify([{ code: 1, value: token, moduleName: 'Echo' }]),
      );
    });
    const h = await start({ env: { UPSTREAM_BASE_URL: upstream.url } });
    const response = await h.request('/api/event-types');
    const problem = await expectRefusal(response, 502, '/problems/upstream-invalid-response');
    expect(token).toBe(`Bearer ${upstream.token}`);
    expect(JSON.stringify(problem)).not.toContain(upstream.token);
    for (const [name, value] of response.headers) {
      expect(value).not.toContain(upstream.token);
      expect(name).not.toBe('www-authenticate');
    }
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('drops upstream Set-Cookie and WWW-Authenticate from a good answer', async () => {
    const upstream = await tinyUpstream((_, reply) =>
      reply(
        200,
        {
          'content-type': 'application/json',
          'set-cookie': 'upstream_session=abc; Path=/',
          'www-authenticate': 'Bearer realm="upstream"',
        },
        JSON.stringify([{ code: 1, value: 'Consent given' }]),
      ),
    );
    const h = await start({ env: { UPSTREAM_BASE_URL: upstream.url } });
    const response = await h.request('/api/event-types');
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('www-authenticate')).toBeNull();
  });
});

describe('security headers on every kind of answer', () => {
  it('sets them on API, static, not-found and error answers, with a request id', async () => {
    const h = await start({ staticDir: 'dist/client' });
    const answers = [
      await h.request('/api/event-types'),
      await h.request('/api/session'),
      await h.request('/api/nothing', {}, { as: null }),
      await h.app.request('/event-types'),
      await h.app.request('/assets/does-not-exist.js'),
    ];
    for (const response of answers) {
      expectSecurityHeaders(response.headers);
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    // HTML pages are never stored, so a back button after sign-out cannot show a stored page.
    const page = answers[3];
    if (page?.headers.get('content-type')?.startsWith('text/html')) {
      expect(page.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('keeps them on a 500, which says nothing about what failed', async () => {
    const h = await start();
    const cookie = await h.signIn('admin');
    Object.assign(h.auth.sessions, {
      touch: async () => {
        throw new Error('session store exploded at /srv/secret/path');
      },
    });
    const response = await h.request('/api/event-types', { headers: { Cookie: cookie } });
    const problem = await expectRefusal(response, 500, '/problems/internal');
    expect(JSON.stringify(problem)).not.toMatch(/exploded|secret/);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never answers 500 to any of a batch of hostile requests', async () => {
    const h = await start();
    const targets = [
      '/api/event-types?modules=%FF%FE',
      '/api/event-types?%=',
      '/api/event-types?modules',
      '/api/%',
      '/api/event-types/%E0%A4%A',
      '/api/session?username=admin',
      `/api/${'a/'.repeat(500)}`,
    ];
    for (const target of targets) {
      const response = await h.request(target);
      expect(response.status, target).toBeLessThan(500);
    }
  });
});

describe('compression', () => {
  it('never compresses an answer with personal data or the session, whatever the client accepts', async () => {
    const h = await start();
    const gzip = { 'Accept-Encoding': 'gzip, deflate, br, zstd' };
    const lookups = [];
    for (const identifier of DEMO_IDENTIFIERS) {
      lookups.push(
        await h.request('/api/data-subjects/lookups', {
          method: 'POST',
          headers: { ...gzip, 'Content-Type': 'application/json' },
          body: JSON.stringify(
            withPurpose({ operation: 'v4-basic-details', params: { identifier } }),
          ),
        }),
      );
    }
    const trail = await h.request('/api/audit-trail', { headers: gzip });
    const session = await h.request('/api/session', { headers: gzip });
    for (const response of [...lookups, trail, session]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBeNull();
    }
    // Not vacuous: a lookup's answer holds the person's identifier, and the trail of these
    // lookups is larger than the size from which the event-types list is compressed.
    expect(await lookups[0]!.text()).toContain(DEMO_IDENTIFIERS[0]);
    expect((await trail.arrayBuffer()).byteLength).toBeGreaterThan(GZIP_MIN_BYTES);
  });
});

describe('the browser bundle', () => {
  const dir = 'dist/client';
  let files: string[] = [];

  beforeAll(() => {
    if (!existsSync(join(dir, 'index.html'))) {
      const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], {
        stdio: 'inherit',
      });
      expect(build.status).toBe(0);
    }
    const walk = (path: string): string[] =>
      statSync(path).isDirectory()
        ? readdirSync(path).flatMap((entry) => walk(join(path, entry)))
        : [path];
    files = walk(dir);
  }, 120_000);

  afterAll(() => {
    files = [];
  });

  it('contains neither the demo client secret nor anything token-like', () => {
    expect(files.some((file) => file.endsWith('.js'))).toBe(true);
    const forbidden: Array<[string, RegExp]> = [
      ['the demo client secret', new RegExp(DEMO_CLIENT_CREDENTIALS.clientSecret)],
      ['an OAuth token field', /client_secret|access_token|refresh_token/],
      ['a bearer token', /Bearer [A-Za-z0-9._~+/-]{8,}/],
      ['a JWT', /eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./],
      ['a password hash', /scrypt\$\d+\$/],
    ];
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'latin1');
      for (const [what, pattern] of forbidden)
        if (pattern.test(text)) found.push(`${what} in ${file}`);
    }
    expect(found).toEqual([]);
  });
});
