// The one HTTP client the BFF uses to reach the upstream: undici's request API on keep-alive
// pools, never following redirects, with every call
// bounded in time (connection wait included) and every answer bounded in size.
import { Agent, request } from 'undici';

/** A request the BFF sends upstream. Headers are built by the BFF, never copied from a client. */
export interface TransportRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
  /**
   * The operation this call belongs to: each operation has its own connection pool, so calls of
   * one stalled operation cannot hold every connection while others wait. Default "default".
   */
  operationId?: string;
  /** Largest answer body accepted, in bytes; default the transport's `maxAnswerBytes`. */
  maxAnswerBytes?: number;
  /**
   * The whole call's time when shorter than the transport's `timeoutMs`: what is left of a
   * caller's own deadline after it waited for its turn.
   */
  timeoutMs?: number;
}

/** The upstream's answer with its body read in full. */
export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as UTF-8 text; the HTTP transport decodes it on first read. */
  readonly body: string;
  /**
   * The body's bytes as they arrived (the HTTP transport always gives them). A large event-types
   * answer is moved to a worker thread as bytes and never decoded here, so a 16 MB answer costs
   * the main thread neither a decode nor a copy, nor 16 MB of its heap.
   */
  readonly bytes?: Buffer;
}

/** An answer whose text is decoded from `bytes` only when something reads it. */
export function answerOfBytes(
  status: number,
  headers: TransportResponse['headers'],
  bytes: Buffer,
): TransportResponse {
  let text: string | undefined;
  return {
    status,
    headers,
    bytes,
    get body() {
      text ??= bytes.toString('utf8');
      return text;
    },
  };
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/**
 * Why an upstream call produced no usable HTTP answer: `timeout` (the whole-call deadline passed),
 * `unreachable` (no connection: DNS, refused, no route), `tls` (the TLS handshake or the
 * certificate failed), `closed` (the upstream closed the connection before its answer was
 * complete, e.g. short of its Content-Length), `malformed` (the answer broke HTTP/1.1's rules: an
 * obs-fold header, conflicting Content-Lengths, no status line), `too-large` (the answer was longer than the
 * operation's limit).
 */
export type TransportFailure =
  'timeout' | 'unreachable' | 'tls' | 'closed' | 'malformed' | 'too-large';

const MESSAGES: Record<TransportFailure, string> = {
  timeout: 'upstream timed out',
  unreachable: 'upstream unreachable',
  tls: 'TLS connection to the upstream failed',
  closed: 'upstream closed the connection before the answer was complete',
  malformed: 'upstream answer was not valid HTTP',
  'too-large': 'upstream answer exceeded its size limit',
};

/** Every kind of transport failure (metrics start each at 0). */
export const TRANSPORT_FAILURES = Object.keys(MESSAGES) as TransportFailure[];

/** Why an upstream call produced no usable HTTP answer at all. */
export class TransportError extends Error {
  readonly kind: TransportFailure;
  /** For `too-large`: the limit the answer exceeded, in bytes. */
  readonly limitBytes: number | undefined;
  /**
   * What exactly failed, safe to show an operator: the system or TLS error code (`ENOTFOUND`,
   * `ECONNREFUSED`, `CERT_HAS_EXPIRED`) or the HTTP parser's reason. Never a header value or body.
   */
  readonly reason: string | undefined;
  constructor(kind: TransportFailure, cause: unknown, limitBytes?: number, reason?: string) {
    super(reason ? `${MESSAGES[kind]} (${reason})` : MESSAGES[kind], { cause });
    this.name = 'TransportError';
    this.kind = kind;
    this.limitBytes = limitBytes;
    this.reason = reason;
  }
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Errors of a connection that was open and then ended while the answer was on its way. */
const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);
/** OpenSSL's and Node's TLS error codes: handshake, protocol version, certificate checks. */
const TLS_CODE =
  /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|ERR_OSSL_)/;
/** The HTTP parser's reason, e.g. "Unexpected whitespace after header value". */
const PARSER_REASON = /\(([^()]{1,120})\)\s*$/;

/** What aborts a call still running when its time is up. */
class DeadlineExceeded extends Error {
  override name = 'DeadlineExceeded';
  constructor() {
    super('the upstream call ran past its deadline');
  }
}

/** What ends a body that grew past its limit. */
class AnswerTooLarge extends Error {
  override name = 'AnswerTooLarge';
}

/** The answer limit when configuration names none: UPSTREAM_MAX_ANSWER_BYTES's default. */
export const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export interface HttpTransportOptions {
  /** Whole-call deadline: waiting for a connection, the headers and the full body. */
  timeoutMs: number;
  /** Largest answer body accepted when the request names none, in bytes (default 16 MB). */
  maxAnswerBytes?: number;
  /** Connections per operation's pool (default 128). */
  connectionsPerOperation?: number;
}

