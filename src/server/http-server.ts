// The BFF's Node HTTP server: headers capped at 16 KB, and the requests Node or the adapter refuse
// before Hono sees them (oversized headers, malformed request lines, bad Host, CONNECT) still
// answered with problem+json and the baseline security headers instead of a bare status line.
import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { PROBLEM_CONTENT_TYPE, type Problem } from '../shared/problem';
import { REQUEST_LIMITS } from './security/request-limits';
import {
  BASELINE_SECURITY_HEADERS,
  SECURITY_PROBLEM_TYPES,
  standaloneProblemResponse,
} from './security/security-problems';

const BAD_REQUEST: Problem = {
  type: SECURITY_PROBLEM_TYPES.badRequest,
  title: 'Malformed request',
  status: 400,
  detail: 'The request could not be read as HTTP/1.1.',
};

const HEADERS_TOO_LARGE: Problem = {
  type: SECURITY_PROBLEM_TYPES.headersTooLarge,
  title: 'Request headers too large',
  status: 431,
  detail: `Request headers are limited to ${REQUEST_LIMITS.maxHeaderBytes / 1024} KB in all. Clearing this site's cookies may help.`,
};

const REQUEST_TIMEOUT: Problem = {
  ...BAD_REQUEST,
  status: 408,
  title: 'Request timeout',
  detail: 'The request took too long to arrive.',
};

const CONNECT_REFUSED: Problem = {
  type: SECURITY_PROBLEM_TYPES.methodNotAllowed,
  title: 'Method not allowed',
  status: 405,
  detail: 'The console is not a proxy.',
};

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** A problem as raw HTTP/1.1 bytes that close the connection. */
function rawProblemAnswer(problem: Problem): string {
  const body = JSON.stringify(problem);
  const headers = {
    ...BASELINE_SECURITY_HEADERS,
    'Content-Type': PROBLEM_CONTENT_TYPE,
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  const reason = REASONS[problem.status] ?? 'Bad Request';
  return `HTTP/1.1 ${problem.status} ${reason}\r\n${head}\r\n\r\n${body}`;
}

/** The raw HTTP/1.1 answer for a request Node's parser rejected with `code`. */
function clientErrorAnswer(code: string | undefined): string {
  if (code === 'HPE_HEADER_OVERFLOW') return rawProblemAnswer(HEADERS_TOO_LARGE);
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return rawProblemAnswer(REQUEST_TIMEOUT);
  return rawProblemAnswer(BAD_REQUEST);
}

/** Node's `clientError` handler: answer once if the socket can still take it, then close. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A response already under way on this socket cannot be replaced (Node's own check).
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorAnswer(error.code));
}

export interface ConsoleServerOptions {
  fetch: (request: Request, env: HttpBindings) => Response | Promise<Response>;
  hostname?: string;
}

/**
 * Creates (does not start) the HTTP server for the BFF's fetch handler, with Node's
 * `maxHeaderSize` at 16 KB: larger headers get 431 from the parser, before the app runs.
 */
export function createConsoleServer({ fetch, hostname }: ConsoleServerOptions): Server {
  const listener = getRequestListener(fetch as never, {
    ...(hostname ? { hostname } : {}),
    // The adapter refuses absolute URLs it cannot parse, bad Host headers and backslashes before
    // the app runs; those get the same problem+json shape as everything else.
    errorHandler: () => standaloneProblemResponse(BAD_REQUEST),
  });
  const server = createServer(
    {
      maxHeaderSize: REQUEST_LIMITS.maxHeaderBytes,
      // Node would answer a missing Host with a bare 400; the app refuses it as problem+json.
      requireHostHeader: false,
    },
    listener,
  );
  server.on('clientError', answerClientError);
  // CONNECT (a proxy tunnel request) never reaches the request handler: refuse it here rather
  // than dropping the connection without a word.
  server.on('connect', (_request, socket: Duplex) => {
    socket.end(rawProblemAnswer(CONNECT_REFUSED));
  });
  return server;
}
