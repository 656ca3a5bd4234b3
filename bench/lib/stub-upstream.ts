// A minimal platform stand-in for scenarios that need answers the mock does not give: a token
// endpoint and an event-types operation answering a fixed body. In the benchmark's own process
// (the body is built once), on loopback only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubUpstream {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `eventTypes` (a JSON text) for every event-types call, and tokens to anyone. */
export async function startStubUpstream(eventTypes: Buffer): Promise<StubUpstream> {
  const server: Server = createServer((req, res) => {
    req.resume();
    if (req.method === 'POST' && req.url?.startsWith('/api/access/v1/oauth/token')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ access_token: 'stub-token', token_type: 'bearer', expires_in: 3600 }),
      );
      return;
    }
    if (req.method === 'GET' && req.url?.startsWith('/api/audit/v4/audits/event-types')) {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': eventTypes.length,
      });
      res.end(eventTypes);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An event-types answer (small objects, as the platform sends) of just under `bytes`. */
export function eventTypesOfSize(bytes: number): Buffer {
  const item = (code: number) =>
    JSON.stringify({
      code,
      value: `consent.receipt.event.${code}`,
      objectTypeName: 'Consent receipt',
      moduleName: `Module ${code % 14}`,
    });
  const parts: string[] = [];
  let length = 2;
  for (let code = 0; ; code += 1) {
    const next = item(code);
    if (length + next.length + 1 > bytes) break;
    parts.push(next);
    length += next.length + 1;
  }
  return Buffer.from(`[${parts.join(',')}]`);
}
