// A webhook receiver on an ephemeral loopback port for the alert tests: records every request as
// received and answers what the test tells it to (a status, a redirect, a huge body, silence).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface ReceivedAlert {
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** How the receiver answers the next requests. */
export type ReceiverReply = (request: ReceivedAlert, response: ServerResponse) => void;

export const replyWith =
  (status: number): ReceiverReply =>
  (_, response) => {
    response.writeHead(status, { 'Content-Type': 'text/plain' }).end('ok');
  };

/** Starts a receiver; `reply` may be changed between requests. */
export async function startAlertReceiver() {
  const received: ReceivedAlert[] = [];
  let reply: ReceiverReply = replyWith(200);
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const alert = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(alert);
      reply(alert, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/console`,
    port,
    received,
    reply(next: ReceiverReply) {
      reply = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type AlertReceiver = Awaited<ReturnType<typeof startAlertReceiver>>;
