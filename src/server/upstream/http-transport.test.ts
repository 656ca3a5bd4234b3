import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, closeTokenEndpoints, rawEndpoint } from '../test-support/token-endpoints';
import { createHttpTransport, TransportError } from './http-transport';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** An upstream that sends `chunks` pieces of its answer, one every `everyMs`. */
async function tricklingUpstream(chunks: number, everyMs: number): Promise<URL> {
  server = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    let sent = 0;
    const timer = setInterval(() => {
      sent += 1;
      if (sent >= chunks) {
        clearInterval(timer);
        res.end('1]');
      } else res.write('1,');
    }, everyMs);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`);
}

/** An upstream answering with `handle`. */
async function upstreamWith(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<string> {
  server = createServer(handle);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as TransportError,
  );

describe('createHttpTransport', () => {
  it('ends a call whose answer trickles in past the timeout, though no gap reaches it', async () => {
    const url = await tricklingUpstream(20, 100);
    const transport = createHttpTransport({ timeoutMs: 400 });
    const started = Date.now();
    const failure = await transport({ method: 'GET', url, headers: {} }).catch((e: unknown) => e);
    const took = Date.now() - started;
    await transport.close();
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('timeout');
    // The timeout, not the 2 s the whole answer would have taken.
    expect(took).toBeGreaterThanOrEqual(400);
    expect(took).toBeLessThan(1_000);
  });

  it('ends a call at its own shorter time, what a caller has left after waiting its turn', async () => {
    const url = await tricklingUpstream(20, 100);
    const transport = createHttpTransport({ timeoutMs: 5_000 });
    const started = Date.now();
    const failure = await failureOf(transport({ method: 'GET', url, headers: {}, timeoutMs: 300 }));
    const took = Date.now() - started;
    // A longer time of its own does not stretch the transport's.
    const capped = await failureOf(
      createHttpTransport({ timeoutMs: 300 })({
        method: 'GET',
        url,
        headers: {},
        timeoutMs: 60_000,
      }),
    );
    await transport.close();
    expect(failure?.kind).toBe('timeout');
    expect(took).toBeGreaterThanOrEqual(300);
    expect(took).toBeLessThan(1_500);
    expect(capped?.kind).toBe('timeout');
  });

  it('reads an answer that completes within the timeout', async () => {
    const url = await tricklingUpstream(3, 20);
    const transport = createHttpTransport({ timeoutMs: 2_000 });
    const answer = await transport({ method: 'GET', url, headers: {} });
    await transport.close();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual([1, 1, 1]);
  });

  it.each([
    ['declared in content-length', true],
    ['streamed without a length', false],
  ])('refuses an answer over its limit (%s), naming the limit', async (_, declared) => {
    const body = 'x'.repeat(300 * 1024);
    const origin = await upstreamWith((_, res) => {
      res.writeHead(200, declared ? { 'content-length': String(body.length) } : {});
      res.end(body);
    });
    const transport = createHttpTransport({ timeoutMs: 2_000, maxAnswerBytes: 1024 * 1024 });
    const small = await failureOf(
      transport({
        method: 'GET',
        url: new URL(`${origin}/big`),
        headers: {},
        maxAnswerBytes: 100 * 1024,
      }),
    );
    const fits = await transport({ method: 'GET', url: new URL(`${origin}/big`), headers: {} });
    await transport.close();
    expect(small).toBeInstanceOf(TransportError);
    expect(small?.kind).toBe('too-large');
    expect(small?.limitBytes).toBe(100 * 1024);
    expect(fits.body).toHaveLength(body.length);
  });

  it('says the upstream closed the connection when it breaks off mid-answer', async () => {
    const origin = await upstreamWith((_, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('{"items":[');
      setImmediate(() => res.socket?.destroy());
    });
    const transport = createHttpTransport({ timeoutMs: 2_000 });
    const failure = await failureOf(
      transport({ method: 'GET', url: new URL(`${origin}/cut`), headers: {} }),
    );
    await transport.close();
    expect(failure?.kind).toBe('closed');
    expect(failure?.message).toContain('closed the connection before the answer was complete');
    expect(failure?.reason).toBe('after 10 of the 1000 bytes its Content-Length declared');
  });

  it('tells a TLS failure and broken HTTP from an unreachable upstream', async () => {
    const plain = await rawEndpoint('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}');
    const folded = await rawEndpoint(
      'HTTP/1.1 200 OK\r\nX-Folded: one\r\n two\r\nContent-Length: 2\r\n\r\n{}',
    );
    const transport = createHttpTransport({ timeoutMs: 2_000 });
    const tls = await failureOf(
      transport({
        method: 'GET',
        url: new URL(plain.href.replace('http:', 'https:')),
        headers: {},
      }),
    );
    const broken = await failureOf(transport({ method: 'GET', url: folded, headers: {} }));
    const refused = await failureOf(
      transport({
        method: 'GET',
        url: new URL(`http://127.0.0.1:${await closedPort()}/`),
        headers: {},
      }),
    );
    await transport.close();
    await closeTokenEndpoints();
    expect([tls?.kind, tls?.reason]).toEqual(['tls', 'ERR_SSL_WRONG_VERSION_NUMBER']);
    expect([broken?.kind, broken?.reason]).toEqual([
      'malformed',
      'Unexpected whitespace after header value',
    ]);
    expect([refused?.kind, refused?.reason]).toEqual(['unreachable', 'ECONNREFUSED']);
  });

  it('counts the wait for a connection in the deadline; a stalled operation starves no other', async () => {
    const origin = await upstreamWith((req, res) => {
      if (req.url === '/healthy') res.end('[]');
      // /stalled never answers.
    });
    const timeoutMs = 1_000;
    const transport = createHttpTransport({ timeoutMs });
    const order: string[] = [];
    const started = Date.now();
    const stalled = Array.from({ length: 400 }, () =>
      failureOf(
        transport({
          method: 'GET',
          url: new URL(`${origin}/stalled`),
          headers: {},
          operationId: 'stalled-operation',
        }),
      ).then((failure) => {
        order.push('stalled');
        return { failure, took: Date.now() - started };
      }),
    );
    const healthy = transport({
      method: 'GET',
      url: new URL(`${origin}/healthy`),
      headers: {},
      operationId: 'healthy-operation',
    }).then((answer) => {
      order.push('healthy');
      return answer;
    });
    expect((await healthy).status).toBe(200);
    const results = await Promise.all(stalled);
    await transport.close();
    // The healthy operation answered while every stalled call was still waiting.
    expect(order[0]).toBe('healthy');
    expect(results.every(({ failure }) => failure?.kind === 'timeout')).toBe(true);
    // Each call ended at its own deadline, those that waited for a connection too: a queue
    // behind 128 stalled connections would end the last of 400 calls four timeouts in.
    const took = results.map((result) => result.took);
    expect(Math.min(...took)).toBeGreaterThanOrEqual(timeoutMs);
    expect(Math.max(...took)).toBeLessThan(timeoutMs * 2.5);
  });
});
