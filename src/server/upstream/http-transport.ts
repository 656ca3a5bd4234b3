// The one HTTP client the BFF uses to reach the upstream: undici's request API on a keep-alive
// pool (the lean path the throughput bars of PRODUCT.md §9 need), never following redirects.
import { Agent, request } from 'undici';

/** A request the BFF sends upstream. Headers are built by the BFF, never copied from a client. */
export interface TransportRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/** The upstream's answer with its body read in full (bodies here are small JSON documents). */
export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** Why an upstream call produced no HTTP answer at all. */
export class TransportError extends Error {
  readonly kind: 'timeout' | 'unreachable';
  constructor(kind: 'timeout' | 'unreachable', cause: unknown) {
    super(kind === 'timeout' ? 'upstream timed out' : 'upstream unreachable', { cause });
    this.name = 'TransportError';
    this.kind = kind;
  }
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_ABORTED',
]);

/** What ends a body still arriving when its call's time is up. */
class DeadlineExceeded extends Error {
  readonly code = 'UND_ERR_BODY_TIMEOUT';
  constructor() {
    super('the upstream call ran past its deadline');
  }
}

/**
 * Bodies being read, with the time their call must be over by. bodyTimeout only bounds the gap
 * between two chunks, so an upstream that trickles its answer could hold a call for ever; one sweep
 * every 100 ms ends those past their deadline. One interval for all calls, running only while some
 * body is being read: a timer per call would cost more than the rest of the client.
 */
class BodyDeadlines {
  readonly #reading = new Map<{ destroy(error: Error): unknown }, number>();
  #sweeper: NodeJS.Timeout | undefined;

  track(body: { destroy(error: Error): unknown }, deadline: number): void {
    this.#reading.set(body, deadline);
    this.#sweeper ??= setInterval(() => this.#sweep(), 100).unref();
  }

  done(body: { destroy(error: Error): unknown }): void {
    this.#reading.delete(body);
  }

  #sweep(): void {
    if (this.#reading.size === 0) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
      return;
    }
    const now = Date.now();
    for (const [body, deadline] of this.#reading) {
      if (now >= deadline) {
        this.#reading.delete(body);
        body.destroy(new DeadlineExceeded());
      }
    }
  }
}

/**
 * Creates the transport. undici's `request` does not follow redirects unless a redirect
 * interceptor is installed, and we install none: a 3xx comes back as a 3xx.
 */
export function createHttpTransport({ timeoutMs }: { timeoutMs: number }): Transport & {
  close(): Promise<void>;
} {
  const dispatcher = new Agent({
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    connections: 128,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connectTimeout: Math.min(timeoutMs, 10_000),
  });
  const deadlines = new BodyDeadlines();
  const transport = async (req: TransportRequest): Promise<TransportResponse> => {
    const deadline = Date.now() + timeoutMs;
    try {
      const response = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        // headersTimeout bounds the wait for the answer, the sweep above the whole call; a
        // per-request AbortSignal timer would cost more than the rest of the client.
        dispatcher,
      });
      deadlines.track(response.body, deadline);
      try {
        return {
          status: response.statusCode,
          headers: response.headers,
          body: await response.body.text(),
        };
      } finally {
        deadlines.done(response.body);
      }
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      const isTimeout = TIMEOUT_CODES.has(code) || (error as Error).name === 'TimeoutError';
      throw new TransportError(isTimeout ? 'timeout' : 'unreachable', error);
    }
  };
  return Object.assign(transport, { close: () => dispatcher.close() });
}
