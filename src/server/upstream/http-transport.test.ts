import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
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
    // The timeout, plus at most one sweep; the whole answer would have taken 2 s.
    expect(took).toBeGreaterThanOrEqual(400);
    expect(took).toBeLessThan(1_000);
  });

  it('reads an answer that completes within the timeout', async () => {
    const url = await tricklingUpstream(3, 20);
    const transport = createHttpTransport({ timeoutMs: 2_000 });
    const answer = await transport({ method: 'GET', url, headers: {} });
    await transport.close();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual([1, 1, 1]);
  });
});
