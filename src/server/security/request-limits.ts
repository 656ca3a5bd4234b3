// Limits on what a request may look like before any route sees it: an origin-form target without
// traversal tricks, a bounded body, and a bounded, clean query. Each refusal is problem+json.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { hasControlCharacters } from '../../shared/filter-values';
import type { AppEnv } from '../http/app-env';
import { HttpProblem, invalidParameter, problemResponse } from '../http/problem';
import { SECURITY_PROBLEM_TYPES } from './security-problems';

/** The request limits of the BFF. Header size is enforced by Node (see http-server.ts). */
export const REQUEST_LIMITS = {
  maxBodyBytes: 64 * 1024,
  maxHeaderBytes: 16 * 1024,
  maxQueryValues: 100,
  maxQueryValueLength: 2_000,
} as const;

// `..` or `.` as a whole segment, also percent-encoded (URL parsers treat %2e like "."); encoded
// slashes and backslashes that a later decoder could turn into separators; double encoding (%25)
// and NUL. None of these has a use in a console URL.
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;
const SUSPICIOUS_ENCODING = /%(2e|2f|5c|25|00)/i;
// API paths are plain ASCII words separated by single slashes.
const API_PATH = /^\/api(\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?$/;

function invalidTarget(detail: string): HttpProblem {
  return new HttpProblem({
    type: SECURITY_PROBLEM_TYPES.invalidRequestTarget,
    title: 'This address is not valid for the console',
    status: 400,
    detail,
  });
}

/**
 * Refuses request targets that are not a plain path: absolute URLs (`GET http://other/…`),
 * `//host` paths, dot segments, encoded separators or dots, backslashes. Uses the raw target from
 * Node when there is one, because the URL parser has already resolved `..` by the time Hono sees
 * the request.
 */
export function requestTargetGuard(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.env?.incoming;
    // HTTP/1.1 requires Host (RFC 9112 §3.2); Node's own refusal would not be problem+json.
    if (incoming && incoming.httpVersion !== '1.0' && !incoming.headers.host) {
      throw invalidTarget('HTTP/1.1 requests must carry a Host header.');
    }
    const raw = incoming?.url;
    const parsed = new URL(c.req.url);
    const target = raw ?? `${parsed.pathname}${parsed.search}`;
    const path = target.split('?', 1)[0] ?? '';
    if (!path.startsWith('/') || path.startsWith('//')) {
      throw invalidTarget(
        'Requests must use a path on this server, not a full or protocol-relative URL.',
      );
    }
    if (path.includes('\\') || DOT_SEGMENT.test(path) || SUSPICIOUS_ENCODING.test(path)) {
      throw invalidTarget('The path contains dot segments, encoded separators or other escapes.');
    }
    if ((path === '/api' || path.startsWith('/api/')) && !API_PATH.test(path)) {
      throw invalidTarget('API paths contain letters, digits, "-", "_", "." and "~" only.');
    }
    await next();
  };
}

/**
 * Bounds the query of API requests: at most 100 values in all, none longer than 2,000 characters,
 * no control characters in names or values. Routes validate their own parameters on top.
 */
export function queryLimits(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const search = new URL(c.req.url).search;
    if (search.length > 1) {
      const params = new URLSearchParams(search);
      const counts = new Map<string, number>();
      for (const [name, value] of params) {
        counts.set(name, (counts.get(name) ?? 0) + 1);
        const shownName = hasControlCharacters(name) ? 'query' : name.slice(0, 64);
        if (hasControlCharacters(name) || hasControlCharacters(value)) {
          throw invalidParameter(shownName, 'control characters are not allowed');
        }
        if (value.length > REQUEST_LIMITS.maxQueryValueLength) {
          throw invalidParameter(
            shownName,
            `values are limited to ${REQUEST_LIMITS.maxQueryValueLength} characters`,
          );
        }
      }
      const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
      if (total > REQUEST_LIMITS.maxQueryValues) {
        const [mostRepeated] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['query'];
        throw invalidParameter(
          mostRepeated.slice(0, 64),
          `at most ${REQUEST_LIMITS.maxQueryValues} values are allowed in one request`,
        );
      }
    }
    await next();
  };
}

/**
 * Whether a request's body cannot exceed the limit without reading it, so Hono's check could only
 * pass. That check asks the request for its body, which on Node builds the whole WHATWG Request
 * and re-wraps its stream to count the bytes: about a fifth of a millisecond of every GET and about
 * half a millisecond of every POST (bench/findings/overhead.md), where the route could otherwise
 * read the body straight from Node's stream.
 * - GET and HEAD: a Fetch API request of either method cannot have a body (the Request
 *   constructor refuses one), so routes never see one.
 * - A body Node has parsed with a Content-Length within the limit: Node's HTTP parser hands the
 *   route exactly that many bytes and refuses a request that also carries Transfer-Encoding
 *   (http-server.ts never enables its lenient parser). Under `app.request` (tests) there is no
 *   Node parser, and a Request's Content-Length header promises nothing about its body.
 */
function bodyCannotExceedLimit(c: Context<AppEnv>): boolean {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return true;
  const incoming = c.env?.incoming;
  if (!incoming || incoming.headers['transfer-encoding'] !== undefined) return false;
  const announced = incoming.headers['content-length'];
  return (
    announced !== undefined &&
    /^\d{1,9}$/.test(announced) &&
    Number(announced) <= REQUEST_LIMITS.maxBodyBytes
  );
}

/**
 * 413 problem+json for a body over 64 KB, whether announced by Content-Length or streamed: an
 * announced size over the limit is refused before anything is read, a streamed (chunked) body is
 * counted as it arrives and refused past the limit. Requests whose body cannot exceed the limit
 * skip the check (bodyCannotExceedLimit).
 */
export function bodySizeLimit(): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: REQUEST_LIMITS.maxBodyBytes,
    onError: (c) =>
      problemResponse(c, {
        type: SECURITY_PROBLEM_TYPES.payloadTooLarge,
        title: 'Request body too large',
        status: 413,
        detail: `Request bodies are limited to ${REQUEST_LIMITS.maxBodyBytes / 1024} KB.`,
      }),
  });
  return (c, next) => (bodyCannotExceedLimit(c) ? next() : limit(c, next));
}
