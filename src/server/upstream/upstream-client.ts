// Sends the BFF's catalog operations to the upstream: builds each URL from validated parts,
// checks it stays on the configured origin and path, attaches the bearer token, and renews the
// token once (and retries once) when the upstream answers 401.
import { traceStep } from '../observability/traced-steps';
import { HttpProblem } from '../http/problem';
import type { UpstreamGuard } from './send-guard';
import type { TokenManager } from './token-manager';
import {
  TransportError,
  type Transport,
  type TransportFailure,
  type TransportResponse,
} from './http-transport';

/** One upstream operation the BFF knows. Only operations of the catalog are ever sent. */
export interface UpstreamOperation {
  id: string;
  method: 'GET';
  /** Path below the base URL; `{name}` segments are filled from `pathParams`. */
  path: string;
}

export interface UpstreamCall {
  pathParams?: Record<string, string>;
  /** Query pairs in wire order; values are already validated by the route. */
  query?: ReadonlyArray<readonly [string, string]>;
  /** Operation headers such as `identifier`; validated by the route, never copied from a client. */
  headers?: Record<string, string>;
  /** What is left of the caller's deadline, when it is shorter than UPSTREAM_TIMEOUT_MS. */
  timeoutMs?: number;
}

/** Raised when a built URL would leave the configured upstream: a bug, never sent. */
export class UnsafeUpstreamUrlError extends Error {
  override name = 'UnsafeUpstreamUrlError';
}

/** Builds the URL of `operation` below `baseUrl` and refuses anything that escapes it. */
export function buildUpstreamUrl(
  baseUrl: URL,
  operation: UpstreamOperation,
  { pathParams = {}, query = [] }: UpstreamCall,
): URL {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = pathParams[name];
    if (value === undefined) throw new UnsafeUpstreamUrlError(`missing path parameter ${name}`);
    // encodeURIComponent leaves "." alone, so "", "." and ".." would become (dot) segments.
    if (value === '' || value === '.' || value === '..') {
      throw new UnsafeUpstreamUrlError(`unsafe path parameter ${name}`);
    }
    return encodeURIComponent(value);
  });
  const basePath = baseUrl.pathname.replace(/\/+$/, '');
  const url = new URL(baseUrl.origin + basePath + path);
  for (const [name, value] of query) url.searchParams.append(name, value);
  // Defence in depth: encoded parameters cannot add `..` segments today, but a catalog override
  // or a future change might; nothing leaves for another host or outside the base path.
  if (
    url.origin !== baseUrl.origin ||
    !url.pathname.startsWith(`${basePath}/`) ||
    url.pathname !== basePath + path
  ) {
    throw new UnsafeUpstreamUrlError('built upstream URL leaves the configured base URL');
  }
  return url;
}

export interface UpstreamClientOptions {
  baseUrl: URL;
  transport: Transport;
  tokens: TokenManager;
  /**
   * The rate-limit governor's hooks: every request (a 401 retry too) takes from the limits of
   * docs/rate-limit-model.md before it is sent, and every 429 is recorded as an incident before the
   * caller sees it.
   */
  guard?: UpstreamGuard;
  /** Largest answer accepted per operation id; operations not named get the transport's own. */
  maxAnswerBytesByOperation?: Readonly<Record<string, number>>;
  /**
   * Told of every request sent (a 401 retry too): the operation, the answer's status or why there
   * was none, and how long it took, for metrics.
   */
  observe?: (
    operationId: string,
    outcome: number | TransportFailure | 'invalid',
    seconds: number,
  ) => void;
}

/** Answers that say the token itself was refused: renewed once, never cached for its life. */
const TOKEN_REFUSED = new Set([401, 431]);

/** The BFF's client for catalog operations. */
export class UpstreamClient {
  readonly #options: UpstreamClientOptions;

  constructor(options: UpstreamClientOptions) {
    this.#options = options;
  }

  /**
   * Sends `operation` and returns the upstream's answer, whatever its status. Throws TokenError
   * when no token can be had and TransportError when the upstream gave no answer. With a guard,
   * a call the governor holds back, and any upstream 429, throw a 429 HttpProblem instead.
   */
  async send(operation: UpstreamOperation, call: UpstreamCall = {}): Promise<TransportResponse> {
    const url = buildUpstreamUrl(this.#options.baseUrl, operation, call);
    // Before the token: a blocked account must not even cause a token request.
    await this.#governorWait(operation);
    const token = await this.#getToken();
    const first = await this.#sendWith(token, operation, url, call);
    if (!TOKEN_REFUSED.has(first.status)) return first;
    // The token may have been revoked or expired early (401), or be one a server in front of the
    // platform will not take (431, its header too large): renew once and retry once, never more.
    this.#options.tokens.invalidate(token);
    const renewed = await this.#getToken();
    await this.#governorWait(operation);
    return this.#sendWith(renewed, operation, url, call);
  }

  /** The governor's turn, as the "governor wait" step naming the rule that held the call back. */
  async #governorWait(operation: UpstreamOperation): Promise<void> {
    const guard = this.#options.guard;
    if (!guard) return;
    await traceStep('governor wait', { 'console.operation_id': operation.id }, async (span) => {
      try {
        await guard.beforeSend(operation);
      } catch (error) {
        const held = error instanceof HttpProblem ? error.problem : undefined;
        if (typeof held?.ruleId === 'string') span.setAttribute('console.rule_id', held.ruleId);
        if (typeof held?.limitedBy === 'string') {
          span.setAttribute('console.limited_by', held.limitedBy);
        }
        throw error;
      }
    });
  }

  async #getToken(): Promise<string> {
    return traceStep('token fetch', {}, async () => {
      try {
        return await this.#options.tokens.getToken();
      } catch (error) {
        throw (await this.#options.guard?.explainFailure(error)) ?? error;
      }
    });
  }

  #answerLimit(operationId: string): { maxAnswerBytes?: number } {
    const limit = this.#options.maxAnswerBytesByOperation?.[operationId];
    return limit === undefined ? {} : { maxAnswerBytes: limit };
  }

  async #sendWith(token: string, operation: UpstreamOperation, url: URL, call: UpstreamCall) {
    const observe = this.#options.observe;
    const started = observe ? performance.now() : 0;
    let response: TransportResponse;
    try {
      response = await this.#options.transport({
        method: operation.method,
        url,
        headers: { ...call.headers, accept: 'application/json', authorization: `Bearer ${token}` },
        operationId: operation.id,
        ...this.#answerLimit(operation.id),
        ...(call.timeoutMs === undefined ? {} : { timeoutMs: call.timeoutMs }),
      });
    } catch (error) {
      // No HTTP answer (timeout, unreachable), or one the answer filter refused (invalid).
      const kind = error instanceof TransportError ? error.kind : 'invalid';
      observe?.(operation.id, kind, (performance.now() - started) / 1_000);
      throw error;
    }
    observe?.(operation.id, response.status, (performance.now() - started) / 1_000);
    await this.#options.guard?.afterAnswer(operation, response);
    return response;
  }
}
