// A tiny alert receiver for trying alerts on a laptop (`npm run alert-receiver`): listens on
// 127.0.0.1, verifies each generic webhook's signature (Console-Signature, or Standard Webhooks'
// webhook-signature, whichever the alert carries) with the destination's secret, and prints every
// alert. Also the reference for writing a receiver elsewhere (docs/alerts.md).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, verifySignature } from './signature';
import { verifyStandardWebhook } from './standard-webhooks';

export interface AlertReceiverOptions {
  readonly port: number;
  /** The destination's signing secret (`whsec_…`); without it signatures cannot be checked. */
  readonly secret: string | undefined;
  /** Where lines go (the console by default). */
  readonly print?: (line: string) => void;
  readonly now?: () => number;
}

/** Most bytes of one alert read; a bigger body is refused. */
const MAX_BODY = 256 * 1024;

/** What the receiver makes of one request: the status it answers and the line it prints. */
function receiveAlert(
  secret: string | undefined,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  now: number,
): { status: number; line: string } {
  const standard = headers['webhook-signature'] !== undefined;
  const signature = standard
    ? headers['webhook-signature']
    : headers[SIGNATURE_HEADER.toLowerCase()];
  let parsed: { type?: string; summary?: string; text?: string; id?: string } = {};
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return { status: 400, line: 'refused: the body is not JSON' };
  }
  const key = headers['idempotency-key'] ?? parsed.id ?? '?';
  if (typeof signature !== 'string') {
    // Slack-compatible destinations are not signed: their URL is the credential.
    const text = parsed.text ?? parsed.summary ?? body;
    return { status: 200, line: `unsigned alert (key ${String(key)}): ${text}` };
  }
  if (!secret) {
    return {
      status: 200,
      line: `NOT VERIFIED (start with ALERT_RECEIVER_SECRET to check): ${parsed.type}: ${parsed.summary}`,
    };
  }
  const failure = standard
    ? verifyStandardWebhook(secret, body, headers, now)
    : verifySignature(secret, body, signature, now);
  if (failure) return { status: 401, line: `refused: signature ${failure} (key ${String(key)})` };
  return {
    status: 200,
    line: `verified ${parsed.type} (key ${String(key)}): ${parsed.summary}`,
  };
}

/** Starts the receiver; resolves once it listens. */
export async function startAlertReceiverServer(
  options: AlertReceiverOptions,
): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const print = options.print ?? ((line: string) => console.log(line));
  const now = options.now ?? Date.now;
  const server = createServer((request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        response.writeHead(413).end();
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const { status, line } = receiveAlert(options.secret, request.headers, body, now());
      print(`${new Date(now()).toISOString()} ${line}`);
      response.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'ok' : '');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}/alerts`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
