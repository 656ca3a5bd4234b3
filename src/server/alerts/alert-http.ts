// The one way an alert leaves the console: a POST with node's http/https client, checked against
// the destination policy at connect time (the resolved address, not only the name), no redirects
// followed, a deadline for the whole exchange and a bound on how much of the answer is read.
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  checkDestinationUrl,
  DestinationRefusedError,
  isDemoLoopback,
  isRestrictedAddress,
  type DestinationPolicy,
} from './destination-guard';

export interface AlertHttpOptions extends DestinationPolicy {
  /** Deadline for connecting, sending and reading the answer (ALERT_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** Most bytes of an answer read; a longer one fails the attempt. */
  readonly maxResponseBytes: number;
  /** Name resolution (tests give their own to play DNS rebinding). */
  readonly lookup?: typeof dnsLookup;
}

/** What came of one attempt. */
export interface AlertHttpResult {
  /** True for a 2xx answer read within the bounds. */
  readonly ok: boolean;
  /** The answer's status, null when none came (refused, timed out, connection failed). */
  readonly status: number | null;
  /** Why the attempt failed, in plain words safe to show and log; null when ok. */
  readonly error: string | null;
  readonly latencyMs: number;
}

/**
 * A lookup that resolves every address of `hostname` and refuses the connection when any of them
 * is restricted: checking all of them means a name cannot slip one internal address in among
 * public ones for the connection to pick.
 */
function guardedLookup(resolve: typeof dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    const all: LookupAllOptions = { ...(options as LookupOneOptions), all: true };
    resolve(hostname, all, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => isRestrictedAddress(entry.address));
      if (refused || addresses.length === 0) {
        return callback(
          new DestinationRefusedError(
            'resolves to a private, loopback or link-local address (set ALERT_ALLOW_PRIVATE=true to allow)',
          ) as NodeJS.ErrnoException,
          '',
          0,
        );
      }
      if ((options as LookupAllOptions).all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/** POSTs `body` to `target`; never throws, the result says what happened. */
export function postAlert(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: AlertHttpOptions,
  now: () => number = Date.now,
): Promise<AlertHttpResult> {
  const started = now();
  const done = (status: number | null, error: string | null): AlertHttpResult => ({
    ok: error === null && status !== null && status >= 200 && status < 300,
    status,
    error,
    latencyMs: Math.max(0, Math.round(now() - started)),
  });
  let url: URL;
  try {
    url = checkDestinationUrl(target, options);
  } catch (error) {
    return Promise.resolve(done(null, `Refused: the URL ${(error as Error).message}`));
  }
  // Only the demo's 127.0.0.1 and ALERT_ALLOW_PRIVATE skip the address check.
  const checkAddresses = !options.allowPrivate && !isDemoLoopback(url, options);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AlertHttpResult>((resolve) => {
    let settled = false;
    const finish = (result: AlertHttpResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(result);
    };
    const payload = Buffer.from(body, 'utf8');
    const request = client.request(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(payload.length) },
      // A fresh connection per alert: a pooled socket would skip the address check.
      agent: false,
      ...(checkAddresses ? { lookup: guardedLookup(options.lookup ?? dnsLookup) } : {}),
    });
    const deadline = setTimeout(() => {
      finish(done(null, `No answer within ${options.timeoutMs} ms`));
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error) => {
      finish(
        done(
          null,
          error instanceof DestinationRefusedError
            ? `Refused: the destination ${error.message}`
            : `Could not connect (${(error as NodeJS.ErrnoException).code ?? error.message})`,
        ),
      );
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        // Never followed: a redirect could lead anywhere, an internal address included.
        finish(done(status, `Redirect (${status}) not followed; give the final URL`));
        response.destroy();
        request.destroy();
        return;
      }
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > options.maxResponseBytes) {
          finish(done(status, `Answer larger than ${options.maxResponseBytes} bytes; not read`));
          response.destroy();
          request.destroy();
        }
      });
      response.on('end', () =>
        finish(
          done(status, status >= 200 && status < 300 ? null : `The receiver answered ${status}`),
        ),
      );
      response.on('error', () => finish(done(status, 'The answer was cut off')));
    });
    request.end(payload);
  });
}