/** How much of an answer's body has arrived, and the length its headers declared. */
interface BodyProgress {
  declared: number | undefined;
  received: number;
}

/** Reads `body` in full, refusing it once it has more than `limit` bytes. */
async function readLimited(
  body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown },
  limit: number,
  progress: BodyProgress,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += chunk.length;
    progress.received = length;
    if (length > limit) {
      body.destroy(new AnswerTooLarge());
      throw new AnswerTooLarge();
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
}

/**
 * What went wrong, from undici's error. `body`: how much of the answer had arrived, against its
 * Content-Length, so a body cut short says by how much.
 */
function classify(
  error: unknown,
  signal: AbortSignal,
  limit: number,
  body: BodyProgress,
): TransportError {
  if (error instanceof AnswerTooLarge) return new TransportError('too-large', error, limit);
  if (signal.aborted && signal.reason instanceof DeadlineExceeded) {
    return new TransportError('timeout', error);
  }
  const code = (error as { code?: string }).code ?? '';
  const name = (error as Error).name;
  if (TIMEOUT_CODES.has(code) || name === 'TimeoutError') {
    return new TransportError('timeout', error);
  }
  if (TLS_CODE.test(code)) return new TransportError('tls', error, undefined, code);
  if (name === 'HTTPParserError' || code.startsWith('HPE_')) {
    const reason = PARSER_REASON.exec((error as Error).message)?.[1] ?? 'unreadable answer';
    return new TransportError('malformed', error, undefined, reason);
  }
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return new TransportError(
      'malformed',
      error,
      undefined,
      'body length differs from Content-Length',
    );
  }
  if (CLOSED_CODES.has(code)) {
    // A body cut short of its Content-Length: a connection that broke, or a length that lied;
    // the client cannot tell which, so the reason gives the figures for the operator.
    return new TransportError(
      'closed',
      error,
      undefined,
      body.declared === undefined
        ? undefined
        : `after ${body.received} of the ${body.declared} bytes its Content-Length declared`,
    );
  }
  return new TransportError(
    'unreachable',
    error,
    undefined,
    /^[A-Z][A-Z0-9_]{2,40}$/.test(code) ? code : undefined,
  );
}

/**
 * Creates the transport. undici's `request` does not follow redirects unless a redirect
 * interceptor is installed, and we install none: a 3xx comes back as a 3xx.
 */
export function createHttpTransport({
  timeoutMs,
  maxAnswerBytes = DEFAULT_MAX_ANSWER_BYTES,
  connectionsPerOperation = 128,
}: HttpTransportOptions): Transport & { close(): Promise<void> } {
  const pools = new Map<string, Agent>();
  const poolFor = (operationId: string): Agent => {
    let pool = pools.get(operationId);
    if (!pool) {
      pool = new Agent({
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
        connections: connectionsPerOperation,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        connectTimeout: Math.min(timeoutMs, 10_000),
      });
      pools.set(operationId, pool);
    }
    return pool;
  };
  const transport = async (req: TransportRequest): Promise<TransportResponse> => {
    const limit = req.maxAnswerBytes ?? maxAnswerBytes;
    // The whole-call deadline, kept for real: undici's own timeouts start only once a connection
    // is assigned and bound only the gap between two chunks, so an upstream trickling its answer
    // one byte at a time, or a pool stalled by such calls, would otherwise hold the request open
    // without end.
    const controller = new AbortController();
    const deadline = setTimeout(
      () => controller.abort(new DeadlineExceeded()),
      Math.min(timeoutMs, req.timeoutMs ?? timeoutMs),
    );
    const progress: BodyProgress = { declared: undefined, received: 0 };
    try {
      const response = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: controller.signal,
        dispatcher: poolFor(req.operationId ?? 'default'),
      });
      const declared = Number(response.headers['content-length'] ?? Number.NaN);
      if (Number.isFinite(declared) && declared > limit) {
        response.body.destroy();
        throw new AnswerTooLarge();
      }
      if (Number.isFinite(declared)) progress.declared = declared;
      const bytes = await readLimited(response.body, limit, progress);
      return answerOfBytes(response.statusCode, response.headers, bytes);
    } catch (error) {
      throw classify(error, controller.signal, limit, progress);
    } finally {
      clearTimeout(deadline);
    }
  };
  return Object.assign(transport, {
    close: async () => {
      await Promise.all([...pools.values()].map((pool) => pool.close()));
    },
  });
}
